"""The mutation suite through every command: mutated SDF, meshes, included files and URIs, and
random values for every numeric option, run through ``gzinertia show | addmass | convert |
hydro | shift | plot | audit`` in-process (as the console script runs).

Whatever the input, a command exits 0, 1 or 2, never prints a traceback or an "internal error",
prints at most one ``gzinertia: error:`` line, and anything it wrote reads back as SDF. The
default run draws 15 scenarios per command (3 for ``plot``, which renders pictures), about 15 s
of CPU; ``make test-slow`` (the ``slow`` marker) draws ``GZI_LONG_EXAMPLES`` (default 300) per
command. Examples are derandomized; a case that failed once is pinned with ``@example``
(``PINNED``: one per command, from the reproducers of issue 11).
"""

# The SDF texts here stay inline: they are the mutator's seeds, mutated byte by byte.

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLES, NASTY_VALUES, run_cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gzinertia.errors import GzInertiaError
from gzinertia.records import SdfDocument
from gzinertia.sdf import read_sdf_file

COMMANDS = ("show", "addmass", "convert", "hydro", "shift", "plot", "audit", "hydrostatics", "fix")

TETRAHEDRON = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
CUBE_STL = b"".join(
    b"facet normal 0 0 0\nouter loop\n"
    + b"".join(b"vertex %d %d %d\n" % v for v in tri)
    + b"endloop\nendfacet\n"
    for tri in (
        ((0, 0, 0), (0, 1, 0), (1, 1, 0)), ((0, 0, 0), (1, 1, 0), (1, 0, 0)),
        ((0, 0, 1), (1, 0, 1), (1, 1, 1)), ((0, 0, 1), (1, 1, 1), (0, 1, 1)),
        ((0, 0, 0), (1, 0, 0), (1, 0, 1)), ((0, 0, 0), (1, 0, 1), (0, 0, 1)),
        ((0, 1, 0), (0, 1, 1), (1, 1, 1)), ((0, 1, 0), (1, 1, 1), (1, 1, 0)),
        ((0, 0, 0), (0, 0, 1), (0, 1, 1)), ((0, 0, 0), (0, 1, 1), (0, 1, 0)),
        ((1, 0, 0), (1, 1, 0), (1, 1, 1)), ((1, 0, 0), (1, 1, 1), (1, 0, 1)),
    )
)
CUBE_STL = b"solid cube\n" + CUBE_STL + b"endsolid cube\n"
HULL_STL = (EXAMPLES / "spar_buoy" / "meshes" / "buoy_hull.stl").read_bytes()
#: A unit cube in COLLADA, in centimetres under a node transform (rotation and translation).
CUBE_DAE = b"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit name="centimeter" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="24">0 0 0 100 0 0 100 100 0 0 100 0 0 0 100 100 0 100
100 100 100 0 100 100</float_array><technique_common><accessor source="#pa" count="8" stride="3">
<param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
</accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<polylist count="6"><input semantic="VERTEX" source="#v" offset="0"/><vcount>4 4 4 4 4 4</vcount>
<p>0 3 2 1 4 5 6 7 0 1 5 4 1 2 6 5 2 3 7 6 3 0 4 7</p></polylist>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node name="cube"><translate>-50 -50 -50</translate>
<rotate>0 0 1 30</rotate><instance_geometry url="#g"/></node></visual_scene>
</library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"""

INERTIAL = (
    "<inertial><pose>0.1 0 0.05 0 0 0.3</pose><mass>{mass}</mass><inertia><ixx>2</ixx>"
    "<ixy>0.1</ixy><iyy>3</iyy><izz>4</izz></inertia>"
    "<fluid_added_mass><xx>5</xx><xq>0.5</xq><yy>6</yy><zz>7</zz><pp>0.8</pp><qq>0.9</qq>"
    "<rr>1.1</rr></fluid_added_mass></inertial>"
)

#: A model with a bit of everything the commands touch: boxes, meshes (OBJ, ASCII and binary
#: STL, COLLADA), <fluid_added_mass>, a Hydrodynamics plugin, an included model (model://) and an
#: included file (relative path), a frame and a placement frame.
KITCHEN_SINK = f"""<?xml version="1.0"?>
<sdf version="1.10">
  <model name="rov" placement_frame="hull">
    <pose>0 0 -1 0 0 0.2</pose>
    <link name="hull">
      {INERTIAL.format(mass=20)}
      <collision name="box"><pose>0 0 0.1 0 0 0</pose>
        <geometry><box><size>1 0.6 0.4</size></box></geometry></collision>
    </link>
    <link name="fin"><pose>-0.6 0 0 0 0.1 0</pose>
      {INERTIAL.format(mass=1)}
      <collision name="tet"><geometry><mesh><uri>meshes/tet.obj</uri><scale>0.2 0.1 0.05</scale>
        </mesh></geometry></collision>
    </link>
    <link name="pod">
      {INERTIAL.format(mass=3)}
      <collision name="cube"><geometry><mesh><uri>meshes/cube.stl</uri></mesh></geometry>
      </collision>
      <collision name="hull"><geometry><mesh><uri>meshes/hull.stl</uri><scale>0.1 0.1 0.1</scale>
        </mesh></geometry></collision>
      <collision name="dae"><pose>0 0.3 0 0 0 0</pose><geometry><mesh><uri>meshes/cube.dae</uri>
        <scale>0.2 0.2 0.2</scale></mesh></geometry></collision>
    </link>
    <frame name="tip" attached_to="fin"><pose>0.1 0 0 0 0 0</pose></frame>
    <plugin filename="gz-sim-hydrodynamics-system" name="gz::sim::systems::Hydrodynamics">
      <link_name>hull</link_name>
      <xDotU>-5</xDotU><yDotV>-6</yDotV><zDotW>-7</zDotW>
      <kDotP>-0.8</kDotP><mDotQ>-0.9</mDotQ><nDotR>-1.1</nDotR>
      <xUabsU>-10</xUabsU><xU>-1</xU>
    </plugin>
    <include><uri>{{SUB_URI}}</uri><name>arm</name><pose>0 0 0.5 0 0 0</pose></include>
    <include><uri>{{PART_URI}}</uri><name>part</name></include>
  </model>
