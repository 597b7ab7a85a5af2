// sdformat_model_dump: the whole model libsdformat (C++, sdformat12) loads from a file, as a
// test oracle for `gzinertia expand --sdf` (the SDFormat libsdformat builds from a URDF).
//
// Usage: sdformat_model_dump FILE...
//
// Loads each FILE with sdf::Root::Load (a URDF file goes through libsdformat's own URDF->SDF
// conversion) and writes one JSON object per file, one per line, to standard output:
//
//   {"file": FILE, "errors": [message, ...], "version": "<sdf version> of the loaded file",
//    "model": name, "plugins": [{"name", "filename", "xml"}...],
//    "links": [{"name", "X_MB", "mass", "X_BI", "I",
//               "collisions": [{"name", "X_BS", "geometry", "mu", "mu2"}, ...],
//               "visuals": [{"name", "X_BS", "geometry", "material"}, ...],
//               "sensors": [{"name", "type", "X_BS"}], "plugins": [...]}, ...],
//    "joints": [{"name", "type", "parent", "child", "X_MJ",
//                "axes": [{"xyz_M", "lower", "upper", "effort", "velocity", "damping",
//                          "friction", "spring_reference", "spring_stiffness"}],
//                "plugins": [...], "provide_feedback"}, ...]}
//
// Frames (gzinertia's DESIGN.md, Drake monogram notation): M is the model frame (__model__);
// X_MB and X_MJ are link and joint frames in M, X_BS a collision's, visual's or sensor's frame in
// its link frame B, X_BI the inertial frame in B: 4x4 homogeneous matrices, row-major. I is the
// rotational inertia about Bcm in I axes [ixx, iyy, izz, ixy, ixz, iyz]. xyz_M is a joint axis
// resolved in M (JointAxis::ResolveXyz). "type" is sdf::JointType as an int. "geometry" is
// [kind, numbers...] (box: size; sphere: radius; cylinder: radius, length; mesh: uri and scale).
// "material": [script name, ambient rgba, diffuse rgba] or null. A plugin's "xml" is its element
// as libsdformat prints it (Element::ToString), its children copied verbatim.
// Diagnostics libsdformat prints to std::cout go to stderr.

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <sdf/sdf.hh>

