"""SARIF rules carry a ``helpUri`` to their page ``docs/rules/CODE.md`` (issue 10).

The base is ``--docs-url``, else ``$GZINERTIA_DOCS_URL`` (the GitHub Action sets it to its own
repository and ref), else the docs next to the code (a checkout). Oracles: the SARIF 2.1.0
schema, and the page each ``helpUri`` names exists and is that rule's page.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

import jsonschema
import pytest
import yaml
from conftest import EXAMPLES, REPO, run_cli

from gzinertia.audit.catalogue import RULE_INFOS

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
MODEL = EXAMPLES / "defects" / "added_mass_about_com"


def _rules(args: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    status, out, err = run_cli(["audit", str(MODEL), "--format", "sarif", "--no-cache", *args],
                               capsys)
    assert status == 0, err
    log = json.loads(out)
    jsonschema.validate(log, SCHEMA)
    return log["runs"][0]["tool"]["driver"]["rules"]  # type: ignore[no-any-return]


def test_every_rule_links_to_its_page_in_this_checkout(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GZINERTIA_DOCS_URL", raising=False)
    rules = _rules([], capsys)
    assert [r["id"] for r in rules] == sorted(RULE_INFOS)
    for rule in rules:
        uri = urlsplit(str(rule["helpUri"]))
        assert uri.scheme == "file"
        page = Path(url2pathname(uri.path))
        assert page == REPO / "docs" / "rules" / f"{rule['id']}.md"
        assert page.read_text(encoding="utf-8").startswith(f"# {rule['id']}")


@pytest.mark.parametrize("how", ["option", "env"])
def test_a_configured_base_is_used(
    how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = "https://github.com/owner/gzinertia/blob/v0.1.0"  # no trailing slash: added
    monkeypatch.delenv("GZINERTIA_DOCS_URL", raising=False)
    if how == "env":
        monkeypatch.setenv("GZINERTIA_DOCS_URL", base)
    rules = _rules(["--docs-url", base] if how == "option" else [], capsys)
    for rule in rules:
        assert rule["helpUri"] == f"{base}/docs/rules/{rule['id']}.md"


def test_a_relative_base_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["audit", str(MODEL), "--format", "sarif", "--docs-url", "docs/"],
                             capsys)
    assert status == 2 and "--docs-url must be an absolute URL" in err


def test_the_action_points_help_at_its_own_repository_and_ref() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "audit")
    value = step["env"]["GZINERTIA_DOCS_URL"]
    for part in ("github.server_url", "github.action_repository", "github.action_ref", "/blob/"):
        assert part in value
