"""Synthetic SDFormat corpora for the benchmarks: many files with includes and nested models, or
one model with many links.

``python benchmarks/synthetic_corpus.py OUT [--files 1000]`` writes the corpus of
:func:`build_corpus` to ``OUT`` and prints what it holds. Deterministic for a given size.

Every file is SDFormat 1.10 that libsdformat, Drake and gzinertia all load: links with a rotated
``<inertial><pose>``, a valid diagonal inertia, a box, cylinder or sphere collision and, on one
link in five, a diagonal ``<fluid_added_mass>``; revolute joints; links posed ``relative_to``
other links; a nested ``<model>``; ``<include>`` of ``model://name/model.sdf`` URIs (Drake
resolves no bare ``model://name`` folder) found through the model path (``models/``, to be given
as ``--model-path``, ``GZ_SIM_RESOURCE_PATH`` or, for Drake, one ``package_map().Add(name,
folder)`` per model). Half of the library models include
another library model, so includes nest two deep.
"""

from __future__ import annotations

import argparse
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

SDF_VERSION = "1.10"
#: Library models under ``models/``: ``part_0`` .. ``part_{N-1}``; the upper half include one of
#: the lower half.
LIBRARY_MODELS = 20


@dataclass
class Corpus:
    """What :func:`build_corpus` wrote.

    ``files``: every SDF file (library ``model.sdf`` files first, then the robots), the same list
    for every tool; ``model_path``: the folder to search for ``model://`` URIs; ``packages``:
    model name → folder (Drake's package map); ``parsed``: for each file, every XML file a reader
    that expands includes parses (the file, then each included ``model.sdf``, recursively);
    ``links``: links per file after includes are expanded.
    """

    root: Path
    model_path: Path
    files: list[Path] = field(default_factory=list)
    packages: dict[str, Path] = field(default_factory=dict)
    parsed: dict[Path, list[Path]] = field(default_factory=dict)
    links: dict[Path, int] = field(default_factory=dict)

    @property
    def total_links(self) -> int:
        return sum(self.links.values())


def _f(x: float) -> str:
    return f"{x:.6g}"


def link_xml(
    name: str,
    rng: random.Random,
    indent: str,
    relative_to: str | None = None,
    translation: tuple[float, float, float] | None = None,
) -> str:
    """One ``<link>`` with a rotated inertial frame, a valid inertia and one collision.

    Its ``<pose>`` is random (within 0.5 m of ``relative_to``, turned about z) unless
    ``translation`` is given (then a pure translation).
    """
    mass = rng.uniform(0.2, 20.0)
    a, b, c = (rng.uniform(0.05, 0.6) for _ in range(3))
    ixx, iyy, izz = (
        mass / 12.0 * (b * b + c * c),
        mass / 12.0 * (a * a + c * c),
        mass / 12.0 * (a * a + b * b),
    )
    com = " ".join(_f(rng.uniform(-0.05, 0.05)) for _ in range(3))
    rpy = " ".join(_f(rng.uniform(-math.pi, math.pi)) for _ in range(3))
    pose = " ".join(_f(rng.uniform(-0.5, 0.5)) for _ in range(3)) + " 0 0 " + _f(rng.uniform(-1, 1))
    if translation is not None:
        pose = " ".join(_f(v) for v in translation) + " 0 0 0"
    rel = f' relative_to="{relative_to}"' if relative_to else ""
    kind = rng.choice(("box", "cylinder", "sphere"))
    if kind == "box":
        shape = f"<box><size>{_f(a)} {_f(b)} {_f(c)}</size></box>"
    elif kind == "cylinder":
        shape = f"<cylinder><radius>{_f(a / 2)}</radius><length>{_f(c)}</length></cylinder>"
    else:
        shape = f"<sphere><radius>{_f(a / 2)}</radius></sphere>"
    added = ""
    if rng.random() < 0.2:
        diag = {k: _f(v * mass) for k, v in zip(("xx", "yy", "zz"), (0.3, 0.5, 0.7), strict=True)}
        diag |= {k: _f(v * mass * 0.01) for k, v in zip(("pp", "qq", "rr"), (1, 2, 3), strict=True)}
        added = (
            f"\n{indent}    <fluid_added_mass>"
            + "".join(f"<{k}>{v}</{k}>" for k, v in diag.items())
            + "</fluid_added_mass>"
        )
    i = indent
    return (
        f'{i}<link name="{name}">\n'
        f"{i}  <pose{rel}>{pose}</pose>\n"
        f"{i}  <inertial>\n"
        f"{i}    <pose>{com} {rpy}</pose>\n"
        f"{i}    <mass>{_f(mass)}</mass>\n"
        f"{i}    <inertia><ixx>{_f(ixx)}</ixx><ixy>0</ixy><ixz>0</ixz><iyy>{_f(iyy)}</iyy>"
        f"<iyz>0</iyz><izz>{_f(izz)}</izz></inertia>{added}\n"
        f"{i}  </inertial>\n"
        f'{i}  <collision name="collision"><geometry>{shape}</geometry></collision>\n'
        f"{i}</link>\n"
    )