</sdf>
"""

SUB_CONFIG = b"<model><name>sub</name><sdf version='1.10'>model.sdf</sdf></model>"
SUB_SDF = f"""<sdf version="1.10"><model name="sub">
  <link name="upper">{INERTIAL.format(mass=2)}
    <collision name="c"><geometry><cylinder><radius>0.05</radius><length>0.4</length>
    </cylinder></geometry></collision></link>
  <link name="lower"><pose>0 0 -0.3 0 0 0</pose>{INERTIAL.format(mass=1)}
    <collision name="c"><geometry><sphere><radius>0.08</radius></sphere></geometry></collision>
  </link>
</model></sdf>
""".encode()
PART_SDF = f"""<sdf version="1.10"><model name="part">
  <link name="float">{INERTIAL.format(mass=0.5)}
    <collision name="c"><geometry><capsule><radius>0.1</radius><length>0.3</length></capsule>
    </geometry></collision></link>
</model></sdf>
""".encode()

#: URIs for the two includes: the right ones, and odd ones (missing, too long for the system,
#: other schemes, folders, the including file itself).
SUB_URIS = ["model://sub", "model://sub/", "sub", "file://{root}/sub", "model://missing",
            "model://" + "x" * 300, "http://example.com/sub", "model://", ".", "main.sdf",
            "model://sub/model.config", "../" * 30 + "sub", "{root}/sub/model.sdf"]
PART_URIS = ["parts/part.sdf", "parts", "parts/missing.sdf", "y" * 300, "parts/../parts/part.sdf",
             "file://parts/part.sdf", "package://parts/part.sdf", ""]

SEEDS = {
    "kitchen_sink": KITCHEN_SINK.encode(),
    "box_rov": (EXAMPLES / "box_rov" / "model.sdf").read_bytes(),
    "torpedo_auv": (EXAMPLES / "torpedo_auv" / "model.sdf").read_bytes(),
    "spar_buoy": (EXAMPLES / "spar_buoy" / "model.sdf").read_bytes().replace(
        b"meshes/buoy_hull.stl", b"meshes/hull.stl"
    ),
}

#: Values for numeric options: ordinary, tiny, huge, signed zeros, non-finite, not numbers.
NUMBERS = ["1", "1000", "1025", "1.2", "0", "-0", "-1", "1e-300", "5e-324", "1e-9", "1e9",
           "1e100", "1e160", "1e300", "1.7976931348623157e308", "-1e300", "inf", "-inf", "nan",
           "1e999", "0x10", "1_000", "abc", "", " ", "1,2", "٣"]


def _number() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NUMBERS),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.integers(-(10**20), 10**20).map(str),
    )


def _vector() -> st.SearchStrategy[str]:
    return st.one_of(
        st.lists(_number(), min_size=3, max_size=3).map(",".join),
        st.lists(_number(), min_size=0, max_size=5).map(" ".join),
    )


def _glob() -> st.SearchStrategy[str]:
    return st.sampled_from(["*", "hull", "rov::hull", "*fin*", "nope", "[", "**::*", "arm::*",
                            "base_link", "*::*", ""])


def _mutated_bytes(data: bytes) -> st.SearchStrategy[bytes]:
    """Byte-level damage: flips, deletions, insertions, truncation, duplication, a nasty
    number, and (in XML) a leaf element's text replaced by a nasty value."""

    @st.composite
    def damaged(draw: st.DrawFn) -> bytes:
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["flip", "delete", "insert", "truncate", "duplicate",
                                         "number", "value", "value"]))
            i = draw(st.integers(0, max(0, len(out) - 1)))
            if kind == "value":
                leaf = out.find(b"><", i)  # the next element: replace the text after it
                start = out.find(b">", leaf + 2) + 1 if leaf >= 0 else -1
                end = out.find(b"<", start) if start > 0 else -1
                if start > 0 and end >= start:
                    out[start:end] = draw(st.sampled_from(NASTY_VALUES))
            elif kind == "flip" and out:
                out[i] ^= 1 << draw(st.integers(0, 7))
            elif kind == "delete":
                del out[i : i + draw(st.integers(1, 64))]
            elif kind == "insert":
                out[i:i] = draw(st.binary(min_size=1, max_size=16))
            elif kind == "truncate":
                del out[i:]
            elif kind == "duplicate":
                out[i:i] = out[i : i + draw(st.integers(1, 200))]
            else:  # a number in a text mesh replaced by a nasty one
                out[i:i] = draw(st.sampled_from([b" 1e300 ", b" nan ", b" -inf ", b" 1e-320 ",
                                                 b" 0 ", b"\n"]))
        return bytes(out)

    return st.one_of(st.just(data), damaged())


