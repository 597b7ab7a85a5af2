"""Every command's outputs, byte for byte, from one gzinertia tree or two (issue 26's
"byte-identical before and after").

Run::

    python benchmarks/output_identity.py --record OUT.json [--no-bem] [--quick]
    python benchmarks/output_identity.py --compare A.json B.json
    python benchmarks/output_identity.py --base REV [--no-bem] [--quick]

``--record`` runs the ``gzinertia`` that ``PYTHONPATH`` imports (put the tree first on it) and
writes, per invocation, its exit status, standard output, standard error and the bytes of every
file it wrote or changed. ``--compare`` prints each invocation whose record differs, with a short
unified diff per differing part, and exits 1 if any does (or if one file has an invocation the
other lacks). ``--base REV`` makes a temporary ``git worktree`` of ``REV``, records it and this
checkout, each in a child process of its own, compares them and removes the worktree
(``--keep DIR`` keeps the two recordings, ``base.json`` and ``this.json``, for a closer look).

How it runs: one child process per tree runs every invocation in-process (the console script's
``main`` with ``sys.argv`` set, standard streams replaced by byte buffers, working directory the
inputs' root, paths given relative to it as users give them, ``COLUMNS=120``, ``CI``,
``GZINERTIA_*`` and the resource-path variables removed, ``GZ_SIM_RESOURCE_PATH`` set to the
examples' and corpus's model folders, relative too, the Fuel caches to an empty folder). Tests
check that this gives what a real process gives (``tests/test_output_identity.py``). Before each
invocation the inputs' folder is listed (size and modification time of each file); afterwards
every file that is new or changed is recorded (its text, or ``sha256`` and size for binary files
such as PNG) and the folder is put back as it was (new files removed, changed ones copied back
from a pristine copy), so each invocation sees the same inputs and edits (``--in-place``,
``audit --fix``) act on a temporary copy only.

Inputs (built in a temporary folder, from this checkout's files whichever tree runs):
``sdf_examples/`` (as ``examples/``); ``/work/shared/corpus`` (as ``corpus/``, and its xacro
repositories as a ROS package tree, ``tests/corpus_packages.py``) and
``/work/shared/xacro-corpus`` (as such a tree), each skipped with a note when absent; a WAMIT
``.1`` file and a Capytaine-shaped NetCDF dataset written by this script (for ``addmass
--from``; the NetCDF one only when xarray is installed); settings files; and bad inputs (empty,
not XML, truncated, binary, unknown suffix, missing, a folder).

Normalised, because they must differ between two trees: the inputs' temporary folder
(``<INPUTS>``, where a command names an absolute path) and the folder holding the ``gzinertia``
package (``<TREE>``, e.g. in SARIF ``helpUri``). Marked, because they differ between two runs of
one tree (:data:`RUN_TO_RUN`): a BEM solve's wall time on standard error, and in an SVG plot
its ``<dc:date>`` and its clip-path and marker ids (matplotlib's random ``svg.hashsalt``: trees
before ``plot`` fixed both wrote SVGs that were not deterministic; its PNG always was). Nothing
else is.

Covered: ``--version``, ``--help`` of the app and of each command; ``show`` (text, ``-v``,
``--json``, standard input); ``audit`` on each file (table, JSON), on folders (every
``--format``, ``-o``, ``--select``/``--ignore``/``--fail-on``, a discovered settings file,
``--config``, ``--isolated``, ``--jobs 2`` once) and ``audit --fix``; ``hydrostatics`` (text,
``--json``, ``--waterline``); ``addmass --ellipsoid`` (``--diff``, ``--check``, ``--in-place``,
``-o``, standard input); ``addmass --bem --quality fast --no-cache`` on two small example links
(leave out with ``--no-bem``); ``addmass --from`` (WAMIT, NetCDF); ``shift``; ``convert`` both
ways; ``hydro``; ``fix`` (``--diff``, ``--json``, ``--in-place``, ``--method geometry``);
``expand`` (and ``--sdf``); ``migrate --diff`` on every file; ``plot`` and ``report`` on the
examples (PNG and SVG bytes, the HTML page); every other option
of each command's ``--help`` once (:data:`OPTION_VARIANTS`); bad inputs.
Not covered: ``--trust-xacro`` (runs a model's Python), the audit and BEM caches (``--no-cache``
throughout: a cache holds paths and times), ``--parser sdformat`` (needs libsdformat's module),
progress bars (terminals only); the corpora's files are not edited in place (their ``--diff``
and ``--check`` are recorded), nor plotted. ``--quick`` keeps the first
few corpus files only, ``--match REGEX`` the invocations whose command line it finds (for
tests), ``--subprocess`` runs each invocation as a process of its own (slow: the check that
in-process runs give what processes give).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from common import REPO, git_worktree

CORPUS = REPO.parent / "shared" / "corpus"
XACRO_CORPUS = REPO.parent / "shared" / "xacro-corpus"
#: The corpora's xacro repositories as ROS package trees: (source, folder under the inputs).
PACKAGE_TREES = ((CORPUS, "xacro"), (XACRO_CORPUS, "xacro-corpus"))
ROOT = "<INPUTS>"
TREE = "<TREE>"
#: Environment variables removed in the recording child: they would change what is read or shown.
CLEARED = ("CI", "GITHUB_ACTIONS", "GZ_SIM_RESOURCE_PATH", "SDF_PATH", "IGN_GAZEBO_RESOURCE_PATH",
           "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH", "NO_COLOR", "FORCE_COLOR")


@dataclass(frozen=True)
class Invocation:
    """One command line; ``{r}`` in an argument stands for the inputs' root, given as a path
    relative to it (the working directory). ``stdin`` names a file fed to standard input."""

    argv: tuple[str, ...]
    stdin: str | None = None

    @property
    def key(self) -> str:
        """The invocation as a stable name (placeholders kept)."""
        return " ".join(self.argv) + (f" < {self.stdin}" if self.stdin else "")


@dataclass
class Plan:
    """What to run, built with the inputs."""

    invocations: list[Invocation] = field(default_factory=list)

    def add(self, *argv: str, stdin: str | None = None) -> None:
        """Adds one invocation."""
        self.invocations.append(Invocation(tuple(argv), stdin))


# ---------------------------------------------------------------- inputs

#: The added mass the result files hold (linear-first, kg, kg m, kg m^2 at rho = 1025, L = 1).
RESULT = ((30.0, 0, 0, 0, 0, 0), (0, 110.0, 0, 0, 0, 0), (0, 0, 115.0, 0, 1.2, 0),
          (0, 0, 0, 0.2, 0, 0), (0, 0, 1.2, 0, 9.0, 0), (0, 0, 0, 0, 0, 8.5))
#: WAMIT ``.1`` lines ``PER I J Abar`` at the infinite period (zero frequency), non-dimensional.
WAMIT_1 = "".join(f" -1.0 {i + 1} {j + 1} {RESULT[i][j] / 1025.0:.6E}\n"
                  for i in range(6) for j in range(6))

SETTINGS = """\
select = ["GZI1", "GZI2"]
ignore = ["GZI204"]
fail-on = "warning"

