// sdformat_dump: libsdformat (C++, sdformat12) as a test oracle for gzinertia's SDF reader.
//
// Usage: sdformat_dump [--model-path=DIRS] FILE... [--model-path=DIRS] FILE...
//
// Loads each FILE with sdf::Root::Load and writes one JSON object per file, one per line, to
// standard output:
//
//   {"file": FILE, "errors": [{"code": int, "message": str, "file": str|null,
//                              "line": int|null}, ...],
//    "root": "world" | "model" | "none",
//    "links": [{"name": "top::nested::link", "X_WB": [16 numbers], "mass": m,
//               "X_BI": [16 numbers], "I": [ixx, iyy, izz, ixy, ixz, iyz],
//               "visuals": [{"name": str, "X_BV": [16 numbers]}, ...]}, ...]}
//
// Frames and conventions (gzinertia's DESIGN.md, Drake monogram notation):
// * X_WB: pose of the link frame B in the root frame W, a 4x4 homogeneous matrix, row-major.
//   World files: W is the world frame. Model files: W is the world the top-level model is
//   posed in, i.e. the model's own <pose> (and placement_frame) is applied, as Drake does.
// * X_BI: pose of the inertial frame I (origin at the centre of mass Bcm) in the link frame,
//   4x4 row-major (gz-math Inertiald::Pose()).
// * X_BV: pose of a <visual>'s frame V in the link frame B (sdf::Visual::SemanticPose()
//   resolved relative to the link: relative_to another frame applied as libsdformat does).
// * I: the rotational inertia about Bcm in I axes (gz-math MassMatrix3d), tensor entries
//   (ixy = -integral of x y dm), in the order ixx iyy izz ixy ixz iyz.
// * Names are scoped from the top-level model ("model::nested::link"); in a world file the
//   world's name is not part of them. Links of a model come first (libsdformat's order, which
//   is document order), then those of its nested models, depth first.
//
// Model paths: the directories of the last --model-path=DIRS before a FILE (":"-separated;
// none before the first option), then those of SDF_PATH, GZ_SIM_RESOURCE_PATH and
// IGN_GAZEBO_RESOURCE_PATH, in that order, are added to the parser's "model://" URI path map,
// and a find callback searches the same directories for other relative URIs, as Gazebo's does.
// Both are set on libsdformat's global parser config, which libsdformat 12 uses for includes
// nested in included files whatever config Root::Load is given.
//
// Each file is loaded as sdf::Root::Load(file) does, from a copy of a spec description
// initialised once (environment variable SDFORMAT_DUMP_PLAIN_LOAD: call sdf::Root::Load itself).
//
// A file that fails to load still gives a line: its errors, and whatever links libsdformat
// built. Diagnostics that libsdformat prints to std::cout go to stderr, so that standard output
// holds only the JSON lines.

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <sdf/sdf.hh>

