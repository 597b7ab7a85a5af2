"""The audit's result cache: an unchanged file is not checked again, and a cached result is the
result a fresh check gives. Every input a file's findings depend on invalidates its entry: its
bytes, an included model's bytes, where an include or mesh URI resolves, and the settings."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_cli
from xacro_workspace import TETRA_STL as STL_TETRA

from gzinertia.audit import cache as cache_module
from gzinertia.audit import runner
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import AuditResult
from gzinertia.audit.rules import RULES

# Inline: the cache keys on size and time, and tests rewrite these files to the same size.
ROBOT = """<?xml version="1.0"?>
<sdf version="1.10">
  <model name="robot">
    <link name="base">
      <inertial><mass>{mass}</mass>
        <inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>
      <collision name="c"><geometry><box><size>1 1 1</size></box></geometry></collision>
    </link>
    <include><uri>model://part</uri><name>part</name></include>
    <joint name="j" type="fixed"><parent>base</parent><child>part::body</child></joint>
  </model>
</sdf>
"""

PART = """<?xml version="1.0"?>
<sdf version="1.10">
  <model name="part">
    <link name="body">
      <inertial><mass>{mass}</mass>
        <inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial>
      <collision name="c"><geometry><mesh><uri>{mesh}</uri></mesh></geometry></collision>
    </link>
  </model>
</sdf>
"""



def _write_part(models: Path, mass: float, mesh: str = "meshes/missing.stl") -> Path:
    folder = models / "part"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.sdf").write_text(PART.format(mass=mass, mesh=mesh), encoding="utf-8")
    return folder


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """``robots/robot.sdf`` (base link, mass -1: GZI101) including ``model://part`` from
    ``models/`` (body link with an unresolved mesh)."""
    (tmp_path / "robots").mkdir()
    (tmp_path / "robots" / "robot.sdf").write_text(ROBOT.format(mass=-1), encoding="utf-8")
    _write_part(tmp_path / "models", 2.0)
    return tmp_path


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The files the audit really checked (not served from the cache)."""
    seen: list[str] = []
    original = runner._audit_file

    def spy(
        path: str, search: list[str], config: AuditConfig, digest: bool = False,
        *args: Any, **kwargs: Any,
    ) -> runner.FileResult:
        seen.append(path)
        return original(path, search, config, digest, *args, **kwargs)

    monkeypatch.setattr(runner, "_audit_file", spy)
    yield seen


def _audit(tree: Path, cache: Path | None, config: AuditConfig | None = None,
           models: Path | None = None) -> AuditResult:
    model_path = str(models or tree / "models")
    return runner.audit([str(tree / "robots")], config, model_paths=[model_path], cache_dir=cache)


