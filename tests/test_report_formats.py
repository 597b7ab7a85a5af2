"""Every output format of ``gzinertia audit``, byte for byte against snapshots.

The snapshots under ``tests/snapshots/audit/`` were recorded from ``main`` at 6158da2, before
the formats moved from ``gzinertia/audit/formats.py`` into ``gzinertia/report/`` (issue 26):
they are the oracle only for "the output did not change", not for "the output is right" (the
consumers' own parsers judge that: ``tests/test_audit_formats.py``). Each input is an
:class:`~gzinertia.audit.findings.AuditResult` stored as data
(``tests/snapshots/audit/<name>.input.json``, every field of every finding, file status and
settings use), so the snapshots test the rendering alone: a rule that changes what it finds
does not touch them. ``sdf_examples`` is the audit of ``sdf_examples/`` (``audit --isolated``),
``formats`` the hand-built result of ``tests/test_audit_formats.py`` and ``hostile`` names a
pull request could choose (control, format and bidi characters, line breaks, undecodable
bytes), settings files, a file-level finding and links that group. Every ``--format`` is
snapshotted, and ``table-colour``: the table as a terminal gets it (``render_table`` on a colour
console).

To record them again (only when a format is meant to change, and say so in the commit):
``python tests/test_report_formats.py --record``.
"""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.findings import AuditResult, FileStatus, Finding, SettingsUse

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "audit"
VERSION = "0.0.0+snapshot"
PROJECT_URI = "https://example.org/gzinertia/blob/main/"
FORMATS = ("text", "table", "json", "sarif", "junit", "github", "table-colour")
INPUTS = ("sdf_examples", "formats", "hostile")


def _finding_data(f: Finding) -> dict[str, Any]:
    return {"code": f.code, "severity": f.severity, "file": f.file, "line": f.line,
            "link": f.link, "message": f.message, "values": dict(f.values),
            "link_in_file": f.link_in_file, "message_template": f.message_template,
            "message_args": dict(f.message_args)}


def result_to_data(result: AuditResult) -> dict[str, Any]:
    """Every field of ``result`` as JSON data (NaN and infinities as Python's JSON tokens)."""
    return {
        "files": [{"path": s.path, "status": s.status, "message": s.message,
                   "error_file": s.error_file, "error_line": s.error_line}
                  for s in result.files],
        "findings": [_finding_data(f) for f in result.findings],
        "settings": [{"path": u.path, "files": list(u.files), "changes": dict(u.changes),
                      "rules_off": list(u.rules_off), "unchecked": list(u.unchecked)}
                     for u in result.settings],
    }


def result_from_data(data: dict[str, Any]) -> AuditResult:
    """The :class:`AuditResult` :func:`result_to_data` wrote."""
    return AuditResult(
        tuple(FileStatus(**s) for s in data["files"]),
        tuple(Finding(**f) for f in data["findings"]),
        tuple(SettingsUse(u["path"], tuple(u["files"]), u["changes"], tuple(u["rules_off"]),
                          tuple(u["unchecked"])) for u in data["settings"]),
    )


def _render(result: AuditResult, fmt: str) -> str:
    """``result`` as ``audit --format FMT`` writes it; ``table-colour``: the table a terminal
    gets (severity colours, 16-colour escapes, 120 columns)."""
    from gzinertia.report.audit import render, render_table

    if fmt != "table-colour":
        return render(result, fmt, RULE_INFOS, VERSION, project_uri=PROJECT_URI)
    buffer = io.StringIO()
    console = Console(file=buffer, width=120, color_system="standard", force_terminal=True,
                      highlight=False, no_color=False, legacy_windows=False)
    render_table(result, console, RULE_INFOS)
    return buffer.getvalue()


def _snapshot(name: str, fmt: str) -> Path:
    return SNAPSHOTS / f"{name}.{fmt}"


def _input(name: str) -> AuditResult:
    data = json.loads((SNAPSHOTS / f"{name}.input.json").read_text(encoding="utf-8"))
    return result_from_data(data)