[per-path-ignores]
"non_psd_added_mass/*" = ["GZI203"]
"""

BAD_FILES: dict[str, bytes] = {
    "empty.sdf": b"",
    "not_xml.sdf": b"hello, world\n",
    "truncated.sdf": b'<?xml version="1.0"?>\n<sdf version="1.10">\n  <model name="m">\n    <link',
    "binary.sdf": bytes(range(256)),
    "no_robot.urdf": b'<?xml version="1.0"?>\n<notarobot/>\n',
    "unknown.txt": b"<sdf version='1.10'/>\n",
    "bad_macro.urdf.xacro": (b'<?xml version="1.0"?>\n<robot name="r" '
                             b'xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                             b'  <xacro:undefined_macro/>\n</robot>\n'),
}


def _netcdf(path: Path) -> bool:
    """A Capytaine-shaped dataset (one zero frequency) for ``addmass --from``; False without
    xarray."""
    try:
        import numpy as np
        import xarray as xr
    except ImportError:
        return False
    dofs = ["Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw"]
    matrix = np.array(RESULT)
    ds = xr.Dataset(
        {"added_mass": (("omega", "radiating_dof", "influenced_dof"), matrix[None]),
         "rho": 1025.0, "water_depth": np.inf,
         "rotation_center": (("point_dim",), np.array([0.1, 0.0, -0.05]))},
        coords={"omega": [0.0], "radiating_dof": dofs, "influenced_dof": dofs},
        attrs={"capytaine_version": "2.2"},
    )
    ds.to_netcdf(path, engine="scipy")
    return True


def _link_with_added_mass(text: str) -> str | None:
    """``model::link`` for the link holding the first ``<fluid_added_mass>``, if any (the
    innermost model named before it: right for the files here, not for every nesting)."""
    at = text.find("<fluid_added_mass")
    if at < 0:
        return None
    name = r'\s+name\s*=\s*["\']([^"\']+)'
    links = re.findall("<link" + name, text[:at])
    models = re.findall("<model" + name, text[:at])
    return f"{models[-1]}::{links[-1]}" if links and models else None


def build_inputs(root: Path, quick: bool) -> tuple[list[str], list[str]]:
    """Writes the inputs under ``root``; returns the notes on what was left out and the model
    folders for ``GZ_SIM_RESOURCE_PATH``."""
    notes: list[str] = []
    shutil.copytree(REPO / "sdf_examples", root / "examples")
    results = root / "results"
    results.mkdir()
    (results / "hull.1").write_text(WAMIT_1)
    if not _netcdf(results / "hull.nc"):
        notes.append("xarray is not installed: addmass --from NetCDF not run")
    (root / "settings.toml").write_text(SETTINGS)
    configured = root / "configured"
    shutil.copytree(REPO / "sdf_examples" / "defects", configured)
    (configured / ".gzinertia.toml").write_text(SETTINGS)
    bad = root / "bad"
    bad.mkdir()
    for name, data in BAD_FILES.items():
        (bad / name).write_bytes(data)
    models = ["examples"]
    if CORPUS.is_dir():
        shutil.copytree(CORPUS, root / "corpus")
        configs = (root / "corpus").rglob("model.config")
        models += sorted({p.parent.parent.relative_to(root).as_posix() for p in configs})
    sys.path.insert(0, str(REPO / "tests"))
    from corpus_packages import package_tree

    for source, name in PACKAGE_TREES:
        if source.is_dir():
            package_tree(source, root / name)
        else:
            notes.append(f"{source} is absent: not run")
    return notes, models


# ---------------------------------------------------------------- the plan

HELP_COMMANDS = ("show", "audit", "hydrostatics", "addmass", "shift", "convert", "hydro", "fix",
                 "expand", "plot", "migrate", "report")
AUDIT_FORMATS = ("table", "text", "json", "sarif", "junit", "github")


def _read_commands(plan: Plan, f: str, extra: tuple[str, ...]) -> None:
    """Commands that only read ``f``: show, audit, hydrostatics."""
    plan.add("show", f, *extra)
    plan.add("show", "--json", f, *extra)
    plan.add("audit", "--no-cache", "-j", "1", f, *extra)
    plan.add("audit", "--no-cache", "-j", "1", "--format", "json", f, *extra)
    plan.add("hydrostatics", f, *extra)
    plan.add("hydrostatics", "--json", f, *extra)


def _edit_commands(plan: Plan, f: str, extra: tuple[str, ...], in_place: bool) -> None:
    """Edits of ``f`` shown as diffs and checks, and (``in_place``) written."""
    plan.add("addmass", "--ellipsoid", "--diff", f, *extra)
    plan.add("addmass", "--ellipsoid", "--check", f, *extra)
    plan.add("fix", "--diff", f, *extra)
    plan.add("migrate", "--diff", f, *extra)
    if in_place:
        plan.add("addmass", "--ellipsoid", "--in-place", f, *extra)
        plan.add("fix", "--in-place", "--json", f, *extra)
        plan.add("audit", "--fix", "--no-cache", "-j", "1", f, *extra)


def _sdf_plan(plan: Plan, f: str, text: str, in_place: bool) -> None:
    """Every single-file command on one SDFormat file."""
    _read_commands(plan, f, ())
    _edit_commands(plan, f, (), in_place)
    plan.add("hydro", "-l", "*", "--diff", f)
    plan.add("convert", "--sdf-to-hydro", "--sign", "fossen", "--engine", "tpe", "--diff", f)
    plan.add("convert", "--hydro-to-sdf", "--diff", f)
    link = _link_with_added_mass(text)
    if link is not None:
        plan.add("shift", "-l", link, "--from", "com", "--diff", f)
    if in_place:
        plan.add("show", "-v", f)
        plan.add("hydro", "-l", "*", "--in-place", f)
        plan.add("convert", "--sdf-to-hydro", "--sign", "physical", "--gazebo", "harmonic",
                 "--in-place", f)
        plan.add("hydro", "-l", "*", "--force", "--cross-terms", "--diff", f)
        plan.add("fix", "--method", "geometry", "--all-links", "--move-com", "--diff", f)
        plan.add("hydrostatics", "--waterline", "0", f)


def _urdf_plan(plan: Plan, f: str, extra: tuple[str, ...], in_place: bool) -> None:
    """Every single-file command on one URDF or xacro file."""
    _read_commands(plan, f, extra)
    _edit_commands(plan, f, extra, in_place)
    plan.add("expand", f, *extra)
    plan.add("expand", "--sdf", f, *extra)


def _example_extras(plan: Plan, bem: bool, netcdf: bool) -> None:
    """Plots, imports, standard input, BEM and output files on the examples."""
    torpedo, box = "{r}/examples/torpedo_auv/model.sdf", "{r}/examples/box_rov/model.sdf"
    for f in (torpedo, box, "{r}/examples/defects/urdf_massless_link/model.urdf"):
        plan.add("plot", f, "-o", "{r}/out/plot.png")
        plan.add("report", f, "-o", "{r}/out/report.html")
    plan.add("plot", torpedo, "-l", "fin_top", "-o", "{r}/out/plot.svg")
    plan.add("addmass", torpedo, "--from", "{r}/results/hull.1", "-l", "hull", "--about",
             "0,0,0", "--density", "1025", "--frequency", "zero", "--diff")
    plan.add("addmass", "{r}/examples/defects/urdf_massless_link/model.urdf", "--from",
             "{r}/results/hull.1", "-l", "*", "--about", "0,0,0.1", "--fluid", "seawater",
             "--frequency", "zero", "--diff")
    if netcdf:
        plan.add("addmass", torpedo, "--from", "{r}/results/hull.nc", "-l", "hull", "--in-place")
    plan.add("addmass", "--ellipsoid", "-o", "{r}/out/edited.sdf", box)
    plan.add("addmass", "--ellipsoid", "--fit", "mujoco", "-", stdin="examples/box_rov/model.sdf")
    plan.add("show", "-", stdin="examples/torpedo_auv/model.sdf")
    plan.add("audit", "--no-cache", "-", stdin="examples/defects/non_psd_added_mass/model.sdf")
    plan.add("hydrostatics", "--json", "-m", "{r}/examples", "{r}/examples/harbour_world.sdf")
    if bem:
        plan.add("addmass", "--bem", "--quality", "fast", "--no-cache", "-l", "fin_top", "--diff",
                 torpedo)
        plan.add("addmass", "--bem", "--quality", "fast", "--no-cache", "--in-place",
                 "{r}/examples/defects/urdf_massless_link/model.urdf")


#: Options not given elsewhere, each once on an example (file relative to the inputs' root).
OPTION_VARIANTS: tuple[tuple[str, ...], ...] = (
    ("show", "--ordering", "linear-first", "-l", "*fin_*", "{t}"),
    ("show", "--json", "-m", "{r}/examples", "{r}/examples/harbour_world.sdf"),
    ("audit", "--no-cache", "-j", "1", "--density", "1.225", "--tolerance", "drake", "{t}"),
    ("audit", "--no-cache", "-j", "1", "--max-links", "3", "{t}"),
    ("audit", "--no-cache", "-j", "1", "--exclude", "defects", "{r}/examples"),
    ("audit", "--no-cache", "-j", "1", "--extend-exclude", "arm", "--force-exclude",
     "{r}/examples/arm/model.sdf", "{t}"),
    ("audit", "--no-cache", "-j", "1", "--format", "sarif", "--docs-url",
     "https://example.org/gzinertia/", "{t}"),
    ("audit", "--no-cache", "-j", "1", "--format", "json", "--report", "{r}/out/audit.html",
     "--waterline", "0", "--ellipsoid-scale", "1", "{r}/examples/spar_buoy/model.sdf"),
    ("hydrostatics", "--fluid", "seawater", "--no-trim", "--waterline", "0.1", "{t}"),
    ("hydrostatics", "--json", "--world", "{r}/examples/harbour_world.sdf", "{t}"),
    ("hydrostatics", "--model", "quay", "-m", "{r}/examples", "{r}/examples/harbour_world.sdf"),
    ("hydrostatics", "--hull", "convex", "{r}/examples/spar_buoy/model.sdf"),
    ("addmass", "--ellipsoid", "--fit", "inertia", "--fluid", "seawater", "--diff", "{t}"),
    ("addmass", "--ellipsoid", "-l", "hull", "--semi-axes", "1.25,0.15,0.15", "--center",
     "0.1,0,0", "--rpy", "0,0.1,0", "--density", "1025", "--diff", "{t}"),
    ("addmass", "--ellipsoid", "--replace-plugin-added-mass", "--allow-overlap", "--diff",
     "{r}/examples/defects/positive_idotj/model.sdf"),
    ("addmass", "--ellipsoid", "--keep-version", "--diff", "{r}/examples/arm/model.sdf"),
    ("addmass", "--ellipsoid", "--hull", "convex", "--diff", "{r}/examples/spar_buoy/model.sdf"),
    ("shift", "-l", "fin_top", "--from", "0.01,0,0", "--axes", "inertial", "--force", "--diff",
     "{t}"),
    ("convert", "--hydro-to-sdf", "--remove-plugin-terms", "--force", "--diff",
     "{r}/examples/defects/positive_idotj/model.sdf"),
    ("convert", "--hydro-to-sdf", "--keep-version", "--sign", "physical", "--diff",
     "{r}/examples/defects/double_counted_added_mass/model.sdf"),
    ("hydro", "-l", "hull", "--fit", "volume", "--couplings", "--viscosity", "0.0011",
     "--coefs", "0.5,0.25,1.5,1.0,1.0", "--fluid", "seawater", "--diff", "{t}"),
    ("fix", "--method", "balance", "--select", "GZI104", "--diff",
     "{r}/examples/defects/triangle_inequality/model.sdf"),
    ("fix", "--method", "geometry", "--geometry", "visual", "--mass", "2", "--tolerance",
     "drake", "--all-links", "--diff", "{r}/examples/defects/urdf_massless_link/model.urdf"),
    ("fix", "--method", "geometry", "--density", "1000", "--diff",
     "{r}/examples/defects/commented_out_inertial/model.sdf"),
    ("fix", "--diff", "{r}/examples/defects/positive_idotj/model.sdf",
     "{r}/examples/defects/triangle_inequality/model.sdf"),
    ("expand", "--xacro-arg", "unused:=1", "{r}/examples/defects/urdf_lumping_gimbal/model.urdf"),
    ("plot", "--fit", "mujoco", "--ellipsoid-scale", "1", "-o", "{r}/out/plot.png", "{t}"),
)


def _option_variants(plan: Plan) -> None:
    """Each option of each command's ``--help`` that the plan gives nowhere else."""
    for argv in OPTION_VARIANTS:
        plan.add(*(a.replace("{t}", "{r}/examples/torpedo_auv/model.sdf") for a in argv))


