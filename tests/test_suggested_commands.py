"""Commands that messages suggest can be pasted into a shell as they are (issue 10).

Oracles: a POSIX shell (bash) splits the suggested command back into the arguments meant, the
``--link`` glob selects exactly the link the finding is about, and the suggested fix, run on a
model whose folder, model and link names hold spaces, brackets and glob characters, removes
the finding.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli

from gzinertia.selection import link_matches
from gzinertia.shell import command_line, exact_link_pattern, shell_quote

DEFECTS = EXAMPLES / "defects"
HOSTILE_WORDS = ["Big box::link", "it's", "a b\tc", "$(touch x)", "*", "new\nline", "back\\slash",
                 "ü ß", "-o", ""]


@pytest.mark.parametrize("word", HOSTILE_WORDS)
def test_bash_reads_back_each_quoted_argument(word: str) -> None:
    out = subprocess.run(
        ["bash", "-c", "printf '%s' " + shell_quote(word)], capture_output=True, check=True
    ).stdout
    assert out.decode("utf-8") == word
    assert "\n" not in shell_quote(word)  # the command stays on one line


def test_a_glob_escaped_link_name_matches_itself_only() -> None:
    names = ["m::hull [1]*", "m::hull [1]x", "m::hull 1", "m::hull?", "m::hullx", "m::hull"]
    for name in names:
        assert [n for n in names if link_matches(n, exact_link_pattern(name))] == [name]


def test_command_line_is_gzinertia_and_the_arguments() -> None:
    argv = ["shift", "my models/a b.sdf", "--link", "Big box::link"]
    assert shlex.split(command_line(*argv)) == ["gzinertia", *argv]


def _hostile_copy(folder: str, tmp_path: Path) -> tuple[Path, str]:
    """The defect's model under a folder with spaces and brackets, its model named 'Big box' and
    its link renamed with a space, brackets and a glob star. Returns (file, scoped link name)."""
    target = tmp_path / "my models [v2]" / folder
    shutil.copytree(DEFECTS / folder, target)
    path = target / "model.sdf"
    text = path.read_text(encoding="utf-8")
    (link,) = re.findall(r'<link name="([^"]+)">', text)
    new_link = f"{link} [1]*"
    text = text.replace(f'<model name="{folder}">', '<model name="Big box">')
    text = text.replace(f'<link name="{link}">', f'<link name="{new_link}">')
    text = text.replace(f"<link_name>{link}</link_name>", f"<link_name>{new_link}</link_name>")
    path.write_text(text, encoding="utf-8")
    return path, f"Big box::{new_link}"


@pytest.mark.parametrize(
    "folder, code",
    [
        ("added_mass_about_com", "GZI204"),
        ("double_counted_added_mass", "GZI205"),
        ("positive_idotj", "GZI208"),
    ],
)
def test_suggested_commands_work_on_names_with_spaces_and_globs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str, code: str
) -> None:
    path, link = _hostile_copy(folder, tmp_path)
    status, out, err = run_cli(["audit", str(path), "--format", "json", "--select", code], capsys)
    (finding,) = json.loads(out)["findings"]
    assert finding["link"] == link, err
    commands = re.findall(r"`(gzinertia [^`]+)`", finding["message"])
    assert commands, finding["message"]
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "gzinertia" and argv[2] == str(path), command
        if "--link" in argv:
            pattern = argv[argv.index("--link") + 1]
            assert link_matches(link, pattern) and not link_matches(f"{link}x", pattern)
    fix = shlex.split(commands[0])[1:]
    status, _, err = run_cli([*fix, "--in-place"], capsys)
    assert status == 0, err
    _, out, _ = run_cli(["audit", str(path), "--format", "json"], capsys)
    assert code not in {f["code"] for f in json.loads(out)["findings"]}


def test_the_plot_hint_of_show_is_quoted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _hostile_copy("added_mass_about_com", tmp_path)
    status, out, err = run_cli(["show", str(path), "--link", "Big box::*"], capsys)
    assert status == 0, err
    (hint,) = [line for line in out.splitlines() if "gzinertia plot" in line]
    argv = shlex.split(hint.split(": ", 1)[1])
    assert argv == ["gzinertia", "plot", str(path), "--link", "Big box::*", "-o", "links.png"]