def test_an_unchanged_file_is_served_from_the_cache_with_the_same_result(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    fresh = _audit(tree, None)
    first = _audit(tree, cache)
    second = _audit(tree, cache)
    assert checked == [str(tree / "robots" / "robot.sdf")] * 2  # the uncached run and the first
    assert fresh == first == second
    assert [f.code for f in second.findings].count("GZI101") == 1
    assert (cache / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert (cache / "CACHEDIR.TAG").read_text(encoding="utf-8").startswith("Signature: 8a477f59")


def test_an_edit_of_the_audited_file_is_seen_even_with_size_and_mtime_kept(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    robot = tree / "robots" / "robot.sdf"
    before = _audit(tree, cache)
    st = robot.stat()
    robot.write_text(ROBOT.format(mass=+1), encoding="utf-8")  # -1 -> +1: same size
    os.utime(robot, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = _audit(tree, cache)
    assert len(checked) == 2
    assert "GZI101" in {f.code for f in before.findings}
    assert "GZI101" not in {f.code for f in after.findings}
    assert after == _audit(tree, None)


def test_an_edit_of_an_included_model_invalidates_the_including_file(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    _audit(tree, cache)
    _write_part(tree / "models", -5.0)  # the included link's mass turns negative
    after = _audit(tree, cache)
    assert len(checked) == 2
    assert any(f.code == "GZI101" and f.link == "robot::part::body" for f in after.findings)
    assert after == _audit(tree, None)


def test_a_model_folder_appearing_earlier_in_the_model_path_invalidates(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    first_dir, second_dir = tmp_path / "first", tree / "models"
    first_dir.mkdir()
    models = f"{first_dir}{os.pathsep}{second_dir}"
    config = AuditConfig(model_paths=(str(first_dir), str(second_dir)),
                         known_codes=frozenset(RULES))
    _audit(tree, cache, config, models=first_dir)
    _write_part(first_dir, -3.0)  # model://part now resolves to this folder first
    after = _audit(tree, cache, config, models=first_dir)
    assert len(checked) == 2, models
    assert any(f.code == "GZI101" and f.link == "robot::part::body" for f in after.findings)


def test_a_mesh_that_appears_invalidates(tree: Path, tmp_path: Path, checked: list[str]) -> None:
    cache = tmp_path / "cache"
    _write_part(tree / "models", 1e6)  # 1000 t: too dense for any mesh of a few m³
    before = _audit(tree, cache)
    mesh = tree / "models" / "part" / "meshes" / "missing.stl"
    mesh.parent.mkdir()
    mesh.write_text(STL_TETRA, encoding="utf-8")
    after = _audit(tree, cache)
    assert len(checked) == 2
    assert after == _audit(tree, None)
    # The tetrahedron's volume now feeds the geometry rules: a mean density beyond osmium's.
    assert "GZI106" not in {f.code for f in before.findings}
    assert "GZI106" in {f.code for f in after.findings}


def test_other_settings_use_another_cache_file(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    everything = _audit(tree, cache)
    only_added_mass = AuditConfig(select=("GZI2",), known_codes=frozenset(RULES))
    selected = _audit(tree, cache, only_added_mass)
    assert len(checked) == 2
    assert "GZI101" in {f.code for f in everything.findings}
    assert all(f.code.startswith("GZI2") for f in selected.findings)
    assert len(list((cache / "audit").glob("*.json"))) == 2


def test_files_that_cannot_be_read_are_checked_every_time(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    # Inline: a truncated file.
    (tree / "robots" / "broken.sdf").write_text("<sdf version='1.10'><model", encoding="utf-8")
    first = _audit(tree, cache)
    second = _audit(tree, cache)
    assert first == second
    assert [s.status for s in second.files] == ["error", "ok"]
    assert checked.count(str(tree / "robots" / "broken.sdf")) == 2
    assert checked.count(str(tree / "robots" / "robot.sdf")) == 1


def test_a_corrupt_cache_is_ignored_and_rewritten(
    tree: Path, tmp_path: Path, checked: list[str]
) -> None:
    cache = tmp_path / "cache"
    _audit(tree, cache)
    (cache_file,) = (cache / "audit").glob("*.json")
    cache_file.write_bytes(b'{"schema": %d, "entries": {"x": 3' % cache_module.SCHEMA)
    assert _audit(tree, cache) == _audit(tree, None)
    json.loads(cache_file.read_bytes())  # written again, whole
    entries = json.loads(cache_file.read_bytes())["entries"]
    (key, entry), = entries.items()
    damaged = [  # well-formed JSON, wrong shapes: each entry must be ignored, never trusted
        {"digests": 7},
        {**entry, "dependencies": [[1, 2]]},
        {**entry, "dependencies": [["include", 5, None, None]]},
        {**entry, "findings": [{**entry["findings"][0], "severity": "fatal"}]},
        {**entry, "findings": [{**entry["findings"][0], "values": [1, 2]}]},
        {**entry, "findings": 3},
    ]
    mac_key = cache_module._entry_mac_key(cache_module._code_fingerprint())
    for bad in damaged:  # signed as this code signs: the shape checks must catch them
        bad = {**bad, "mac": cache_module.entry_mac(mac_key, key, bad)}
        cache_file.write_text(json.dumps({"schema": cache_module.SCHEMA, "entries": {key: bad}}),
                              encoding="utf-8")
        assert _audit(tree, cache) == _audit(tree, None), bad


def test_a_cache_folder_that_cannot_be_written_does_not_fail_the_audit(
    tree: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.write_text("a file where the cache folder should be", encoding="utf-8")
    notes: list[str] = []
    result = runner.audit([str(tree / "robots")], model_paths=[str(tree / "models")],
                          cache_dir=cache, cache_notes=notes)
    assert result == _audit(tree, None)
    assert cache.read_text(encoding="utf-8") == "a file where the cache folder should be"
    assert len(notes) == 1 and "cache not written" in notes[0]


def test_the_cli_caches_where_told_and_not_with_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    defects = tmp_path / "defects"
    shutil.copytree(EXAMPLES / "defects", defects)
    cache = tmp_path / "cache"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GZINERTIA_CACHE_DIR")
    args = ["audit", str(defects), "--format", "json", "--model-path", str(EXAMPLES)]
    uncached = run_cli([*args, "--no-cache"], capsys)
    assert not (tmp_path / ".gzinertia_cache").exists() and not cache.exists()
    first = run_cli([*args, "--cache-dir", str(cache)], capsys)
    second = run_cli([*args, "--cache-dir", str(cache)], capsys)
    assert len(list((cache / "audit").glob("*.json"))) == 1
    default = run_cli(args, capsys)  # no option, no variable: .gzinertia_cache here
    assert len(list((tmp_path / ".gzinertia_cache" / "audit").glob("*.json"))) == 1
    assert uncached[0] == first[0] == second[0] == default[0] == 1
    reports = [json.loads(run[1]) for run in (uncached, first, second, default)]
    assert all(report == reports[0] for report in reports)


def test_a_run_served_from_the_cache_loads_neither_the_checks_nor_numpy(
    tree: Path, tmp_path: Path
) -> None:
    """What makes a re-run cheap: the checks (and NumPy) are imported only for a file that must
    be checked."""
    import subprocess
    import sys

    program = (
        "import sys\n"
        "from pathlib import Path\n"
        "from gzinertia.audit.runner import audit\n"
        f"result = audit([{str(tree / 'robots')!r}], model_paths=[{str(tree / 'models')!r}],\n"
        f"               cache_dir=Path({str(tmp_path / 'cache')!r}))\n"
        "assert result.findings\n"
        "print(sorted(m for m in ('numpy', 'gzinertia.audit.rules', 'gzinertia.sdf.reader')\n"
        "             if m in sys.modules))\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert runs[0].stdout.strip() == "['gzinertia.audit.rules', 'gzinertia.sdf.reader', 'numpy']"
    assert runs[1].stdout.strip() == "[]"


def test_entries_of_deleted_files_are_dropped(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    extra = tree / "robots" / "extra.sdf"
    extra.write_text(ROBOT.format(mass=2), encoding="utf-8")
    _audit(tree, cache)
    (cache_file,) = (cache / "audit").glob("*.json")
    assert len(json.loads(cache_file.read_bytes())["entries"]) == 2
    extra.unlink()
    (tree / "robots" / "robot.sdf").write_text(ROBOT.format(mass=3), encoding="utf-8")
    _audit(tree, cache)  # a changed file makes the run write the cache again
    entries = json.loads(cache_file.read_bytes())["entries"]
    assert [key.split("\0")[1] for key in entries] == [str(tree / "robots" / "robot.sdf")]


def test_runs_side_by_side_keep_each_others_entries(tree: Path, tmp_path: Path) -> None:
    """pre-commit runs a hook on batches of files in parallel processes with one cache: each
    process's save keeps what the others wrote."""
    cache = tmp_path / "cache"
    other = tree / "robots" / "other.sdf"
    other.write_text(ROBOT.format(mass=2), encoding="utf-8")
    config = AuditConfig(known_codes=frozenset(RULES))
    search = [str(tree / "models")]
    first = runner.open_cache(cache, config, search)
    second = runner.open_cache(cache, config, search)  # both loaded before either saved
    for opened, path in ((first, tree / "robots" / "robot.sdf"), (second, other)):
        result = runner._audit_file(str(path), search, config, digest=True)
        assert result.digest is not None
        opened.store(str(path), result.digest, result.findings, result.dependencies)
    first.save()
    second.save()
    reopened = runner.open_cache(cache, config, search)
    assert reopened.lookup(str(tree / "robots" / "robot.sdf")) is not None
    assert reopened.lookup(str(other)) is not None