def _folder_audits(plan: Plan, folders: list[str]) -> None:
    """The audit on folders, in every format and with settings."""
    for folder in folders:
        for fmt in AUDIT_FORMATS:
            plan.add("audit", "--no-cache", "-j", "1", "--format", fmt, folder)
    plan.add("audit", "--no-cache", "-j", "2", "--format", "json", folders[-1])
    plan.add("audit", "--no-cache", "-j", "1", "--format", "sarif", "-o", "{r}/out/report.sarif",
             folders[0])
    plan.add("audit", "--no-cache", "-j", "1", "--select", "GZI2", "--fail-on", "info", folders[0])
    plan.add("audit", "--no-cache", "-j", "1", "--ignore", "GZI1", "--tolerance", "drake",
             folders[0])
    for fmt in ("table", "json", "sarif", "junit", "github"):
        plan.add("audit", "--no-cache", "-j", "1", "--format", fmt, "{r}/configured")
    plan.add("audit", "--no-cache", "-j", "1", "--config", "{r}/settings.toml", "{r}/examples")
    plan.add("audit", "--no-cache", "-j", "1", "--isolated", "{r}/configured")


def _bad_inputs(plan: Plan) -> None:
    """Bad files and bad options: exit 2 and one line each."""
    for name in sorted(BAD_FILES):
        f = "{r}/bad/" + name
        plan.add("show", f)
        plan.add("audit", "--no-cache", "-j", "1", f)
        plan.add("addmass", "--ellipsoid", "--diff", f)
    plan.add("show", "{r}/bad/missing.sdf")
    plan.add("show", "{r}/bad")
    plan.add("hydrostatics", "--density", "-1", "{r}/examples/box_rov/model.sdf")
    plan.add("addmass", "{r}/examples/box_rov/model.sdf")
    plan.add("hydro", "{r}/examples/box_rov/model.sdf")
    plan.add("fix", "--method", "wrong", "{r}/examples/box_rov/model.sdf")
    plan.add("shift", "-l", "nothing", "--from", "com", "{r}/examples/box_rov/model.sdf")
    plan.add("expand", "{r}/examples/box_rov/model.sdf")
    plan.add("audit", "--no-cache", "--config", "{r}/bad/not_xml.sdf", "{r}/examples")


