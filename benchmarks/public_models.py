"""Public marine models through every command, with what each link's numbers came from.

Issue 24's last acceptance item: each public model (UUV Simulator's Desistek Saga, ECA A9, LAUV,
RexROV2 and RexROV, orca4, Clearpath's Heron from an export of their repositories; DAVE's
gliders and VRX's WAM-V from the corpus) runs through ``show --json``, ``audit --format json``,
``hydrostatics --json``, ``addmass --ellipsoid --diff`` and ``addmass --bem --quality fast
--diff``. For each model the script prints the exit status and wall time of each command, the
volumes (Gazebo's and the exact union's), the added-mass diagonals of the links with the largest
volume and the BEM error estimate, and with ``-v`` every link's provenance: the fit and the BEM
surface and what the geometry pipeline did to make them (union, repair, hull), the links skipped
and why, and the GZI001/GZI003 findings on geometry the tool could not use.

The models are read where they are (``--root``, default ``$GZINERTIA_PUBLIC_MODELS``: the folder
holding ``uuvsimulator__desistek_saga`` and the others; ``--corpus``, default
``$GZINERTIA_CORPUS``, else ``../shared/corpus``): nothing is copied into the repository.
``--diff`` writes nothing. ``tests/test_public_models.py`` runs the same commands through
:func:`run_model` and asserts the provenance; this script measures::

    nice -n 5 python benchmarks/public_models.py --root /work/public_models -v
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GZINERTIA, print_table  # noqa: E402

#: The environment variable naming the folder of exported public repositories.
ROOT_VARIABLE = "GZINERTIA_PUBLIC_MODELS"
CORPUS_VARIABLE = "GZINERTIA_CORPUS"

#: The five commands, by the name the report uses, with their own options.
COMMANDS: dict[str, tuple[str, ...]] = {
    "show": ("show", "--json"),
    "audit": ("audit", "--format", "json", "--no-cache"),
    "hydrostatics": ("hydrostatics", "--json"),
    "ellipsoid": ("addmass", "--ellipsoid", "--diff"),
    "bem": ("addmass", "--bem", "--quality", "fast", "--diff", "--no-progress", "--no-cache"),
}


@dataclass(frozen=True)
class PublicModel:
    """One public model: where its entry file is below its root (``public`` or ``corpus``),
    the folders below that root to give as ``--package-path`` and ``-m``, its xacro arguments,
    and, for a model that cannot be read as it is published, the file and line the one-line
    error must name and why."""

    name: str
    root: str
    entry: str
    package_paths: tuple[str, ...] = ()
    model_paths: tuple[str, ...] = ()
    xacro_args: tuple[str, ...] = ()
    bad: tuple[str, str] | None = None


_DAVE = "Field-Robotics-Lab__dave/models/dave_robot_models/models"
#: The models, in the order the table lists them (DAVE's Caldus is in neither folder).
MODELS: tuple[PublicModel, ...] = (
    PublicModel("desistek_saga", "public", "uuvsimulator__desistek_saga/desistek_saga_description/"
                "robots/desistek_saga_default.xacro", package_paths=(".",)),
    PublicModel("eca_a9", "public", "uuvsimulator__eca_a9/eca_a9_description/robots/"
                "eca_a9_default.urdf.xacro", package_paths=(".",)),
    PublicModel("lauv", "public", "uuvsimulator__lauv_gazebo/lauv_description/robots/"
                "default.xacro", package_paths=(".",)),
    PublicModel("rexrov2", "public", "uuvsimulator__rexrov2/rexrov2_description/robots/"
                "rexrov2_default.xacro", package_paths=(".",)),
    PublicModel("rexrov", "public", "uuvsimulator__uuv_simulator/uuv_descriptions/robots/"
                "rexrov_default.xacro", package_paths=(".",)),
    PublicModel("orca4", "public", "clydemcqueen__orca4/orca_description/models/orca4/model.sdf",
                model_paths=("clydemcqueen__orca4/orca_description/models",)),
    # sensors.xacro:7 subscripts map(float, ...): Python 2 only (the xacro package fails alike).
    PublicModel("heron", "public", "heron__heron/heron_description/urdf/heron.urdf.xacro",
                package_paths=(".",), xacro_args=("simulation:=true",),
                bad=("sensors.xacro:7", "'map' object is not subscriptable")),
    *(PublicModel(f"dave_{name}", "corpus", f"{_DAVE}/{name}/model.sdf", model_paths=(_DAVE,))
      for name in ("glider_slocum", "glider_wave", "glider_hybrid_whoi")),
    PublicModel("ioes_glider_slocum", "corpus", "IOES-Lab__dave/models/dave_robot_models/"
                "description/glider_slocum/model.sdf",
                model_paths=("IOES-Lab__dave/models/dave_robot_models/description",)),
    PublicModel("vrx_wamv", "corpus", "osrf__vrx/vrx_urdf/wamv_description/urdf/"
                "wamv_base.urdf.xacro", package_paths=("osrf__vrx/vrx_urdf",)),
)


def default_roots() -> dict[str, Path | None]:
    """The folders ``public`` and ``corpus`` models are read from (from the environment)."""
    public = os.environ.get(ROOT_VARIABLE)
    corpus = os.environ.get(CORPUS_VARIABLE) or str(REPO.parent / "shared" / "corpus")
    return {"public": Path(public) if public else None, "corpus": Path(corpus)}


def present(roots: dict[str, Path | None]) -> list[PublicModel]:
    """The models of :data:`MODELS` whose entry file is below its root."""
    out = []
    for model in MODELS:
        root = roots.get(model.root)
        if root is not None and (root / model.entry).is_file():
            out.append(model)
    return out


def model_arguments(model: PublicModel, root: Path) -> list[str]:
    """The entry file and the model-input options every command takes for ``model``."""
    args = [str(root / model.entry)]
    for p in model.package_paths:
        args += ["--package-path", str(root / p)]
    for p in model.model_paths:
        args += ["-m", str(root / p)]
    for a in model.xacro_args:
        args += ["--xacro-arg", a]
    return args


@dataclass(frozen=True)
class Run:
    """One command's exit status, standard output and error, and wall time (s)."""

    status: int
    out: str
    err: str
    seconds: float

    def json(self) -> Any:
        """Standard output read as JSON."""
        return json.loads(self.out)


