"""``docs/catalogue.md`` and ``docs/compare.md`` as written: their Python examples run, and the
command outputs they show (between ``<!-- gzinertia ARGS -->`` and the end of the block) are
what the commands print today (no typed-in results)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from gzinertia import catalogue

PAGES = [REPO / "docs" / "catalogue.md", REPO / "docs" / "compare.md"]
#: ``<!-- gzinertia ARGS -->`` then the output: a Markdown table up to ``<!-- end -->``, or a
#: ```text block.
SHOWN = re.compile(r"<!-- gzinertia (?P<args>[^>]*?) -->\n(?:```text\n(?P<block>.*?)```|"
                   r"(?P<table>.*?)<!-- end -->)", re.S)


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    blocks = _python_blocks(page.read_text(encoding="utf-8"))
    assert blocks
    namespace: dict[str, object] = {"__name__": "docs_example"}
    for number, block in enumerate(blocks, start=1):
        exec(compile(block, f"{page.name} block {number}", "exec"), namespace)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_outputs_shown_are_the_commands(page: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(REPO)
    shown = list(SHOWN.finditer(page.read_text(encoding="utf-8")))
    assert shown
    for found in shown:
        status, out, err = run_cli(shlex.split(found["args"]), capsys)
        assert status == 0, err
        expected = found["block"] if found["block"] is not None else found["table"]
        assert out.strip() == expected.strip(), found["args"]


def test_every_entry_has_its_section() -> None:
    text = (REPO / "docs" / "catalogue.md").read_text(encoding="utf-8")
    headings = "\n".join(line for line in text.splitlines() if line.startswith("### "))
    for entry in catalogue.entries():
        assert entry.id in headings, entry.id