def make_plan(root: Path, quick: bool, bem: bool) -> Plan:
    """Every invocation, in a fixed order."""
    plan = Plan()
    plan.add("--version")
    plan.add("--help")
    for command in HELP_COMMANDS:
        plan.add(command, "--help")
    examples = sorted(p for p in (root / "examples").rglob("*") if p.suffix in (".sdf", ".urdf"))
    for path in examples:
        f = "{r}/" + path.relative_to(root).as_posix()
        if path.suffix == ".urdf":
            _urdf_plan(plan, f, (), in_place=True)
        else:
            _sdf_plan(plan, f, path.read_text(), in_place=True)
    _example_extras(plan, bem, (root / "results" / "hull.nc").exists())
    folders = ["{r}/examples"]
    corpus = root / "corpus"
    if corpus.is_dir():
        sdfs = sorted(p for p in corpus.rglob("*") if p.suffix in (".sdf", ".world"))
        for path in sdfs[:4] if quick else sdfs:
            f = "{r}/" + path.relative_to(root).as_posix()
            _sdf_plan(plan, f, path.read_text(errors="replace"), in_place=False)
        folders.append("{r}/corpus")
    for _, name in PACKAGE_TREES:
        tree = root / name / "ws"
        xacros = sorted(p for p in tree.rglob("*") if p.suffix in (".urdf", ".xacro"))
        for path in xacros[:2] if quick else xacros:
            f = "{r}/" + path.relative_to(root).as_posix()
            _urdf_plan(plan, f, ("--package-path", f"{{r}}/{name}/ws"), in_place=False)
    _option_variants(plan)
    _folder_audits(plan, folders)
    _bad_inputs(plan)
    return plan