def joint_xml(name: str, parent: str, child: str, indent: str) -> str:
    return (
        f'{indent}<joint name="{name}" type="revolute"><parent>{parent}</parent>'
        f"<child>{child}</child><axis><xyz>0 0 1</xyz>"
        "<limit><lower>-1</lower><upper>1</upper></limit></axis></joint>\n"
    )


def include_xml(model: str, name: str, rng: random.Random, indent: str) -> str:
    pose = " ".join(_f(rng.uniform(-1, 1)) for _ in range(3))
    return (
        f"{indent}<include><uri>model://{model}/model.sdf</uri><name>{name}</name>"
        f"<pose>{pose} 0 0 0</pose></include>\n"
    )


def _document(body: str) -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{SDF_VERSION}">\n{body}</sdf>\n'


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def build_corpus(root: Path, files: int = 1000, seed: int = 0) -> Corpus:
    """Writes ``files`` SDF files under ``root`` (about 10 links each once includes are expanded).

    ``models/part_k/`` (``model.config`` + ``model.sdf``, 2 links and a joint; parts in the upper
    half also include a lower-half part, so 4 links); ``robots/robot_NNNN.sdf``: a model with 3 to
    5 links in a chain posed ``relative_to`` each other, a nested model ``arm`` with 3 links, and
    an include of one part (``model://part_k/model.sdf``) joined to the base by a scoped joint.
    """
    rng = random.Random(seed)
    models = root / "models"
    corpus = Corpus(root=root, model_path=models)
    parts = min(LIBRARY_MODELS, max(2, files // 10))
    half = parts // 2
    for k in range(parts):
        name = f"part_{k}"
        folder = models / name
        body = f'  <model name="{name}">\n'
        body += link_xml("link_0", rng, "    ")
        body += link_xml("link_1", rng, "    ", relative_to="link_0")
        body += joint_xml("joint_0", "link_0", "link_1", "    ")
        parsed = [folder / "model.sdf"]
        links = 2
        if k >= half:
            inner = f"part_{k - half}"
            body += include_xml(inner, "inner", rng, "    ")
            parsed += corpus.parsed[models / inner / "model.sdf"]
            links += corpus.links[models / inner / "model.sdf"]
        body += "  </model>\n"
        _write(folder / "model.sdf", _document(body))
        _write(
            folder / "model.config",
            f'<?xml version="1.0"?>\n<model><name>{name}</name>'
            f'<sdf version="{SDF_VERSION}">model.sdf</sdf></model>\n',
        )
        corpus.files.append(folder / "model.sdf")
        corpus.packages[name] = folder
        corpus.parsed[folder / "model.sdf"] = parsed
        corpus.links[folder / "model.sdf"] = links
    for n in range(files - parts):
        path = root / "robots" / f"robot_{n:04d}.sdf"
        body = f'  <model name="robot_{n}">\n'
        own = 3 + n % 3
        body += link_xml("base", rng, "    ")
        for m in range(1, own):
            parent = "base" if m == 1 else f"link_{m - 1}"
            body += link_xml(f"link_{m}", rng, "    ", relative_to=parent)
            body += joint_xml(f"joint_{m}", parent, f"link_{m}", "    ")
        body += '    <model name="arm">\n'
        for m in range(3):
            body += link_xml(f"arm_{m}", rng, "      ", relative_to=f"arm_{m - 1}" if m else None)
            if m:
                body += joint_xml(f"arm_joint_{m}", f"arm_{m - 1}", f"arm_{m}", "      ")
        body += "    </model>\n"
        body += joint_xml("arm_mount", "base", "arm::arm_0", "    ")
        part = f"part_{rng.randrange(parts)}"
        body += include_xml(part, "tool", rng, "    ")
        body += joint_xml("tool_mount", "base", "tool::link_0", "    ")
        body += "  </model>\n"
        _write(path, _document(body))
        part_sdf = models / part / "model.sdf"
        corpus.files.append(path)
        corpus.parsed[path] = [path, *corpus.parsed[part_sdf]]
        corpus.links[path] = own + 3 + corpus.links[part_sdf]
    return corpus


def hydro_plugin_xml(link: str, with_added_mass: bool, indent: str) -> str:
    """A Gazebo Hydrodynamics plugin for ``link``: linear and quadratic damping and, with
    ``with_added_mass``, diagonal Fossen added-mass derivatives (negative ``<iDotJ>``)."""
    terms = {"xU": -5.0, "yV": -6.0, "zW": -7.0, "kP": -0.5, "mQ": -0.6, "nR": -0.7}
    terms |= {"xUabsU": -10.0, "yVabsV": -12.0, "zWabsW": -14.0}
    if with_added_mass:
        terms |= {"xDotU": -3.0, "yDotV": -4.0, "zDotW": -5.0}
        terms |= {"kDotP": -0.03, "mDotQ": -0.04, "nDotR": -0.05}
    body = "".join(f"<{k}>{_f(v)}</{k}>" for k, v in terms.items())
    return (
        f'{indent}<plugin filename="gz-sim-hydrodynamics-system" '
        f'name="gz::sim::systems::Hydrodynamics"><link_name>{link}</link_name>{body}</plugin>\n'
    )


def write_single_model(
    path: Path, links: int, topology: str = "tree", seed: int = 0, hydro_plugins: bool = False
) -> None:
    """One file holding one model with ``links`` links and ``links - 1`` revolute joints.

    ``tree``: link ``k`` is posed relative to and jointed to link ``(k - 1) // 4`` (a 4-ary tree,
    depth log₄ n, as in a robot with many short limbs); ``chain``: to link ``k - 1`` (depth n,
    the worst case for pose resolution). Whatever the topology, link ``k`` ends up at its own
    cell of a 2 m grid (its pose relative to its parent is the difference of the two cells), so
    that links are spread out as in a real mechanism, each with a few neighbours, rather than
    piled into one place. ``hydro_plugins``: every link also gets a Hydrodynamics plugin
    (:func:`hydro_plugin_xml`), with ``<iDotJ>`` terms on the links that have no
    ``<fluid_added_mass>`` (so that ``convert`` has work both ways).
    """
    rng = random.Random(seed)
    side = math.ceil(math.sqrt(links))

    def cell(k: int) -> tuple[float, float]:
        return (2.0 * (k % side), 2.0 * (k // side))

    body = '  <model name="big">\n'
    for k in range(links):
        p = None if k == 0 else ((k - 1) // 4 if topology == "tree" else k - 1)
        parent = None if p is None else f"link_{p}"
        x, y = cell(k)
        px, py = cell(p) if p is not None else (0.0, 0.0)
        text = link_xml(f"link_{k}", rng, "    ", parent, (x - px, y - py, 0.0))
        body += text
        if hydro_plugins:
            body += hydro_plugin_xml(f"link_{k}", "<fluid_added_mass>" not in text, "    ")
        if parent is not None:
            body += joint_xml(f"joint_{k}", parent, f"link_{k}", "    ")
    body += "  </model>\n"
    _write(path, _document(body))


def write_compact_model(path: Path, links: int) -> None:
    """One model of ``links`` links written tersely (about 200 bytes a link, one line each: a
    pose, mass, diagonal inertia and, on every other link, a sphere collision), as in a large
    generated file: 300,000 links make about 60 MB, under the reader's 64 MiB cap."""
    side = math.ceil(math.sqrt(links))
    collision = (
        '<collision name="c"><geometry><sphere><radius>0.15</radius></sphere></geometry>'
        "</collision>"
    )
    with path.open("w", encoding="utf-8") as out:
        out.write(f'<?xml version="1.0"?>\n<sdf version="{SDF_VERSION}"><model name="big">\n')
        for k in range(links):
            m = 1.0 + (k % 7) * 0.5
            i = 0.01 * m
            out.write(
                f'<link name="l{k}"><pose>{2 * (k % side)} {2 * (k // side)} 0 0 0 0</pose>'
                f"<inertial><mass>{m:g}</mass><inertia><ixx>{i:g}</ixx><iyy>{i:g}</iyy>"
                f"<izz>{i:g}</izz></inertia></inertial>"
                + (collision if k % 2 == 0 else "")
                + "</link>\n"
            )
        out.write("</model></sdf>\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the corpus into")
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    corpus = build_corpus(args.out, args.files)
    print(
        f"{len(corpus.files)} files, {corpus.total_links} links after includes, "
        f"model path {corpus.model_path}"
    )


if __name__ == "__main__":
    main()
