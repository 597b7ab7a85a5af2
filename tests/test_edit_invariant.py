"""The tool never contradicts itself: every editing command, on every file of ``sdf_examples/``,
the corpus and generated vehicles, may remove audit findings but never add one, and ``--check``
right after ``--in-place`` exits 0 (a re-run is a no-op).

One invariant, one test: audit the file, run the command with ``--in-place`` (a refusal, exit
2, must leave the file as it was), run it again with ``--check``, audit again, and compare the
findings by ``(code, link)``. A later editing command is one more entry in :data:`EDITS`.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

import pytest
from conftest import CORPUS, EXAMPLES, run_cli
from sdfgen import FIT_SHAPES, shapes_vehicle_for_seed, vehicle_sdf_for_seed
from urdfgen import random_urdf, with_invalid_inertias

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import Finding
from gzinertia.audit.runner import audit
from gzinertia.cli.options import FitChoice
from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.physics.fits import DEFAULT_FIT, FIT_METHODS

#: Generated vehicles in the quick run (CI) and under the ``slow`` marker.
QUICK_SEEDS = range(12)
SLOW_SEEDS = range(12, 200)


@dataclass(frozen=True)
class Run:
    """One command line (without the write mode); ``edit_only`` flags go to the ``--in-place``
    run and not to the ``--check`` re-run (which must then find nothing to do)."""

    args: tuple[str, ...]
    edit_only: tuple[str, ...] = ()


Runs = Callable[[Path, bytes, Sequence[Finding]], list[Run]]


def _addmass(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    return [Run(("addmass", str(path), "--ellipsoid"))]


def _shift(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    """The fix the audit itself suggests for each GZI204 (``shift --from`` the point it names);
    ``--from origin`` (nothing to move) where it suggests none."""
    runs = []
    for f in found:
        if f.code == "GZI204" and f.link is not None:
            point = ",".join(f"{v:.17g}" for v in f.values["shift_from"])
            if f.values["reference"] == "centre of mass":
                point = "com"
            runs.append(Run(("shift", str(path), "--link", f.link, f"--from={point}")))
    if not runs and b"<fluid_added_mass" in text:
        return [Run(("shift", str(path), "--link", "*", "--from", "origin"))]
    return runs


def _hydro_to_sdf(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    return [Run(("convert", str(path), "--hydro-to-sdf"))] if b"Dot" in text else []


def _sdf_to_hydro(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    if b"<fluid_added_mass" not in text or b"hydrodynamics" not in text.lower():
        return []
    return [Run(("convert", str(path), "--sdf-to-hydro", "--sign", "fossen", "--engine",
                 "bullet-featherstone"))]


def _hydro(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    if b"<collision" not in text:
        return []
    return [Run(("hydro", str(path), "--link", "*"), edit_only=("--force",))]


def _addmass_bem(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    """``addmass --bem`` on generated vehicles only (seeds 0-3, every tenth slow seed): each link
    is two boundary-element solves, seconds each, too slow for every corpus file."""
    if path.suffix == ".urdf":  # generated robots: a Hydrodynamics block per lumped link
        seed = path.stem.removeprefix("robot_")
        if not seed.isdigit() or int(seed) not in URDF_BEM_SEEDS:
            return []
        return [Run(("addmass", str(path), "--bem", "--quality", "fast"))]
    seed = path.stem.removeprefix("vehicle_")
    if not path.name.startswith("vehicle_") or not seed.isdigit():
        return []
    if int(seed) >= 4 and int(seed) % 10:
        return []
    return [Run(("addmass", str(path), "--bem", "--quality", "fast"))]


#: Files whose collision is a buoyancy proxy for a visual hull (gz-sim's hydrodynamics tutorial:
#: a 1 x 1 x 0.01 m slab under a cylinder visual): ``addmass --bem --geometry visual`` there.
VISUAL_HULLS = ("theory_hydrodynamics/buoyant_cylinder.sdf",)


def _addmass_bem_visual(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    if not any(path.as_posix().endswith(name) for name in VISUAL_HULLS):
        return []
    args = ("--bem", "--geometry", "visual", "--quality", "fast", "--replace-plugin-added-mass")
    return [Run(("addmass", str(path), *args))]


def _addmass_fit(method: str) -> Runs:
    """``addmass --ellipsoid --fit METHOD`` on the whole file; for ``explicit`` (``--semi-axes``,
    which takes one link) one run per moving link, with an ellipsoid of random semi-axes, centre
    and orientation drawn from the file's name and the link (a user's own hull ellipsoid)."""

    def runs(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
        if method != "explicit":
            return [Run(("addmass", str(path), "--ellipsoid", "--fit", method))]
        import numpy as np

        from gzinertia.errors import GzInertiaError
        from gzinertia.model_reader import read_model_file

        try:
            links = read_model_file(path).links
        except GzInertiaError:  # a file the audit cannot read either: the test skips it
            return []
        out = []
        for k, link in enumerate(links):
            if link.static or link.welded_to_world:
                continue
            rng = np.random.default_rng([sum(path.name.encode()), k])
            a = ",".join(f"{v:.6g}" for v in rng.uniform(0.05, 0.8, size=3))
            c = ",".join(f"{v:.6g}" for v in rng.uniform(-0.5, 0.5, size=3))
            rpy = ",".join(f"{v:.6g}" for v in rng.uniform(-3.0, 3.0, size=3))
            out.append(Run(("addmass", str(path), "--ellipsoid", "--link", link.name,
                            f"--semi-axes={a}", f"--center={c}", f"--rpy={rpy}")))
        return out

    return runs


def _fix(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    return [Run(("fix", str(path)))] if b"<inertia" in text else []


def _fix_geometry(path: Path, text: bytes, found: Sequence[Finding]) -> list[Run]:
    if b"<collision" not in text:
        return []
    return [Run(("fix", str(path), "--method", "geometry", "--move-com", "--density", "1000"))]


#: Every editing command, with the options a user would pick for a whole file.
EDITS: dict[str, Runs] = {
    "addmass": _addmass,
    "addmass-bem": _addmass_bem,
    "addmass-bem-visual": _addmass_bem_visual,
    "shift": _shift,
    "convert-hydro-to-sdf": _hydro_to_sdf,
    "convert-sdf-to-hydro": _sdf_to_hydro,
    "hydro": _hydro,
    "fix": _fix,
    "fix-geometry": _fix_geometry,
}


#: ``addmass --ellipsoid`` with every fit the command line offers (``--fit`` and, for
#: ``explicit``, ``--semi-axes``); ``EDITS["addmass"]`` is the default fit.
FIT_EDITS: dict[str, Runs] = {f"addmass-{m}": _addmass_fit(m) for m in FIT_METHODS}


def test_fit_edits_cover_every_fit_the_cli_offers() -> None:
    """Every ``--fit`` choice and the explicit ellipsoid are checked (a new fit method in
    :data:`gzinertia.physics.fits.FIT_METHODS` or the CLI joins the invariant by itself)."""
    offered = set(get_args(FitChoice)) | {"explicit"}
    assert offered == set(FIT_METHODS)
    assert {f"addmass-{m}" for m in offered} == set(FIT_EDITS)
    assert DEFAULT_FIT == "volume" and EDITS["addmass"] is _addmass


def _sources() -> list[tuple[str, Path | int]]:
    files: list[tuple[str, Path | int]] = []
    files += [(f"examples/{p.relative_to(EXAMPLES)}", p) for p in sorted(EXAMPLES.rglob("*.sdf"))]
    if CORPUS.is_dir():
        files += [(f"corpus/{p.relative_to(CORPUS)}", p) for p in sorted(CORPUS.rglob("*.sdf"))]
    files += [(f"generated/{seed}", seed) for seed in QUICK_SEEDS]
    return files


def _materialise(source: Path | int | str, tmp: Path) -> Path:
    """A writable copy: a corpus or example file with its whole project (relative includes
    keep resolving), a generated vehicle, (``"urdf:SEED"``) a generated URDF robot with
    about half of its inertias made invalid, or (``"shapes:SEED"``) a generated model whose
    links hold several collisions of every shape and mesh files."""
    if isinstance(source, str) and source.startswith("shapes:"):
        seed = int(source.removeprefix("shapes:"))
        path = tmp / f"shapes_{seed}.sdf"
        path.write_text(shapes_vehicle_for_seed(seed, tmp))
        return path
    if isinstance(source, str):
        seed = int(source.removeprefix("urdf:"))
        path = tmp / f"robot_{seed}.urdf"
        path.write_text(with_invalid_inertias(random_urdf(seed).text, seed))
        return path
    if isinstance(source, int):
        path = tmp / f"vehicle_{source}.sdf"
        path.write_text(vehicle_sdf_for_seed(source))
        return path
    root = CORPUS if source.is_relative_to(CORPUS) else EXAMPLES
    project = root / source.relative_to(root).parts[0]
    if project == source:
        return Path(shutil.copy(source, tmp / source.name))
    shutil.copytree(project, tmp / project.name, symlinks=True)
    return tmp / project.name / source.relative_to(project)


#: Findings about a whole file, reported on a representative link (GZI201: the first link with
#: ``<fluid_added_mass>``): compared by file, since an edit that removes that link's element
#: moves the same finding to the next link.
FILE_LEVEL = frozenset({"GZI201"})


def _key(f: Finding) -> tuple[str, str | None]:
    return (f.code, f.file if f.code in FILE_LEVEL else f.link)


#: The target each edit is audited for, where it is not the default: the target the edit was
#: run for (``convert --sdf-to-hydro`` is refused under the default, Jetty with dartsim, which
#: deprecates the plugin's added mass: GZI602).
EDIT_TARGETS = {"convert-sdf-to-hydro": Target(engine="bullet-featherstone",
                                               engine_origin="command line")}


def _findings(path: Path, target: Target = DEFAULT_TARGET,
              ) -> tuple[str, set[tuple[str, str | None]], list[Finding]]:
    result = audit([str(path)], AuditConfig(known_codes=frozenset(RULE_INFOS), target=target))
    status = ";".join(s.status for s in result.files if Path(s.path) == path) or "ok"
    return status, {_key(f) for f in result.findings}, list(result.findings)


def check_invariant(
    command: str, source: Path | int | str, tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _materialise(source, tmp)
    text = path.read_bytes()
    target = EDIT_TARGETS.get(command, DEFAULT_TARGET)
    status, before, found = _findings(path, target)
    runs = {**EDITS, **FIT_EDITS}[command](path, text, found)
    if status != "ok" or not runs:
        pytest.skip(f"{command} does not apply ({status})")
    for run in runs:
        old = path.read_bytes()
        code, _, err = run_cli([*run.args, *run.edit_only, "--in-place"], capsys)
        assert code in (0, 2), err
        if code == 2:  # refused: one line, nothing written
            assert path.read_bytes() == old, err
            continue
        code, _, err = run_cli([*run.args, "--check"], capsys)
        assert code == 0, f"--check after --in-place: {err}"
    status_after, after, found_after = _findings(path, target)
    assert status_after == "ok"
    added = after - before
    assert not added, [f.message for f in found_after if _key(f) in added]


_QUICK = _sources()


@pytest.mark.parametrize("command", sorted(EDITS))
@pytest.mark.parametrize("source", [s for _, s in _QUICK], ids=[i for i, _ in _QUICK])
def test_edit_adds_no_finding(
    command: str, source: Path | int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_invariant(command, source, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(EDITS))
@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_edit_adds_no_finding_many_vehicles(
    command: str, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_invariant(command, seed, tmp_path, capsys)


#: The editing commands that take URDF and xacro, on generated robots (fixed joints lumped by
#: libsdformat, massless links dropped, inertias broken on purpose).
URDF_EDITS = ("fix", "fix-geometry", "addmass", "addmass-bem")
URDF_SEEDS = range(10)
#: The generated robots ``addmass --bem`` solves (each link two solves: the quick run stays short).
URDF_BEM_SEEDS = range(4)


@pytest.mark.parametrize("command", URDF_EDITS)
@pytest.mark.parametrize("seed", URDF_SEEDS)
def test_edit_adds_no_finding_on_generated_urdf(
    command: str, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_invariant(command, f"urdf:{seed}", tmp_path, capsys)


#: Generated models of every shape per fit method: the quick run and the ``slow`` one.
SHAPE_QUICK_SEEDS = range(4)
SHAPE_SLOW_SEEDS = range(4, 80)


def test_quick_shape_models_hold_every_shape(tmp_path: Path) -> None:
    """The quick seeds together put every primitive, the cone and mesh files, several to a
    link, in front of every fit."""
    from gzinertia.model_reader import read_model_file

    kinds: set[str] = set()
    for seed in SHAPE_QUICK_SEEDS:
        path = _materialise(f"shapes:{seed}", tmp_path / str(seed))
        for link in read_model_file(path).links:
            assert len(link.collisions) >= 2
            kinds |= {c.geometry.kind for c in link.collisions}
    assert kinds == set(FIT_SHAPES)


@pytest.mark.parametrize("command", sorted(FIT_EDITS))
@pytest.mark.parametrize("seed", SHAPE_QUICK_SEEDS)
def test_every_fit_adds_no_finding(
    command: str, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_invariant(command, f"shapes:{seed}", tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(FIT_EDITS))
@pytest.mark.parametrize("seed", SHAPE_SLOW_SEEDS)
def test_every_fit_adds_no_finding_many_shapes(
    command: str, seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_invariant(command, f"shapes:{seed}", tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(FIT_EDITS))
@pytest.mark.parametrize("source", [s for _, s in _QUICK], ids=[i for i, _ in _QUICK])
def test_every_fit_adds_no_finding_on_every_file(
    command: str, source: Path | int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_invariant(command, source, tmp_path, capsys)