# ---------------------------------------------------------------- running

def _listing(root: Path) -> dict[str, tuple[int, int]]:
    """Size and modification time of every file under ``root``, by relative path."""
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            st = os.stat(path)
            out[os.path.relpath(path, root)] = (st.st_size, st.st_mtime_ns)
    return out


#: What differs between two runs of one tree (not between trees), each replaced by a mark.
#: A BEM solve's wall time; an SVG plot's date and its clip-path and marker ids (matplotlib
#: draws them from ``svg.hashsalt``, random unless set; ``plot`` fixes both now, the marks keep
#: older trees comparable).
RUN_TO_RUN = (
    (re.compile(r"(?m)^(.*BEM \(.*, )\d+(?:\.\d+)? s$"), r"\1<seconds> s"),
    (re.compile(r"<dc:date>[^<]*</dc:date>"), "<dc:date>(not deterministic)</dc:date>"),
    (re.compile(r"\b([mp])[0-9a-f]{10}\b"), r"\1(not deterministic)"),
)


def _content(data: bytes, name: str) -> str:
    """A written file as recorded: its text (an SVG's run-to-run parts marked), or its digest
    and size when binary (a PNG is deterministic: recorded as is)."""
    if not name.endswith((".png", ".nc")):
        with contextlib.suppress(UnicodeDecodeError):
            text = data.decode("utf-8")
            if name.endswith(".svg"):
                for pattern, mark in RUN_TO_RUN[1:]:
                    text = pattern.sub(mark, text)
            return text
    return f"sha256:{hashlib.sha256(data).hexdigest()} ({len(data)} bytes)"