namespace
{

using Pose = ignition::math::Pose3d;
using Mat4 = ignition::math::Matrix4d;

/// JSON string literal of s (quotes, backslashes and control characters escaped).
std::string JsonString(const std::string &s)
{
  std::string out = "\"";
  for (const unsigned char c : s)
  {
    switch (c)
    {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20)
        {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        }
        else
        {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

/// JSON number with round-trip precision; non-finite values become null.
std::string JsonNumber(double x)
{
  if (!std::isfinite(x))
    return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", x);
  return buf;
}

/// The 16 entries of a homogeneous transform, row-major, as a JSON array.
std::string JsonMatrix(const Mat4 &T)
{
  std::string out = "[";
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      out += (r || c ? "," : "") + JsonNumber(T(r, c));
  return out + "]";
}

std::string JsonErrors(const sdf::Errors &errors)
{
  std::string out = "[";
  bool first = true;
  for (const auto &e : errors)
  {
    out += first ? "" : ",";
    first = false;
    out += "{\"code\":" + std::to_string(static_cast<int>(e.Code()));
    out += ",\"message\":" + JsonString(e.Message());
    out += ",\"file\":" + (e.FilePath() ? JsonString(*e.FilePath()) : std::string("null"));
    out += ",\"line\":" +
           (e.LineNumber() ? std::to_string(*e.LineNumber()) : std::string("null"));
    out += "}";
  }
  return out + "]";
}

/// One link's JSON object; X_WM is the pose of its model's frame in W.
std::string JsonLink(const sdf::Link &link, const std::string &scope, const Mat4 &X_WM,
                     sdf::Errors &errors)
{
  Pose X_MB;
  const sdf::Errors e = link.SemanticPose().Resolve(X_MB, "__model__");
  errors.insert(errors.end(), e.begin(), e.end());
  const Mat4 X_WB = X_WM * Mat4(X_MB);
  const auto &inertial = link.Inertial();
  const auto &M = inertial.MassMatrix();
  const auto d = M.DiagonalMoments();
  const auto o = M.OffDiagonalMoments();  // (Ixy, Ixz, Iyz)
  std::string out = "{\"name\":" + JsonString(scope + "::" + link.Name());
  out += ",\"X_WB\":" + JsonMatrix(X_WB);
  out += ",\"mass\":" + JsonNumber(M.Mass());
  out += ",\"X_BI\":" + JsonMatrix(Mat4(inertial.Pose()));
  out += ",\"I\":[" + JsonNumber(d.X()) + "," + JsonNumber(d.Y()) + "," + JsonNumber(d.Z()) +
         "," + JsonNumber(o.X()) + "," + JsonNumber(o.Y()) + "," + JsonNumber(o.Z()) + "]";
  out += ",\"visuals\":[";
  for (uint64_t i = 0; i < link.VisualCount(); ++i)
  {
    const sdf::Visual &visual = *link.VisualByIndex(i);
    Pose X_BV;
    const sdf::Errors ve = visual.SemanticPose().Resolve(X_BV, link.Name());
    errors.insert(errors.end(), ve.begin(), ve.end());
    out += (i ? "," : "") + std::string("{\"name\":") + JsonString(visual.Name());
    out += ",\"X_BV\":" + JsonMatrix(Mat4(X_BV)) + "}";
  }
  out += "]}";
  return out;
}

/// Append the links of `model` and of its nested models (depth first) to `links`.
/// `X_WM` is the pose of `model`'s frame in W, `scope` its scoped name.
void CollectLinks(const sdf::Model &model, const std::string &scope, const Mat4 &X_WM,
                  std::vector<std::string> &links, sdf::Errors &errors)
{
  for (uint64_t i = 0; i < model.LinkCount(); ++i)
    links.push_back(JsonLink(*model.LinkByIndex(i), scope, X_WM, errors));
  for (uint64_t i = 0; i < model.ModelCount(); ++i)
  {
    const sdf::Model &nested = *model.ModelByIndex(i);
    Pose X_MN;  // nested model frame N in its parent model frame M
    const sdf::Errors e = nested.SemanticPose().Resolve(X_MN, "__model__");
    errors.insert(errors.end(), e.begin(), e.end());
    CollectLinks(nested, scope + "::" + nested.Name(), X_WM * Mat4(X_MN), links, errors);
  }
}

/// Append the non-empty entries of the ":"-separated list `list` to `dirs`.
void SplitPath(const std::string &list, std::vector<std::string> &dirs)
{
  std::stringstream ss(list);
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty())
      dirs.push_back(dir);
}

/// The model path: `explicitDirs` (":"-separated), then the model path variables.
std::vector<std::string> ModelPaths(const std::string &explicitDirs)
{
  std::vector<std::string> dirs;
  SplitPath(explicitDirs, dirs);
  for (const char *var : {"SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH"})
  {
    const char *value = std::getenv(var);
    if (value)
      SplitPath(value, dirs);
  }
  return dirs;
}

sdf::ParserConfig MakeConfig(const std::string &explicitDirs)
{
  sdf::ParserConfig config;
  const std::vector<std::string> dirs = ModelPaths(explicitDirs);
  for (const auto &dir : dirs)
    config.AddURIPath("model://", dir);
  config.SetFindCallback([dirs](const std::string &uri) -> std::string {
    std::string rest = uri;
    const auto scheme = rest.find("://");
    if (scheme != std::string::npos)
    {
      if (rest.compare(0, scheme, "model") != 0)
        return "";  // package://, https://: not looked up
      rest = rest.substr(scheme + 3);
    }
    for (const auto &dir : dirs)
    {
      const std::filesystem::path candidate = std::filesystem::path(dir) / rest;
      if (std::filesystem::exists(candidate))
        return candidate.string();
    }
    return "";
  });
  return config;
}

/// Load `file` as sdf::Root::Load(file, config) does, but starting from a copy of the
/// already initialised spec description `spec` (sdf::init parses the whole embedded spec, which
/// costs more than reading a small file; the copy is several times cheaper).
/// With a null `spec`, plain sdf::Root::Load(file, config).
sdf::Errors Load(sdf::Root &root, const std::string &file, const sdf::SDFPtr &spec,
                 const sdf::ParserConfig &config)
{
  if (!spec)
    return root.Load(file, config);
  sdf::Errors errors;
  sdf::SDFPtr parsed(new sdf::SDF());
  parsed->Root(spec->Root()->Clone());
  if (!sdf::readFile(file, config, parsed, errors))
  {
    errors.push_back({sdf::ErrorCode::FILE_READ, "Unable to read file:" + file});
    return errors;
  }
  const sdf::Errors loadErrors = root.Load(parsed, config);
  errors.insert(errors.end(), loadErrors.begin(), loadErrors.end());
  return errors;
}

/// The JSON line for one file.
std::string Dump(const std::string &file, const sdf::SDFPtr &spec,
                 const sdf::ParserConfig &config)
{
  sdf::Root root;
  sdf::Errors errors = Load(root, file, spec, config);
  std::vector<std::string> links;
  std::string kind = "none";
  if (root.WorldCount() > 0)
  {
    kind = "world";
    for (uint64_t w = 0; w < root.WorldCount(); ++w)
    {
      const sdf::World &world = *root.WorldByIndex(w);
      for (uint64_t i = 0; i < world.ModelCount(); ++i)
      {
        const sdf::Model &model = *world.ModelByIndex(i);
        Pose X_WM;
        const sdf::Errors e = model.SemanticPose().Resolve(X_WM, "world");
        errors.insert(errors.end(), e.begin(), e.end());
        CollectLinks(model, model.Name(), Mat4(X_WM), links, errors);
      }
    }
  }
  else if (root.Model() != nullptr)
  {
    kind = "model";
    const sdf::Model &model = *root.Model();
    Pose X_WM;  // the top-level model's own <pose> (placement_frame applied by libsdformat)
    const sdf::Errors e = model.SemanticPose().Resolve(X_WM);
    errors.insert(errors.end(), e.begin(), e.end());
    CollectLinks(model, model.Name(), Mat4(X_WM), links, errors);
  }
  std::string out = "{\"file\":" + JsonString(file) + ",\"errors\":" + JsonErrors(errors);
  out += ",\"root\":" + JsonString(kind) + ",\"links\":[";
  for (std::size_t i = 0; i < links.size(); ++i)
    out += (i ? "," : "") + links[i];
  return out + "]}";
}

}  // namespace

int main(int argc, char **argv)
{
  // Our JSON goes to the original stdout; anything else written to std::cout goes to stderr.
  const int json_fd = dup(STDOUT_FILENO);
  if (json_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return 2;
  FILE *json = fdopen(json_fd, "w");
  if (json == nullptr)
    return 2;
  // The global config, not a local one: libsdformat 12 reads includes nested inside included
  // files with sdf::ParserConfig::GlobalConfig(), whatever config Root::Load was given.
  sdf::ParserConfig &config = sdf::ParserConfig::GlobalConfig();
  config = MakeConfig("");
  sdf::SDFPtr spec(new sdf::SDF());
  if (!sdf::init(spec))
    return 2;
  // SDFORMAT_DUMP_PLAIN_LOAD set: use sdf::Root::Load(file) itself (slower; for checking that
  // the spec-copying Load() gives the same results).
  if (std::getenv("SDFORMAT_DUMP_PLAIN_LOAD") != nullptr)
    spec.reset();
  const std::string option = "--model-path=";
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    if (arg.compare(0, option.size(), option) == 0)
    {
      config = MakeConfig(arg.substr(option.size()));
      continue;
    }
    const std::string line = Dump(arg, spec, config);
    std::fputs(line.c_str(), json);
    std::fputc('\n', json);
    std::fflush(json);
  }
  std::fclose(json);
  return 0;
}
