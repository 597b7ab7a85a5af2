"""Every mention of the whole rule range, and of the files a folder is searched for, agrees with
the rule registry and the discovery (issue 25, item 16).

``action.yml`` said "searched for *.sdf and *.world" and "GZI001-GZI211", ``audit --help``
"GZI001–GZI212", while the rules went to GZI404 and folders were searched for URDF and xacro
too. The oracles: the rule pages under ``docs/rules/`` (one per rule, named by code) and the
files the discovery actually finds in a generated tree.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from gzinertia.audit.catalogue import RULE_INFOS, rule_range
from gzinertia.audit.discover import SEARCHED_PATTERNS, discover, searched_patterns_text

#: A range of codes as prose writes it: ``GZI001–GZI404`` or ``GZI001-GZI404``.
RANGE = re.compile(r"(GZI\d{3})\s*[-–]\s*(GZI\d{3})")


def _pages() -> list[str]:
    return sorted(p.stem for p in (REPO / "docs" / "rules").glob("GZI*.md"))


def _whole_ranges(text: str) -> list[tuple[str, str]]:
    """The ranges that start at the first code: claims about every rule."""
    first = _pages()[0]
    return [m.groups() for m in RANGE.finditer(text) if m.group(1) == first]


def test_the_registry_range_is_that_of_the_rule_pages() -> None:
    pages = _pages()
    assert sorted(RULE_INFOS) == pages
    assert rule_range() == f"{pages[0]}–{pages[-1]}"


def _texts() -> dict[str, str]:
    files = [REPO / "README.md", REPO / "action.yml", *sorted((REPO / "docs").glob("*.md")),
             *sorted((REPO / "gzinertia").rglob("*.py"))]
    return {str(p.relative_to(REPO)): p.read_text(encoding="utf-8") for p in files}


def test_every_whole_range_in_docs_code_and_action_is_the_registry_s() -> None:
    last = _pages()[-1]
    wrong = {name: ranges for name, text in _texts().items()
             if (ranges := [r for r in _whole_ranges(text) if r[1] != last])}
    assert not wrong, wrong


def test_audit_help_names_the_registry_range_and_the_searched_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_cli(["audit", "--help"], capsys)
    assert code == 0
    flat = " ".join(out.split())
    ranges = _whole_ranges(flat)
    assert ranges and all(r[1] == _pages()[-1] for r in ranges), flat
    assert searched_patterns_text() in flat, flat
    code, out, _ = run_cli(["--help"], capsys)
    assert all(r[1] == _pages()[-1] for r in _whole_ranges(" ".join(out.split())))


def test_the_searched_patterns_are_what_discovery_finds(tmp_path: Path) -> None:
    # one file per pattern, and one of a suffix that is not a model: the discovery finds
    # exactly the patterns' files (templates aside: they are listed as skipped)
    for pattern in SEARCHED_PATTERNS:
        (tmp_path / pattern.replace("*", "model")).write_text("<x/>")
    (tmp_path / "notes.txt").write_text("x")
    found = {Path(t.path).name for t in discover([str(tmp_path)]) if t.state == "audit"}
    assert found == {p.replace("*", "model") for p in SEARCHED_PATTERNS}


def test_action_yml_says_what_the_registry_and_discovery_say() -> None:
    text = " ".join((REPO / "action.yml").read_text(encoding="utf-8").split())
    assert [r[1] for r in _whole_ranges(text)] == [_pages()[-1]], text[:400]
    searched = re.search(r"folders are searched for ([^)]*)\)", text)
    assert searched, text
    assert set(re.findall(r"\*\.\w+", searched.group(1))) == set(SEARCHED_PATTERNS)


def test_docs_audit_shows_a_macro_only_xacro_as_the_audit_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    macros = tmp_path / "macros.xacro"
    macros.write_text('<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
                      '<xacro:macro name="m"><link name="a"/></xacro:macro></robot>\n')
    code, out, err = run_cli(["audit", str(macros), "--format", "text", "--no-cache"], capsys)
    assert code == 0, err  # skipped is not an error
    said = next(ln for ln in (out + err).splitlines() if "skipped:" in ln)
    reason = _reason(said)
    assert reason == "xacro macros only", said
    doc = (REPO / "docs" / "audit.md").read_text(encoding="utf-8")
    shown = [_reason(ln) for ln in doc.splitlines() if ".xacro: skipped: " in ln]
    assert shown and all(s == reason for s in shown), (reason, shown)


def _reason(line: str) -> str:
    """The first words of a skipped file's message (after ``PATH: skipped: PATH:``, up to a
    colon or a parenthesis)."""
    path, rest = line.split(": skipped: ", 1)
    return re.split(r"[:(]", rest.removeprefix(f"{path}: "), maxsplit=1)[0].strip()


def _expand(listing: str) -> set[str]:
    """``"GZI101–GZI104, GZI206"`` → every code it names (ranges within the registry)."""
    codes: set[str] = set()
    for part in listing.split(","):
        m = RANGE.search(part)
        if m:
            codes |= {c for c in RULE_INFOS if m.group(1) <= c <= m.group(2)}
        else:
            codes |= set(re.findall(r"GZI\d{3}", part))
    return codes


def test_the_rules_package_lists_each_module_s_rules() -> None:
    import gzinertia.audit.rules as rules
    from gzinertia.audit.rules import RULES

    listed = dict(re.findall(r":mod:`~gzinertia\.audit\.rules\.(\w+)`: ([^(]+)\(",
                             rules.__doc__ or ""))
    registered: dict[str, set[str]] = {}
    for code, rule in RULES.items():
        check = rule.check_link or rule.check_document
        assert check is not None
        registered.setdefault(check.__module__.rsplit(".", 1)[1], set()).add(code)
    assert {m: _expand(v) for m, v in listed.items()} == registered