def _restore(root: Path, pristine: Path, before: dict[str, tuple[int, int]]) -> dict[str, str]:
    """The files an invocation wrote or changed (recorded), then the folder as it was."""
    written: dict[str, str] = {}
    after = _listing(root)
    for rel in sorted(set(after) | set(before)):
        if after.get(rel) == before.get(rel):
            continue
        path = root / rel
        if rel in after:
            written[rel] = _content(path.read_bytes(), rel)
        else:
            written[rel] = "<deleted>"
        if (pristine / rel).exists():
            shutil.copy2(pristine / rel, path)
        elif path.exists():
            path.unlink()
    return written


@contextlib.contextmanager
def _streams(stdin: bytes) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """Byte-backed standard streams (``sys.stdout.buffer`` works, as in a process)."""
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        yield out, err
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdin, sys.stdout, sys.stderr = saved


def _argv(inv: Invocation) -> list[str]:
    """The arguments as given: paths relative to the inputs' root (the working directory)."""
    return [a.replace("{r}/", "").replace("{r}", ".") for a in inv.argv]


def run_in_process(inv: Invocation, root: Path) -> tuple[object, bytes, bytes]:
    """Exit status, stdout and stderr of one invocation run by the console script's ``main``."""
    from gzinertia.cli import main

    stdin = (root / inv.stdin).read_bytes() if inv.stdin else b""
    sys.argv = ["gzinertia", *_argv(inv)]
    status: object = 0
    with _streams(stdin) as (out, err):
        try:
            main()
        except SystemExit as exc:
            status = exc.code if exc.code is not None else 0
        except BaseException as exc:  # a traceback is an output too, compared as one
            status = f"raised {type(exc).__name__}: {exc}"
        sys.stdout.flush()
        sys.stderr.flush()
        return status, out.getvalue(), err.getvalue()


