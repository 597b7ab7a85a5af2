"""The result cache's file layout: one JSON document, one entry a line, each entry's MAC checked
on the text it was read from.

``AuditCache.save`` writes ``{"schema":2,"entries":{`` then one ``"KEY":{entry}`` line per file
(compact JSON, ``mac`` last) then ``}}``. A re-run checks each entry's
MAC on that text instead of encoding the entry again (the encoding of a few thousand numbers
was most of a cached re-run's checks); whatever the text, an entry is trusted only when its MAC
verifies over exactly the text it was parsed from, and a file in any other layout (written by
hand, or by an older gzinertia) is still read and checked the general way.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

from gzinertia.audit import cache as cache_module
from gzinertia.audit import runner
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import AuditResult


@pytest.fixture
def defects(tmp_path: Path) -> Path:
    folder = tmp_path / "defects"
    shutil.copytree(EXAMPLES / "defects", folder)
    return folder


def _audit(folder: Path, cache: Path | None, notes: list[str] | None = None) -> AuditResult:
    return runner.audit([str(folder)], model_paths=[str(EXAMPLES)], cache_dir=cache,
                        cache_notes=notes)


def _cache_file(cache: Path) -> Path:
    (path,) = (cache / "audit").glob("*.json")
    return path


def _checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the audit reads and checks (not served from the cache), as it runs."""
    checked: list[str] = []
    original = runner._audit_file

    def spy(path: str, *args: object, **kwargs: object) -> runner.FileResult:
        checked.append(path)
        return original(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "_audit_file", spy)
    return checked


def test_the_cache_file_is_one_json_document_with_an_entry_a_line(
    defects: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    _audit(defects, cache)
    text = _cache_file(cache).read_text(encoding="utf-8")
    lines = text.split("\n")
    entries = json.loads(text)["entries"]
    assert lines[0] == f'{{"schema":{cache_module.SCHEMA},"entries":{{' and lines[-1] == "}}"
    assert len(lines) == len(entries) + 2 >= 5
    for line, (key, entry) in zip(lines[1:-1], entries.items(), strict=True):
        assert line.rstrip(",") == json.dumps(key) + ":" + json.dumps(entry, separators=(",", ":"))
        assert list(entry)[-1] == "mac"


def test_a_rerun_checks_the_macs_without_encoding_the_entries_again(
    defects: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    first = _audit(defects, cache)
    assert first == _audit(defects, None)
    checked = _checked(monkeypatch)

    def no_encoding(*args: object) -> str:
        raise AssertionError("an entry was encoded again to check its MAC")

    monkeypatch.setattr(cache_module, "entry_mac", no_encoding)
    second = _audit(defects, cache)
    assert second == first
    # byte for byte as reported: each finding's values in the order the rule gave them
    assert [json.dumps(f.to_plain()) for f in second.findings] == [
        json.dumps(f.to_plain()) for f in first.findings
    ]
    # served from the cache: every file but those that could not be read (never cached)
    assert set(checked) == {s.path for s in first.files if s.status == "error"}


def test_the_text_check_and_the_general_check_agree_on_every_entry(
    defects: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    _audit(defects, cache)
    config = AuditConfig(known_codes=frozenset(RULE_INFOS))
    key = runner.open_cache(cache, config, [str(EXAMPLES)])
    assert key._texts and set(key._texts) == set(key._entries)
    general = cache_module.AuditCache.__new__(cache_module.AuditCache)
    general.__dict__.update(key.__dict__, _texts={})
    for entry_key, entry in key._entries.items():
        assert key._verified(entry_key, entry) and general._verified(entry_key, entry)
        forged = {**entry, "findings": []}
        assert not key._verified(entry_key, forged) and not general._verified(entry_key, forged)


def _rewrite(path: Path, edit: object) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    path.write_text("\n".join(edit(lines)), encoding="utf-8")  # type: ignore[operator]


@pytest.mark.parametrize("damage", ["edited", "swapped", "smuggled"])
def test_an_edited_line_is_never_trusted(
    defects: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """An edited finding, two entries' texts swapped between their keys, and a forged entry
    smuggled after a genuine one on its line (JSON keeps the last of two equal keys): each file
    concerned is checked again, and the result is the uncached one."""
    cache = tmp_path / "cache"
    clean = _audit(defects, cache)
    path = _cache_file(cache)
    with_findings = [i for i, line in enumerate(path.read_text().split("\n")) if '"code":' in line]
    i, j = with_findings[0], with_findings[1]

    def edit(lines: list[str]) -> list[str]:
        if damage == "edited":
            lines[i] = lines[i].replace('"code":"GZI', '"code":"GZX', 1)
        elif damage == "swapped":
            (ki, ti), (kj, tj) = (lines[n].split('":{', 1) for n in (i, j))
            lines[i], lines[j] = ki + '":{' + tj, kj + '":{' + ti
        else:
            key = lines[i].split('":{', 1)[0] + '"'
            lines[j] = lines[j].rstrip(",") + "," + key + ':{"findings":[]},'
        return lines

    _rewrite(path, edit)
    checked = _checked(monkeypatch)
    notes: list[str] = []
    assert _audit(defects, cache, notes) == clean
    assert checked, damage  # something was checked again: nothing forged was served
    if damage == "smuggled":
        assert len(notes) == 1 and "unreadable cache ignored" in notes[0]