@pytest.mark.parametrize("name", INPUTS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders_as_it_did(name: str, fmt: str) -> None:
    want = _snapshot(name, fmt).read_bytes()
    got = _render(_input(name), fmt).encode("utf-8")
    assert got == want, f"{name}.{fmt} differs from its snapshot"


@pytest.mark.parametrize("name", INPUTS)
def test_inputs_round_trip(name: str) -> None:
    """The stored input is the whole result: writing it back gives the same data."""
    path = SNAPSHOTS / f"{name}.input.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    again = result_to_data(result_from_data(data))
    assert json.dumps(again, sort_keys=True) == json.dumps(data, sort_keys=True)
    assert any(f["link_in_file"] is not None for f in data["findings"]) or name != "sdf_examples"


# ---------------------------------------------------------------------------------------------
# Recording (run from the commit the snapshots stand for)


def _hostile() -> AuditResult:
    """Names and messages a pull request chooses, settings files, grouping links."""
    odd = "m\x1bdl\u202e::l\x9bnk\n2"
    findings = [
        Finding("GZI150", "info", f"models/{odd}/model.sdf", 12 + i, f"auv::fin_{i}",
                f"link auv::fin_{i} has no <inertial>: Gazebo uses 1 kg", {"m": 1.0},
                message_template="link {link} has no <inertial>: Gazebo uses 1 kg",
                message_args={"link": f"auv::fin_{i}"})
        for i in range(4)
    ]
    findings += [
        Finding("GZI101", "error", "models/a\u2066b.sdf", 3, odd, "mass\r\n::error::x %0A",
                {"m": -math.inf, "s": "NaN", "v": [math.nan, 1.5e-300, -0.0]}),
        Finding("GZI201", "warning", "models/a\u2066b.sdf", 0, None, "file-level\u2028note", {}),
        Finding("GZI204", "warning", "/abs/outside/x y.sdf", 7, "m::l", "about <Bo> & \"CoM\"",
                {"A_BBo_B": [[1.0, 0.0], [0.0, 2.0]]}, link_in_file="l"),
    ]
    files = (
        FileStatus(f"models/{odd}/model.sdf", "ok"),
        FileStatus("models/a\u2066b.sdf", "ok"),
        FileStatus("bad\udcff.sdf", "error", "not XML: line 2, column 1: junk \x07", "bad.xacro",
                   4),
        FileStatus("skip.sdf", "skipped", "excluded by 'skip*' in pyproject.toml"),
        FileStatus("/abs/outside/x y.sdf", "ok"),
    )
    settings = (
        SettingsUse("pyproject.toml", ("models/a\u2066b.sdf",), {"density": 1025.0,
                    "select": ["GZI1", "GZI2"], "per-file-ignores": {"x\x1b": ["GZI150"]}},
                    ("GZI150", "GZI301"), ()),
        SettingsUse("sub/.gzinertia.toml", (f"models/{odd}/model.sdf",), {"ignore": ["ALL"]},
                    tuple(sorted(RULE_INFOS)), (f"models/{odd}/model.sdf",)),
    )
    return AuditResult(files, tuple(findings), settings)


def _record() -> None:  # pragma: no cover (run by hand)
    import os

    from test_audit_formats import example

    from gzinertia.audit.config import with_overrides
    from gzinertia.audit.projects import audit_projects

    repo = Path(__file__).resolve().parents[1]
    os.chdir(repo)
    examples, _ = audit_projects(["sdf_examples"], config_file=None, isolated=True,
                                 known_codes=frozenset(RULE_INFOS), overrides=with_overrides)
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for name, result in (("sdf_examples", examples), ("formats", example()),
                         ("hostile", _hostile())):
        (SNAPSHOTS / f"{name}.input.json").write_text(
            json.dumps(result_to_data(result), indent=1, ensure_ascii=True) + "\n",
            encoding="utf-8")
        for fmt in FORMATS:
            _snapshot(name, fmt).write_bytes(_render(_input(name), fmt).encode("utf-8"))


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--record"]:
        _record()