@dataclass
class Scenario:
    """A folder of files and one command line to run in it (``{root}``: the folder)."""

    files: dict[str, bytes]
    args: list[str]
    writes: list[str] = field(default_factory=list)  # files the command may write

    def materialise(self, root: Path) -> list[str]:
        for name, data in self.files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.replace(b"{root}", str(root).encode()))
        return [a.replace("{root}", str(root)) for a in self.args]


@st.composite
def files(draw: st.DrawFn) -> dict[str, bytes]:
    seed = draw(st.sampled_from(sorted(SEEDS)))
    main = SEEDS[seed]
    main = main.replace(b"{SUB_URI}", draw(st.sampled_from(SUB_URIS)).encode())
    main = main.replace(b"{PART_URI}", draw(st.sampled_from(PART_URIS)).encode())
    main = draw(_mutated_bytes(main))
    return {
        "main.sdf": main,
        "meshes/tet.obj": draw(_mutated_bytes(TETRAHEDRON)),
        "meshes/cube.stl": draw(_mutated_bytes(CUBE_STL)),
        "meshes/hull.stl": draw(_mutated_bytes(HULL_STL)),
        "meshes/cube.dae": draw(_mutated_bytes(CUBE_DAE)),
        "sub/model.config": draw(_mutated_bytes(SUB_CONFIG)),
        "sub/model.sdf": draw(_mutated_bytes(SUB_SDF)),
        "parts/part.sdf": draw(_mutated_bytes(PART_SDF)),
    }


