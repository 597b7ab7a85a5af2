"""``gzinertia.audit_paths()`` never reports an unreadable input as clean (issue 25 item 4).

A path that does not exist, malformed SDF and a xacro file whose ``$(find)`` fails each come
back as a ``GZI001`` finding of severity error naming the file (and the line where there is
one), with the same one line the CLI prints for it; the CLI still exits 2 on them. Both stand
on the same library call, so they agree file by file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import EXAMPLES, run_cli

import gzinertia

#: A model whose XML stops in the middle of line 3 (the line the parser names).
TRUNCATED_SDF = '<?xml version="1.0"?>\n<sdf version="1.10">\n  <model name="m"><link name="a">\n'
MISSING_PACKAGE_XACRO = (
    '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
    '  <link name="hull"/>\n'
    '  <xacro:include filename="$(find no_such_package)/urdf/parts.xacro"/>\n'
    "</robot>\n"
)


def _unreadable_cases(tmp_path: Path) -> dict[str, tuple[Path, int | None]]:
    """Each unreadable input and the line its error must name (``None``: no line)."""
    sdf = tmp_path / "broken.sdf"
    sdf.write_text(TRUNCATED_SDF, encoding="utf-8")
    xacro = tmp_path / "robot.urdf.xacro"
    xacro.write_text(MISSING_PACKAGE_XACRO, encoding="utf-8")
    return {
        "missing": (tmp_path / "no_such_model.sdf", None),
        "malformed": (sdf, None),  # the parser names the line: checked against the CLI
        "find fails": (xacro, 3),
    }


@pytest.mark.parametrize("case", ["missing", "malformed", "find fails"])
def test_an_unreadable_input_is_a_gzi001_error_finding_with_the_clis_line(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, line = _unreadable_cases(tmp_path)[case]
    monkeypatch.chdir(tmp_path)
    found = gzinertia.audit_paths(path)
    assert len(found) == 1, found
    (finding,) = found
    assert finding.code == "GZI001" and finding.severity == "error"
    assert finding.file == str(path) and finding.link is None
    if line is not None:
        assert finding.line == line
    # the CLI exits 2 on the same file, and says the same thing about it
    status, out, _ = run_cli(["audit", str(path), "--format", "json", "--no-cache"], capsys)
    assert status == 2
    (file_status,) = json.loads(out)["files"]
    assert file_status["status"] == "error"
    assert finding.message == file_status["message"]
    if finding.line:
        assert f"{path.name}:{finding.line}:" in finding.message


def test_unreadable_inputs_are_kept_whatever_codes_are_asked_for(tmp_path: Path) -> None:
    """``codes`` chooses among the rules' findings; a file that could not be read is never
    filtered away (a script asking for GZI201 alone must not see a broken model as clean)."""
    cases = _unreadable_cases(tmp_path)
    found = gzinertia.audit_paths(*(p for p, _ in cases.values()), codes=["GZI201"])
    assert sorted(f.file for f in found) == sorted(str(p) for p, _ in cases.values())
    assert {f.code for f in found} == {"GZI001"}


def test_readable_files_beside_an_unreadable_one_are_still_audited(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sdf"
    defects = EXAMPLES / "defects"
    alone = gzinertia.audit_paths(defects, model_paths=[EXAMPLES])
    together = gzinertia.audit_paths(defects, missing, model_paths=[EXAMPLES])
    assert [f for f in together if f.file != str(missing)] == alone
    assert [f.code for f in together if f.file == str(missing)] == ["GZI001"]


def test_a_clean_file_gives_no_finding(tmp_path: Path) -> None:
    """The twin: a readable model without defects is still an empty list."""
    assert gzinertia.audit_paths(EXAMPLES / "harbour_world.sdf", model_paths=[EXAMPLES]) == []