namespace
{
using Pose = ignition::math::Pose3d;
using Mat4 = ignition::math::Matrix4d;

std::string Str(const std::string &s)
{
  std::string out = "\"";
  for (const unsigned char c : s)
  {
    if (c == '"' || c == '\\') { out += '\\'; out += static_cast<char>(c); }
    else if (c < 0x20) { char b[8]; std::snprintf(b, sizeof(b), "\\u%04x", c); out += b; }
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

std::string Num(double x)
{
  if (!std::isfinite(x))
    return "null";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", x);
  return buf;
}

std::string Nums(const std::vector<double> &v)
{
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    out += (i ? "," : "") + Num(v[i]);
  return out + "]";
}

std::string Matrix(const Pose &X)
{
  const Mat4 T(X);
  std::vector<double> v;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      v.push_back(T(r, c));
  return Nums(v);
}

std::string Color(const ignition::math::Color &c)
{
  return Nums({c.R(), c.G(), c.B(), c.A()});
}

std::string Geometry(const sdf::Geometry *g)
{
  if (g == nullptr)
    return "null";
  if (g->BoxShape())
  {
    const auto s = g->BoxShape()->Size();
    return "[\"box\"," + Num(s.X()) + "," + Num(s.Y()) + "," + Num(s.Z()) + "]";
  }
  if (g->SphereShape())
    return "[\"sphere\"," + Num(g->SphereShape()->Radius()) + "]";
  if (g->CylinderShape())
    return "[\"cylinder\"," + Num(g->CylinderShape()->Radius()) + "," +
           Num(g->CylinderShape()->Length()) + "]";
  if (g->MeshShape())
  {
    const auto s = g->MeshShape()->Scale();
    return "[\"mesh\"," + Str(g->MeshShape()->Uri()) + "," + Num(s.X()) + "," + Num(s.Y()) +
           "," + Num(s.Z()) + "]";
  }
  return "[" + std::to_string(static_cast<int>(g->Type())) + "]";
}

/// The <plugin> children of `elem`, each with its name, filename and text.
std::string Plugins(const sdf::ElementPtr &elem)
{
  std::string out = "[";
  bool first = true;
  if (elem && elem->HasElement("plugin"))
    for (auto p = elem->GetElement("plugin"); p; p = p->GetNextElement("plugin"))
    {
      out += first ? "" : ",";
      first = false;
      out += "{\"name\":" + Str(p->Get<std::string>("name")) + ",\"filename\":" +
             Str(p->Get<std::string>("filename")) + ",\"xml\":" + Str(p->ToString("")) + "}";
    }
  return out + "]";
}

/// mu or mu2 of a collision's <surface><friction><ode>, or null when not written.
std::string Friction(const sdf::ElementPtr &collision, const std::string &which)
{
  sdf::ElementPtr e = collision;
  for (const char *name : {"surface", "friction", "ode"})
  {
    if (!e->HasElement(name))
      return "null";
    e = e->GetElement(name);
  }
  return e->HasElement(which) ? Num(e->Get<double>(which)) : "null";
}

std::string Link(const sdf::Link &link, sdf::Errors &errors)
{
  Pose X_MB, X;
  auto e = link.SemanticPose().Resolve(X_MB, "__model__");
  errors.insert(errors.end(), e.begin(), e.end());
  const auto &M = link.Inertial().MassMatrix();
  const auto d = M.DiagonalMoments();
  const auto o = M.OffDiagonalMoments();
  std::string out = "{\"name\":" + Str(link.Name()) + ",\"X_MB\":" + Matrix(X_MB);
  out += ",\"mass\":" + Num(M.Mass()) + ",\"X_BI\":" + Matrix(link.Inertial().Pose());
  out += ",\"I\":" + Nums({d.X(), d.Y(), d.Z(), o.X(), o.Y(), o.Z()});
  out += ",\"collisions\":[";
  for (uint64_t i = 0; i < link.CollisionCount(); ++i)
  {
    const sdf::Collision &c = *link.CollisionByIndex(i);
    e = c.SemanticPose().Resolve(X, link.Name());
    errors.insert(errors.end(), e.begin(), e.end());
    out += (i ? "," : "") + std::string("{\"name\":") + Str(c.Name()) + ",\"X_BS\":" +
           Matrix(X) + ",\"geometry\":" + Geometry(c.Geom()) + ",\"mu\":" +
           Friction(c.Element(), "mu") + ",\"mu2\":" + Friction(c.Element(), "mu2") + "}";
  }
  out += "],\"visuals\":[";
  for (uint64_t i = 0; i < link.VisualCount(); ++i)
  {
    const sdf::Visual &v = *link.VisualByIndex(i);
    e = v.SemanticPose().Resolve(X, link.Name());
    errors.insert(errors.end(), e.begin(), e.end());
    const sdf::Material *m = v.Material();
    const std::string material = m == nullptr ? "null" :
      "[" + Str(m->ScriptName()) + "," + Color(m->Ambient()) + "," + Color(m->Diffuse()) + "]";
    out += (i ? "," : "") + std::string("{\"name\":") + Str(v.Name()) + ",\"X_BS\":" +
           Matrix(X) + ",\"geometry\":" + Geometry(v.Geom()) + ",\"material\":" + material +
           "}";
  }
  out += "],\"sensors\":[";
  for (uint64_t i = 0; i < link.SensorCount(); ++i)
  {
    const sdf::Sensor &s = *link.SensorByIndex(i);
    e = s.SemanticPose().Resolve(X, link.Name());
    errors.insert(errors.end(), e.begin(), e.end());
    out += (i ? "," : "") + std::string("{\"name\":") + Str(s.Name()) + ",\"type\":" +
           Str(s.TypeStr()) + ",\"X_BS\":" + Matrix(X) + "}";
  }
  return out + "],\"plugins\":" + Plugins(link.Element()) + "}";
}

std::string Joint(const sdf::Joint &joint, sdf::Errors &errors)
{
  Pose X_MJ;
  auto e = joint.SemanticPose().Resolve(X_MJ, "__model__");
  errors.insert(errors.end(), e.begin(), e.end());
  std::string out = "{\"name\":" + Str(joint.Name()) + ",\"type\":" +
                    std::to_string(static_cast<int>(joint.Type())) + ",\"parent\":" +
                    Str(joint.ParentLinkName()) + ",\"child\":" + Str(joint.ChildLinkName()) +
                    ",\"X_MJ\":" + Matrix(X_MJ) + ",\"axes\":[";
  for (unsigned int i = 0; i < 2; ++i)
  {
    const sdf::JointAxis *a = joint.Axis(i);
    if (a == nullptr)
      continue;
    ignition::math::Vector3d xyz;
    e = a->ResolveXyz(xyz, "__model__");
    errors.insert(errors.end(), e.begin(), e.end());
    out += (i ? "," : "") + std::string("{\"xyz_M\":") + Nums({xyz.X(), xyz.Y(), xyz.Z()}) +
           ",\"lower\":" + Num(a->Lower()) + ",\"upper\":" + Num(a->Upper()) +
           ",\"effort\":" + Num(a->Effort()) + ",\"velocity\":" + Num(a->MaxVelocity()) +
           ",\"damping\":" + Num(a->Damping()) + ",\"friction\":" + Num(a->Friction()) +
           ",\"spring_reference\":" + Num(a->SpringReference()) + ",\"spring_stiffness\":" +
           Num(a->SpringStiffness()) + "}";
  }
  const sdf::ElementPtr elem = joint.Element();
  const bool feedback = elem->HasElement("physics") &&
    elem->GetElement("physics")->Get<bool>("provide_feedback");
  return out + "],\"plugins\":" + Plugins(elem) + ",\"provide_feedback\":" +
         (feedback ? "true" : "false") + "}";
}

std::string Dump(const std::string &file)
{
  sdf::Root root;
  sdf::Errors errors = root.Load(file);
  std::string out = "{\"file\":" + Str(file) + ",\"version\":" + Str(root.Version());
  std::string body = ",\"model\":null,\"plugins\":[],\"links\":[],\"joints\":[]";
  if (const sdf::Model *model = root.Model())
  {
    body = ",\"model\":" + Str(model->Name()) + ",\"plugins\":" + Plugins(model->Element()) +
           ",\"links\":[";
    for (uint64_t i = 0; i < model->LinkCount(); ++i)
      body += (i ? "," : "") + Link(*model->LinkByIndex(i), errors);
    body += "],\"joints\":[";
    for (uint64_t i = 0; i < model->JointCount(); ++i)
      body += (i ? "," : "") + Joint(*model->JointByIndex(i), errors);
    body += "]";
  }
  out += body + ",\"errors\":[";
  for (std::size_t i = 0; i < errors.size(); ++i)
    out += (i ? "," : "") + Str(errors[i].Message());
  return out + "]}";
}
}  // namespace

int main(int argc, char **argv)
{
  const int json_fd = dup(STDOUT_FILENO);
  if (json_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return 2;
  FILE *json = fdopen(json_fd, "w");
  if (json == nullptr)
    return 2;
  for (int i = 1; i < argc; ++i)
  {
    const std::string line = Dump(argv[i]);
    std::fputs(line.c_str(), json);
    std::fputc('\n', json);
    std::fflush(json);
  }
  std::fclose(json);
  return 0;
}
