"""Every command's ``--help`` shows its help text as written: nothing between brackets is
taken for markup (``[tool.gzinertia]``, ``[v; ω]``, ``[x y z p q r]`` were eaten by rich)."""

from __future__ import annotations

import re

import pytest
import typer.main
from conftest import run_cli

from gzinertia.cli import app

_BRACKETED = re.compile(r"\[[^\[\]]+\]")
_FRAME = re.compile(r"[│╭╮╰╯─]")  # rich's panel borders, should any come back


def _flat(text: str) -> str:
    return " ".join(_FRAME.sub(" ", text).split())


def _help_sources() -> dict[str, list[str]]:
    group = typer.main.get_command(app)
    assert hasattr(group, "commands")
    out: dict[str, list[str]] = {}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        texts = [command.help or ""]
        texts += [getattr(p, "help", None) or "" for p in command.params]
        out[name] = texts
    return out


SOURCES = _help_sources()


def test_the_help_sources_hold_the_brackets_that_were_eaten() -> None:
    every = " ".join(" ".join(t) for t in SOURCES.values())
    assert "[tool.gzinertia]" in every and "[v; ω]" in every  # the test below would bite


@pytest.mark.parametrize("command", sorted(SOURCES))
def test_every_bracketed_text_of_the_help_is_shown(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli([command, "--help"], capsys)
    assert status == 0
    shown = _flat(out)
    wanted = [m for text in SOURCES[command] for m in _BRACKETED.findall(text)]
    missing = [w for w in wanted if _flat(w) not in shown]
    assert not missing, f"gzinertia {command} --help lost {missing}"