def run_subprocess(inv: Invocation, root: Path) -> tuple[object, bytes, bytes]:
    """The same invocation as a process of the console script (the check of the above)."""
    stdin = (root / inv.stdin).read_bytes() if inv.stdin else b""
    script = "import sys; from gzinertia.cli import main; sys.argv[0] = 'gzinertia'; main()"
    done = subprocess.run([sys.executable, "-c", script, *_argv(inv)], input=stdin,
                          capture_output=True, cwd=root, check=False)
    return done.returncode, done.stdout, done.stderr


def _normaliser(root: Path) -> Iterator[tuple[str, str]]:
    import gzinertia

    tree = Path(gzinertia.__file__).resolve().parent.parent
    for path, name in ((root, ROOT), (tree, TREE)):
        yield str(path), name
        yield path.as_uri(), "file://" + name


def record(quick: bool, bem: bool, subprocesses: bool = False,
           match: str | None = None) -> dict[str, object]:
    """Builds the inputs, runs every invocation (those whose key ``match`` finds, when given),
    returns the recording."""
    import gzinertia

    start = time.perf_counter()
    root = Path(tempfile.mkdtemp(prefix="gzinertia-identity-")).resolve()
    try:
        notes, models = build_inputs(root, quick)
        for name in [*CLEARED, *(k for k in os.environ if k.startswith("GZINERTIA_"))]:
            os.environ.pop(name, None)
        (root / "fuel").mkdir()  # empty Fuel caches, never the machine's (as the tests)
        os.environ.update(COLUMNS="120", GZ_SIM_RESOURCE_PATH=os.pathsep.join(models),
                          GZ_FUEL_CACHE_PATH="fuel", IGN_FUEL_CACHE_PATH="fuel")
        plan = make_plan(root, quick, bem)
        if match is not None:
            plan.invocations = [i for i in plan.invocations if re.search(match, i.key)]
        pristine = root.with_name(root.name + "-pristine")
        shutil.copytree(root, pristine)
        (root / "out").mkdir()
        os.chdir(root)
        replace = list(_normaliser(root))
        runner = run_subprocess if subprocesses else run_in_process
        results = []
        for inv in plan.invocations:
            before = _listing(root)
            status, out, err = runner(inv, root)
            written = _restore(root, pristine, before)
            stderr = RUN_TO_RUN[0][0].sub(RUN_TO_RUN[0][1], err.decode("utf-8", "replace"))
            entry = {"key": inv.key, "status": status, "stdout": out.decode("utf-8", "replace"),
                     "stderr": stderr, "written": written}
            results.append(_normalised(entry, replace))
        seconds = time.perf_counter() - start
        package = str(Path(gzinertia.__file__).resolve().parent)  # which tree ran (not compared)
        return {"gzinertia": package, "notes": notes, "seconds": round(seconds, 1),
                "invocations": results, "version": gzinertia.__version__}
    finally:
        os.chdir(REPO)
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(str(root) + "-pristine", ignore_errors=True)


def _normalised(value: object, replace: list[tuple[str, str]]) -> object:
    if isinstance(value, str):
        for old, new in replace:
            value = value.replace(old, new)
        return value
    if isinstance(value, dict):
        return {_normalised(k, replace): _normalised(v, replace) for k, v in value.items()}
    return value


