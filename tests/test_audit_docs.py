"""Every rule's documentation page (``docs/rules/CODE.md``) has its sections, and its two
examples do what the page says: the one under "Triggers" raises the rule, the one under
"Does not trigger" does not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from audit_helpers import run
from conftest import REPO
from sdf_builders import write

from gzinertia.audit.rules import RULES

SECTIONS = ("## What", "## Why it matters in simulation", "## Triggers", "## Does not trigger",
            "## Fix", "## Suppress")


def _example(text: str, heading: str) -> tuple[str, str]:
    """The first ```xml block after ``heading`` and the prose between them."""
    section = text.split(heading, 1)[1]
    prose, rest = section.split("```xml\n", 1)
    return rest.split("\n```", 1)[0], prose


def _file_name(example: str) -> str:
    """URDF examples (GZI4xx) are written as ``model.urdf`` (``model.urdf.xacro`` when they
    declare xacro's namespace), the others as ``model.sdf``."""
    if not example.lstrip().startswith("<robot"):
        return "model.sdf"
    return "model.urdf.xacro" if "xmlns:xacro" in example else "model.urdf"


def _two_package_copies(folder: Path) -> list[str]:
    """GZI405's setting: ``uuv_descriptions`` under two package paths."""
    roots = []
    for root in ("a", "b"):
        package = folder / "packages" / root / "uuv_descriptions"
        (package / "meshes").mkdir(parents=True)
        (package / "package.xml").write_text("<package><name>uuv_descriptions</name></package>")
        roots.append(str(package.parent))
    return roots


#: The files a page's examples need beside them (the page says so), by code: the model paths.
_SETUPS = {"GZI405": _two_package_copies}


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_page_examples(code: str, tmp_path: Path) -> None:
    text = (REPO / "docs" / "rules" / f"{code}.md").read_text(encoding="utf-8")
    assert text.startswith(f"# {code} `{RULES[code].info.name}` ({RULES[code].info.severity})")
    for heading in SECTIONS:
        assert heading in text, f"{code}: no {heading!r}"
    trigger, _ = _example(text, "## Triggers")
    paths = _SETUPS[code](tmp_path) if code in _SETUPS else []
    found = run([write(tmp_path / "t", trigger, _file_name(trigger))], model_paths=paths).findings
    assert code in {f.code for f in found}, f"{code}: the triggering example does not trigger"
    twin, prose = _example(text, "## Does not trigger")
    if re.search(r"-m models/", prose):
        return  # needs files next to it (GZI001): covered by test_audit_rules
    found = run([write(tmp_path / "n", twin, _file_name(twin))], model_paths=paths).findings
    assert code not in {f.code for f in found}, f"{code}: the clean example triggers"