def run_command(command: str, model: PublicModel, root: Path,
                env: dict[str, str] | None = None, timeout: float = 1800.0) -> Run:
    """``gzinertia`` :data:`COMMANDS` ``[command]`` on ``model`` in a child process (the
    console script next to this interpreter, in the working directory's environment)."""
    args = [GZINERTIA, *COMMANDS[command], *model_arguments(model, root)]
    start = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                          env=env, check=False)
    return Run(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def run_model(model: PublicModel, root: Path, commands: Sequence[str] = tuple(COMMANDS),
              env: dict[str, str] | None = None) -> dict[str, Run]:
    """Each of ``commands`` on ``model``, by name."""
    return {c: run_command(c, model, root, env) for c in commands}


# ---- provenance, read back from what the commands print --------------------------------------
_SUMMARY = re.compile(r"^(\S+): (volume fit|mujoco fit|inertia fit|explicit ellipsoid|BEM \()(.*)$")
_SKIPPED = re.compile(r"^skipped (\S+): (.*)$")
_WARNING = re.compile(r"^warning: (\S+): collision '([^']*)': (.*)$")
_GEOMETRY_OF = re.compile(r"^  geometry of (.*)$")
_COMMENT = re.compile(r"<!-- (gzinertia addmass: .*?) -->")
_LINK_NAME = re.compile(r"<link_name>([^<]*)</link_name>")


@dataclass
class LinkProvenance:
    """What one command says about one link: its summary line (fit or BEM), the comment it
    writes, what the geometry pipeline did to each mesh, or why the link was skipped."""

    summary: str | None = None
    comment: str | None = None
    geometry: list[str] = field(default_factory=list)
    skipped: str | None = None

    def text(self) -> str:
        """Everything said about the link, one string."""
        return " | ".join(x for x in (self.summary, self.comment, *self.geometry, self.skipped)
                          if x)


def addmass_provenance(run: Run, links: Sequence[str]) -> dict[str, LinkProvenance]:
    """Per scoped link name of ``links``, what ``addmass`` (``--ellipsoid`` or ``--bem``)
    printed about it on stderr and wrote into the file (the diff, or the ``<gazebo>`` block it
    prints for a link a xacro macro makes, named by ``<link_name>``: matched to the scoped
    name it ends)."""
    found: dict[str, LinkProvenance] = {}

    def of(name: str) -> LinkProvenance:
        scoped = name if name in links else next(
            (s for s in links if s.endswith("::" + name)), name)
        return found.setdefault(scoped, LinkProvenance())

    current: LinkProvenance | None = None
    for line in run.err.splitlines():
        if m := _SUMMARY.match(line):
            current = of(m.group(1))
            current.summary = m.group(2) + m.group(3)
        elif m := _SKIPPED.match(line):
            of(m.group(1)).skipped, current = m.group(2), None
        elif m := _WARNING.match(line):
            of(m.group(1)).geometry.append(f"{m.group(2)}: {m.group(3)}")
        elif (m := _GEOMETRY_OF.match(line)) and current is not None:
            current.geometry.append(m.group(1))
    text = run.err + run.out
    for m in _COMMENT.finditer(text):
        name = _LINK_NAME.search(text, m.end())
        if name is not None and text.find("<!--", m.end(), name.start()) < 0:
            of(name.group(1)).comment = m.group(1)
    return found


def error_line(run: Run) -> str:
    """What a command that exited 2 said: its stderr, or (``audit --format json``, which keeps
    stderr for nothing) the message of the file it could not read."""
    if run.err.strip():
        return run.err.strip()
    return "; ".join(f["message"] for f in run.json()["files"] if f["status"] == "error")


def geometry_links(hydrostatics: Any) -> dict[str, list[dict[str, Any]]]:
    """Per scoped link name, the collisions ``hydrostatics --json`` lists for it (only links
    that have collisions)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for model in hydrostatics["models"]:
        for link in model["links"]:
            if link.get("collisions"):
                out[link["name"]] = link["collisions"]
    return out


def unusable(audit: Any) -> dict[str, list[dict[str, Any]]]:
    """Per link, the audit's GZI001/GZI003 findings (geometry it could not read or use)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for f in audit["findings"]:
        if f["code"] in ("GZI001", "GZI003") and f.get("link"):
            out.setdefault(f["link"], []).append(f)
    return out


# ---- the table ----------------------------------------------------------------------------------
def _g(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


def _diagonal(provenance: dict[str, LinkProvenance], run: Run, link: str | None) -> str:
    if link is None or link not in provenance:
        return "-"
    short = link.split("::")[-1]
    lines = run.err.splitlines()
    for k, line in enumerate(lines):
        if line.startswith(link + ":") or line.startswith(short + ":"):
            for after in lines[k + 1:k + 4]:
                if "A_BBo_B diag" in after:
                    return " ".join(after.split("]")[-1].split()[:3])
    block = re.search(rf"<link_name>{re.escape(short)}</link_name>(.*?)</plugin>", run.err, re.S)
    if block is not None:  # a xacro macro's link: the <gazebo> block printed (Fossen signs)
        terms = [re.search(rf"<{t}>([^<]*)</{t}>", block.group(1)) for t in _DIAGONAL_TERMS]
        return " ".join(f"{-float(t.group(1)):.4g}" if t else "0" for t in terms)
    return "-"


_DIAGONAL_TERMS = ("xDotU", "yDotV", "zDotW")


def model_row(model: PublicModel, runs: dict[str, Run]) -> list[str]:
    """One row of the table: statuses and times, volumes, the largest link's diagonals (x y
    z) and the BEM error estimate."""
    statuses = "/".join(str(r.status) for r in runs.values())
    seconds = "/".join(f"{r.seconds:.1f}" for r in runs.values())
    row = [model.name, statuses, seconds]
    hydro = runs.get("hydrostatics")
    if hydro is None or hydro.status == 2:
        return row + ["-"] * 5
    data = hydro.json()["models"]
    gazebo = sum(m["volume"] for m in data)
    exact = sum(m["volume_exact"] for m in data)
    links = [link for m in data for link in m["links"]]
    biggest = max(links, key=lambda link: link["volume_exact"] or 0.0)["name"] if links else None
    names = [link["name"] for link in links]
    cells = [_g(gazebo), _g(exact)]
    for command in ("ellipsoid", "bem"):
        run = runs.get(command)
        cells.append("-" if run is None else _diagonal(addmass_provenance(run, names), run,
                                                       biggest))
    bem = runs.get("bem")
    error = re.search(r"error estimate from \d+\): ([^,]+),", bem.err) if bem else None
    cells.append(error.group(1) if error else "-")
    return row + cells


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    roots = default_roots()
    parser.add_argument("--root", type=Path, default=roots["public"],
                        help=f"folder of the exported repositories (default ${ROOT_VARIABLE})")
    parser.add_argument("--corpus", type=Path, default=roots["corpus"],
                        help=f"the corpus folder (default ${CORPUS_VARIABLE} or ../shared/corpus)")
    parser.add_argument("--model", action="append", default=[], help="only these (repeatable)")
    parser.add_argument("--no-bem", "--quick", action="store_true", help="skip addmass --bem")
    parser.add_argument("-v", "--verbose", action="store_true", help="every link's provenance")
    options = parser.parse_args(argv)
    where = {"public": options.root, "corpus": options.corpus}
    found = present(where)
    models = [m for m in found if not options.model or m.name in options.model]
    missing = [m.name for m in MODELS if m not in found]
    commands = [c for c in COMMANDS if not (options.no_bem and c == "bem")]
    rows = []
    for model in models:
        root = where[model.root]
        assert root is not None
        runs = run_model(model, root, commands)
        rows.append(model_row(model, runs))
        if options.verbose:
            _print_provenance(model, runs)
    print_table(["model", "exit " + "/".join(commands), "seconds", "V Gazebo m^3",
                 "V exact m^3", "ellipsoid diag x y z (largest link)", "BEM diag x y z",
                 "BEM error"], rows)
    if missing:
        print(f"not found: {', '.join(missing)}")
    return 0


def _print_provenance(model: PublicModel, runs: dict[str, Run]) -> None:
    print(f"== {model.name}")
    for name, run in runs.items():
        if run.status == 2:
            print(f"  {name}: exit 2: {error_line(run)}")
    hydro, audit = runs.get("hydrostatics"), runs.get("audit")
    if hydro is None or hydro.status == 2:
        return
    links = geometry_links(hydro.json())
    bad = unusable(audit.json()) if audit is not None and audit.status != 2 else {}
    for command in ("ellipsoid", "bem"):
        if command not in runs or runs[command].status == 2:
            continue
        said = addmass_provenance(runs[command], list(links))
        for link, collisions in links.items():
            notes = "; ".join(f"{c['name']}: {c['note']}" for c in collisions if c.get("note"))
            told = said.get(link, LinkProvenance()).text() or "NOT SAID"
            print(f"  {command} {link}: {told}" + (f" [hydrostatics: {notes}]" if notes else ""))
    for link, findings in bad.items():
        for f in findings:
            print(f"  {f['code']} {link}: {f['message'][:160]}")


if __name__ == "__main__":
    raise SystemExit(main())