# ---------------------------------------------------------------- comparing

def _diff(name: str, a: object, b: object, lines: int = 12) -> list[str]:
    if isinstance(a, str) and isinstance(b, str):
        diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "A", "B", n=1,
                                         lineterm=""))
        shown = diff[:lines] + ([f"... {len(diff) - lines} more diff lines"]
                                if len(diff) > lines else [])
        return [f"  {name}:", *("    " + line for line in shown)]
    return [f"  {name}: {a!r} -> {b!r}"]


def compare(a: dict[str, object], b: dict[str, object]) -> list[str]:
    """Lines describing every invocation whose record differs (empty: identical)."""
    first = {e["key"]: e for e in a["invocations"]}  # type: ignore[attr-defined]
    second = {e["key"]: e for e in b["invocations"]}  # type: ignore[attr-defined]
    out: list[str] = []
    for key in [*first, *(k for k in second if k not in first)]:
        x, y = first.get(key), second.get(key)
        if x == y:
            continue
        out.append(f"DIFFERS: gzinertia {key}")
        if x is None or y is None:
            out.append("  only in " + ("B" if x is None else "A"))
            continue
        for part in ("status", "stdout", "stderr"):
            if x[part] != y[part]:
                out += _diff(part, x[part], y[part])
        for rel in sorted(set(x["written"]) | set(y["written"])):
            p, q = x["written"].get(rel), y["written"].get(rel)
            if p != q:
                out += _diff(f"wrote {rel}", p if p is not None else "<not written>",
                             q if q is not None else "<not written>")
    return out


def _report(a: dict[str, object], b: dict[str, object]) -> int:
    lines = compare(a, b)
    print("\n".join(lines))
    total = len({e["key"] for e in [*a["invocations"], *b["invocations"]]})  # type: ignore[misc]
    differ = sum(line.startswith("DIFFERS") for line in lines)
    print(f"{total - differ} of {total} invocations identical, {differ} differ")
    return 1 if differ else 0


def _record_tree(tree: Path, out: Path, args: argparse.Namespace) -> dict[str, object]:
    """Records ``tree`` in a child process (its ``gzinertia`` first on ``PYTHONPATH``)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, __file__, "--record", str(out)]
    command += ["--no-bem"] * (not args.bem) + ["--quick"] * args.quick
    command += ["--match", args.match] if args.match else []
    subprocess.run(command, env=env, check=True)
    return json.loads(out.read_text())


def _base(rev: str, args: argparse.Namespace) -> int:
    """Records ``rev`` and this checkout, compares them; the recordings stay in ``--keep``."""
    folder = Path(args.keep or tempfile.mkdtemp(prefix="gzinertia-identity-runs-")).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with git_worktree(rev) as worktree:
            before = _record_tree(worktree, folder / "base.json", args)
        after = _record_tree(REPO, folder / "this.json", args)
        print(f"recorded {rev} in {before['seconds']} s and this checkout in "
              f"{after['seconds']} s")
        return _report(before, after)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", type=Path, metavar="OUT.json")
    mode.add_argument("--compare", type=Path, nargs=2, metavar=("A.json", "B.json"))
    mode.add_argument("--base", metavar="REV")
    parser.add_argument("--no-bem", dest="bem", action="store_false", help="leave out --bem")
    parser.add_argument("--quick", action="store_true", help="the first few corpus files only")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="--base: keep the two recordings here (base.json, this.json)")
    parser.add_argument("--match", metavar="REGEX",
                        help="only the invocations whose command line this finds")
    parser.add_argument("--subprocess", action="store_true",
                        help="run each invocation as a process (slow; the in-process check)")
    args = parser.parse_args()
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        sys.exit(_report(a, b))
    if args.base:
        sys.exit(_base(args.base, args))
    out = args.record.resolve()
    result = record(args.quick, args.bem, args.subprocess, args.match)
    out.write_text(json.dumps(result, indent=1, sort_keys=True))
    runs: list[dict[str, object]] = result["invocations"]  # type: ignore[assignment]
    statuses: dict[str, int] = {}
    for e in runs:
        statuses[str(e["status"])] = statuses.get(str(e["status"]), 0) + 1
    for note in result["notes"]:  # type: ignore[attr-defined]
        print("note:", note)
    print(f"{len(runs)} invocations of {result['gzinertia']} recorded in {result['seconds']} s; "
          f"exit statuses: {statuses}")


if __name__ == "__main__":
    main()
