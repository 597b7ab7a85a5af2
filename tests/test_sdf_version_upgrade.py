"""Writing ``<fluid_added_mass>`` (SDF 1.10) into an older file declares 1.10 when the file means
the same under 1.10, refuses when it would not, and keeps the version on request (GZI201 then
says what that costs). libsdformat itself is the oracle for "means the same"."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sdf_builders as sdf
from conftest import CORPUS, run_cli
from oracles.sdformat_oracle import build_sdformat_dump, read_with_sdformat

from gzinertia.audit.runner import audit
from gzinertia.edit.addmass import FitChooser, add_mass
from gzinertia.edit.sdf_version import meaning_changes, version_tuple
from gzinertia.errors import GzInertiaError
from gzinertia.sdf.xml import parse_xml_file


def _model_text(version: str, extra: str = "") -> str:
    """Two 33 kg spheres (a, and b 1 m along x) hinged about z under SDFormat ``version``;
    ``extra``: a further element of the joint's ``<axis>`` (a construct of old versions)."""
    spheres = [
        sdf.link(name, sdf.inertial(33.0, None, posed=False), sdf.sphere(0.2, pose=None),
                 pose=pose)
        for name, pose in (("a", None), ("b", (1, 0, 0, 0, 0, 0)))
    ]
    hinge = sdf.joint("j", "a", "b", f"<axis><xyz>0 0 1</xyz>{extra}</axis>", type="revolute")
    return sdf.model(*spheres, hinge, version=version)
_VERSION = re.compile(r'(<sdf\b[^>]*\bversion\s*=\s*["\'])([^"\']*)(["\'])')


def _addmass(path: Path, upgrade: bool = True) -> tuple[bytes, tuple[str, ...], tuple[str, ...]]:
    result = add_mass(path, fit_for=FitChooser("volume"), density=1000.0, pattern=None,
                      upgrade_version=upgrade, model_paths=[])
    return result.new, result.notes, result.warnings


@pytest.mark.parametrize("version", ["1.5", "1.6", "1.7", "1.9"])
def test_old_file_is_declared_1_10_and_audits_clean(version: str, tmp_path: Path) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(_model_text(version))
    new, notes, warnings = _addmass(path)
    assert b'<sdf version="1.10">' in new
    assert any(f"was {version}" in n for n in notes) and not warnings
    path.write_bytes(new)
    assert not [f for f in audit([str(path)]).findings if f.code == "GZI201"]


@pytest.mark.parametrize(
    ("version", "extra", "construct"),
    [
        ("1.6", "<use_parent_model_frame>true</use_parent_model_frame>", "use_parent_model_frame"),
        ("1.4", "", "1.4 joint"),
    ],
)
def test_file_whose_meaning_would_change_is_refused(
    version: str, extra: str, construct: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(_model_text(version, extra))
    before = path.read_bytes()
    with pytest.raises(GzInertiaError, match=construct):
        _addmass(path)
    status, _, err = run_cli(["addmass", str(path), "--ellipsoid", "--in-place"], capsys)
    assert status == 2 and "--keep-version" in err and err.count("\n") == 1
    assert path.read_bytes() == before
    # --keep-version writes under the old version and says so; the audit then reports GZI201.
    new, _, warnings = _addmass(path, upgrade=False)
    assert f'<sdf version="{version}">'.encode() in new and any("GZI201" in w for w in warnings)


def test_versions_before_1_4_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.sdf"
    path.write_text(_model_text("1.3"))
    with pytest.raises(GzInertiaError, match="gz sdf -p"):
        _addmass(path)


def _upgradable_corpus() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    out = []
    for path in sorted(CORPUS.rglob("*.sdf")):
        try:
            root = parse_xml_file(path)
        except Exception:
            continue
        version = version_tuple(root.get("version") or "")
        if (1, 4) <= version < (1, 9) and not meaning_changes(root, version):
            out.append(path)
    return out


@pytest.mark.oracle("sdformat")
def test_libsdformat_reads_upgradable_files_the_same_declared_newer(tmp_path: Path) -> None:
    """Every corpus file (1.4–1.8) that ``addmass`` would declare 1.10: libsdformat 12 reads it
    the same once declared 1.9 (the newest it implements; 1.9 → 1.10 converts nothing), link by
    link: names, poses, masses, inertial poses and inertias."""
    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable (g++, pkg-config, libsdformat-dev)")
    files = _upgradable_corpus()
    if not files:
        pytest.skip("corpus not available")
    copies = []
    for k, src in enumerate(files):
        copies.append(tmp_path / f"{k}.sdf")
        text = _VERSION.sub(r"\g<1>1.9\g<3>", src.read_text(errors="replace"), count=1)
        copies[-1].write_text(text)
    original = read_with_sdformat(files)
    newer = read_with_sdformat(copies)
    compared = 0
    for src, a, b in zip(files, original, newer, strict=True):
        if a["errors"] or b["errors"]:
            continue  # files libsdformat cannot load (or whose includes stay behind) say nothing
        assert [lk["name"] for lk in a["links"]] == [lk["name"] for lk in b["links"]], src
        for la, lb in zip(a["links"], b["links"], strict=True):
            for key in ("X_WB", "mass", "X_BI", "I"):
                assert np.allclose(np.asarray(la[key], dtype=float), np.asarray(lb[key], dtype=float),
                                   rtol=0, atol=1e-12, equal_nan=True), (src, la["name"], key)
        compared += 1
    assert compared >= 20, compared


def test_corpus_needs_the_checks(tmp_path: Path) -> None:
    """The corpus holds files the conversion rules do change (so the refusal is exercised on
    real models): ``use_parent_model_frame`` in 1.5/1.6 models."""
    found = []
    for path in sorted(CORPUS.rglob("*.sdf")) if CORPUS.is_dir() else []:
        try:
            root = parse_xml_file(path)
        except Exception:
            continue
        version = version_tuple(root.get("version") or "")
        if (1, 4) <= version < (1, 10) and meaning_changes(root, version):
            found.append(path)
    if not CORPUS.is_dir():
        pytest.skip("corpus not available")
    assert found
    src = found[0]
    path = Path(shutil.copy(src, tmp_path / src.name))
    # a library call names the keyword argument (the command line names --keep-version)
    with pytest.raises(GzInertiaError, match="upgrade_version=False"):
        _addmass(path)