def _write_mode(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    mode = draw(st.sampled_from(["in-place", "output", "check", "diff", "none"]))
    return {
        "in-place": (["--in-place"], ["main.sdf"]),
        "output": (["-o", "{root}/out.sdf"], ["out.sdf"]),
        "check": (["--check"], []),
        "diff": (["--diff"], []),
        "none": ([], []),
    }[mode]


def _maybe(draw: st.DrawFn, option: str, values: st.SearchStrategy[str]) -> list[str]:
    return [option, draw(values)] if draw(st.booleans()) else []


@st.composite
def scenarios(draw: st.DrawFn, command: str) -> Scenario:
    folder = draw(files())
    common = ["-m", "{root}"]
    writes: list[str] = []
    if command == "show":
        args = ["show", *_maybe(draw, "--ordering", st.sampled_from(
            ["angular-first", "linear-first", "sideways"])), *_maybe(draw, "--link", _glob())]
        if draw(st.booleans()):
            args.append("--json")
    elif command == "addmass":
        args = ["addmass", "--ellipsoid"]
        if draw(st.booleans()):
            args += ["-l", draw(_glob()), "--semi-axes", draw(_vector()),
                     *_maybe(draw, "--center", _vector()), *_maybe(draw, "--rpy", _vector())]
        else:
            args += [*_maybe(draw, "--fit", st.sampled_from(["volume", "mujoco", "inertia", "x"])),
                     *_maybe(draw, "--link", _glob())]
        args += _maybe(draw, "--density", _number())
        mode, writes = _write_mode(draw)
        args += mode
    elif command == "convert":
        args = ["convert", draw(st.sampled_from(["--hydro-to-sdf", "--sdf-to-hydro"])),
                *_maybe(draw, "--sign", st.sampled_from(["fossen", "physical", "auto", "x"])),
                *_maybe(draw, "--link", _glob())]
        args += [flag for flag in ("--force", "--remove-plugin-terms") if draw(st.booleans())]
        mode, writes = _write_mode(draw)
        args += mode
    elif command == "hydro":
        args = ["hydro", "-l", draw(_glob()),
                *_maybe(draw, "--fit", st.sampled_from(["volume", "mujoco", "inertia"])),
                *_maybe(draw, "--density", _number()), *_maybe(draw, "--viscosity", _number()),
                *_maybe(draw, "--coefs", st.lists(_number(), min_size=5, max_size=5).map(",".join))]
        if draw(st.booleans()):
            args.append("--couplings")
        mode, writes = _write_mode(draw)
        args += mode
    elif command == "shift":
        args = ["shift", "-l", draw(_glob()),
                "--from", draw(st.one_of(st.sampled_from(["com", "origin"]), _vector())),
                *_maybe(draw, "--axes", st.sampled_from(["link", "inertial", "x"]))]
        if draw(st.booleans()):
            args.append("--force")
        mode, writes = _write_mode(draw)
        args += mode
    elif command == "fix":
        args = ["fix", *_maybe(draw, "--link", _glob()),
                *_maybe(draw, "--method", st.sampled_from(["nearest", "geometry", "balance", "x"]))]
        if "geometry" in args:
            args += _maybe(draw, "--density", _number())
            if draw(st.booleans()):
                args.append("--move-com")
        if draw(st.booleans()):
            args.append("--all-links")
        mode, writes = _write_mode(draw)
        args += mode
    elif command == "plot":
        args = ["plot", "-o", "{root}/links." + draw(st.sampled_from(["png", "svg"])),
                *_maybe(draw, "--link", _glob()),
                *_maybe(draw, "--fit", st.sampled_from(["volume", "mujoco", "inertia"]))]
    elif command == "hydrostatics":
        args = ["hydrostatics", *_maybe(draw, "--model", _glob()),
                *_maybe(draw, "--density", _number()),
                *_maybe(draw, "--fluid", st.sampled_from(["seawater", "air", "x"]))]
        if draw(st.booleans()):
            args.append("--json")
    else:
        args = ["audit", "--no-cache",
                "--format", draw(st.sampled_from(["text", "json", "sarif", "junit", "github"])),
                *_maybe(draw, "--density", _number()),
                *_maybe(draw, "--tolerance", st.sampled_from(["gz", "drake", "x"])),
                *_maybe(draw, "--jobs", st.sampled_from(["1", "2", "0", "-3", "500", "x"])),
                *_maybe(draw, "--fail-on", st.sampled_from(["error", "warning", "info", "x"]))]
    return Scenario(folder, [*args, *common, "{root}/main.sdf"], writes)


#: A Python exception's name in a message means it was reported, not handled.
PYTHON_EXCEPTION = re.compile(
    r"\b(KeyError|OSError|ValueError|TypeError|IndexError|AttributeError|LinAlgError|QhullError"
    r"|RuntimeError|RecursionError|UnicodeDecodeError|UnicodeEncodeError|ZeroDivisionError"
    r"|ModuleNotFoundError|AssertionError|OverflowError|FloatingPointError|MemoryError)\b"
)


def check_scenario(scenario: Scenario, capsys: pytest.CaptureFixture[str]) -> None:
    """The promises every command keeps on any input."""
    with tempfile.TemporaryDirectory(prefix="gzi-mutation-") as folder:
        root = Path(folder)
        args = scenario.materialise(root)
        before = {name: (root / name).read_bytes() for name in scenario.files}
        status, out, err = run_cli(args, capsys)
        text = out + err
        assert "Traceback" not in text, (args, err)
        assert "internal error" not in text, (args, text[-2000:])
        leaked = PYTHON_EXCEPTION.search(text)  # e.g. the audit's old "cannot be read: KeyError"
        assert leaked is None, (args, text[max(0, leaked.start() - 300) : leaked.end() + 300])
        assert status in (0, 1, 2), (args, status, err)
        assert sum(line.startswith("gzinertia: error:") for line in err.splitlines()) <= 1, err
        for name in scenario.files:  # only the named output, or the file itself, may change
            if name not in scenario.writes:
                assert (root / name).read_bytes() == before[name], (args, name)
        if status != 0:
            assert all(
                (root / name).read_bytes() == before.get(name)
                for name in scenario.writes
                if (root / name).exists()
            ), (args, err)
            return
        for name in scenario.writes:
            path = root / name
            if not path.exists() or path.read_bytes() == before.get(name):
                continue
            (root / "original.sdf").write_bytes(before["main.sdf"])
            try:
                written = read_sdf_file(path, [root])
            except GzInertiaError as exc:  # what it wrote must read as well as what it read
                raise AssertionError(f"{args}: wrote {name}, which does not read: {exc}") from exc
            _check_written_added_mass(args[0], read_sdf_file(root / "original.sdf", [root]),
                                      written)


def _check_written_added_mass(command: str, before: SdfDocument, after: SdfDocument) -> None:
    """Physics of what an edit wrote. ``addmass``: a Tuckerman ellipsoid's added mass is
    positive semi-definite with a positive linear block (``m_A > 0`` for ρ > 0). ``shift``: a
    change of point and axes keeps the trace of the linear 3x3 block (``Tᵀ·A·T`` leaves it
    unchanged, a rotation keeps its trace) and keeps a semi-definite matrix semi-definite.
    (Before the fixes of issue 11 an overflow wrote 21 zeros and exited 0.)"""
    old = {lk.name: lk.inertial.A_BBo_B for lk in before.links}
    for lk in after.links:
        A_read, A0_read = lk.inertial.A_BBo_B, old.get(lk.name)
        A = None if A_read is None else A_read.linear_first()
        A0 = None if A0_read is None else A0_read.linear_first()
        if A is None or (A0 is not None and np.array_equal(A, A0)):
            continue
        assert np.all(np.isfinite(A)), (lk.name, A)
        scale = float(np.max(np.abs(A)))
        smallest = float(np.linalg.eigvalsh(0.5 * (A + A.T))[0])
        if command == "addmass":
            assert np.trace(A[:3, :3]) > 0 and smallest >= -1e-8 * scale, (lk.name, A)
        elif command == "shift" and A0 is not None:
            trace0 = float(np.trace(A0[:3, :3]))
            assert abs(np.trace(A[:3, :3]) - trace0) <= 1e-8 * max(scale, abs(trace0)), (
                lk.name, A0, A)
            if float(np.linalg.eigvalsh(0.5 * (A0 + A0.T))[0]) >= 0:
                assert smallest >= -1e-8 * scale, (lk.name, A)


def _pinned(args: list[str], changes: dict[str, bytes] | None = None) -> Scenario:
    """The kitchen-sink folder, unmutated except for ``changes`` (file name -> bytes)."""
    main = KITCHEN_SINK.encode().replace(b"{SUB_URI}", b"model://sub")
    main = main.replace(b"{PART_URI}", b"parts/part.sdf")
    folder = {"main.sdf": main, "sub/model.config": SUB_CONFIG, "sub/model.sdf": SUB_SDF,
              "parts/part.sdf": PART_SDF, "meshes/tet.obj": TETRAHEDRON,
              "meshes/cube.stl": CUBE_STL, "meshes/hull.stl": HULL_STL, "meshes/cube.dae": CUBE_DAE}
    folder.update(changes or {})
    writes = ["main.sdf"] if "--in-place" in args else []
    return Scenario(folder, [*args, "-m", "{root}", "{root}/main.sdf"], writes)


# Pinned: scenarios that failed before the fixes of issue 11 (items 6 and 8), one per command.
PLACEMENT_MODEL = KITCHEN_SINK.encode().replace(b'placement_frame="hull"',
                                                b'placement_frame="__model__"')
PINNED = [
    _pinned(["show"], {"main.sdf": PLACEMENT_MODEL.replace(b"{SUB_URI}", b"sub").replace(
        b"{PART_URI}", b"parts")}),
    _pinned(["addmass", "--ellipsoid", "-l", "hull", "--semi-axes", "1,1,1", "--center",
             "1e300,0,0", "--in-place"]),
    _pinned(["shift", "-l", "hull", "--from", "1e160,0,0", "--in-place"]),
    _pinned(["hydro", "-l", "*", "--in-place"], {"meshes/cube.stl": CUBE_STL.replace(b"1 ", b"0 ")}),
    _pinned(["convert", "--sdf-to-hydro", "--sign", "fossen", "--engine", "tpe"],
            {"main.sdf": KITCHEN_SINK.encode().replace(b"{SUB_URI}", b"x" * 300)}),
    _pinned(["plot", "-o", "{root}/p.png"], {"meshes/cube.stl": CUBE_STL.replace(b"1 ", b"0 ")}),
    _pinned(["hydrostatics", "--json"], {"meshes/cube.stl": CUBE_STL.replace(b"1 ", b"0 ")}),
    _pinned(["fix", "--method", "geometry", "--all-links", "--move-com", "--in-place"],
            {"meshes/cube.stl": CUBE_STL.replace(b"1 ", b"0 ")}),
    _pinned(["audit", "--no-cache", "--format", "json"],
            {"main.sdf": KITCHEN_SINK.encode().replace(b'placement_frame="hull"',
                                                       b'placement_frame="nope"')}),
]


#: Scenarios per command in the default run (about 15 s of CPU for all seven).
EXAMPLES_PER_COMMAND = int(os.environ.get("GZI_MUTATION_EXAMPLES", "15"))


def _mutation_test(command: str, examples: int) -> Callable[..., None]:
    """A derandomized property test of ``command`` on ``examples`` scenarios, with the pinned
    scenarios of that command as explicit examples."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize=True, database=None)
    @given(scenario=scenarios(command))
    def test(scenario: Scenario, capsys: pytest.CaptureFixture[str]) -> None:
        check_scenario(scenario, capsys)

    for pinned in PINNED:
        if pinned.args[0] == command:
            test = example(scenario=pinned)(test)
    test.__doc__ = f"Mutated models, meshes, includes and option values through `{command}`."
    return test


test_mutations_show = _mutation_test("show", EXAMPLES_PER_COMMAND)
test_mutations_addmass = _mutation_test("addmass", EXAMPLES_PER_COMMAND)
test_mutations_convert = _mutation_test("convert", EXAMPLES_PER_COMMAND)
test_mutations_hydro = _mutation_test("hydro", EXAMPLES_PER_COMMAND)
test_mutations_shift = _mutation_test("shift", EXAMPLES_PER_COMMAND)
# A plot renders with matplotlib (about 0.5 s a picture): fewer in the default run.
test_mutations_plot = _mutation_test("plot", max(1, EXAMPLES_PER_COMMAND // 4))
test_mutations_audit = _mutation_test("audit", EXAMPLES_PER_COMMAND)
test_mutations_hydrostatics = _mutation_test("hydrostatics", EXAMPLES_PER_COMMAND)
test_mutations_fix = _mutation_test("fix", EXAMPLES_PER_COMMAND)

LONG = int(os.environ.get("GZI_LONG_EXAMPLES", "300"))
test_mutations_show_long_run = pytest.mark.slow(_mutation_test("show", LONG))
test_mutations_addmass_long_run = pytest.mark.slow(_mutation_test("addmass", LONG))
test_mutations_convert_long_run = pytest.mark.slow(_mutation_test("convert", LONG))
test_mutations_hydro_long_run = pytest.mark.slow(_mutation_test("hydro", LONG))
test_mutations_shift_long_run = pytest.mark.slow(_mutation_test("shift", LONG))
test_mutations_plot_long_run = pytest.mark.slow(_mutation_test("plot", LONG))
test_mutations_audit_long_run = pytest.mark.slow(_mutation_test("audit", LONG))
test_mutations_fix_long_run = pytest.mark.slow(_mutation_test("fix", LONG))


def test_every_command_has_a_pinned_scenario() -> None:
    assert sorted(p.args[0] for p in PINNED) == sorted(COMMANDS)
