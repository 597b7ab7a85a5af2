"""Every command does work linear in the number of links of a URDF or xacro file (issue 23,
item 10): a guard that counts, not times.

As :mod:`test_scaling_counts` does for SDFormat, these tests count the lines of gzinertia's own
modules that run (:func:`test_scaling_counts.lines_run`, deterministic for a given input) on a
robot of ``n`` links and of ``4n`` (:func:`urdfgen.large_urdf`: chains, stars and combs of
fixed and revolute joints, so that lumping has work) and require the count to grow at most
about 4 times. A link record that scanned every joint, an edit that looked each link up by
searching the whole text, or a lumped link's shapes found by scanning every dropped link made
the count grow 4.4 to 16 times. Time is measured by ``benchmarks/bench_urdf.py --commands``.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_scaling_counts import LINEAR_GROWTH, lines_run
from urdfgen import TOPOLOGIES, large_urdf

#: Links of the smaller robot; the larger has 4 times as many.
N = 32


def _growth(write: Callable[[int], Path], run: Callable[[Path], object]) -> tuple[int, int]:
    """Lines run on ``N`` and ``4N`` links (after a first, uncounted run of each: imports and
    caches)."""
    counts = []
    for links in (N, 4 * N):
        path = write(links)
        run(path)
        counts.append(lines_run(lambda p=path: run(p)))  # type: ignore[misc]
    return counts[0], counts[1]


def _assert_linear(what: str, counts: tuple[int, int], unit: str = "lines") -> None:
    growth = counts[1] / counts[0]
    assert growth <= LINEAR_GROWTH, (
        f"{what}: {counts[0]} {unit} for {N} links, {counts[1]} for {4 * N} "
        f"(x{growth:.2f}, linear is at most x4)"
    )


@pytest.mark.parametrize("topology", TOPOLOGIES)
@pytest.mark.parametrize("mode", ["lumped", "legacy", "unlumped"])
def test_reading_and_lumping_grow_linearly(topology: str, mode: str, tmp_path: Path) -> None:
    from gzinertia.urdf import read_urdf_file

    def write(links: int) -> Path:
        path = tmp_path / f"r{links}.urdf"
        path.write_text(large_urdf(links, topology, massless=True, plugins=True))
        return path

    def read(path: Path) -> object:
        return read_urdf_file(path, lump=mode != "unlumped", legacy=mode == "legacy")

    _assert_linear(f"read ({topology}, {mode})", _growth(write, read))


def _cli(*args: str) -> Callable[[Path], object]:
    """The command line run in this process on the file (``{}`` in ``args``), output
    discarded; its exit status (0, or 1 for findings)."""

    def run(path: Path) -> object:
        from gzinertia.cli import main

        argv = [a.replace("{}", str(path)) for a in args]
        out = path.with_name("out" + "".join(path.suffixes))
        argv = [str(out) if a == "OUT" else a for a in argv]
        saved = sys.argv
        sys.argv = ["gzinertia", *argv]
        status: object = 0
        try:
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                main()
        except SystemExit as exc:
            status = exc.code
        finally:
            sys.argv = saved
        assert status in (0, 1, None), f"gzinertia {' '.join(argv)}: {err.getvalue()}"
        return status

    return run


#: The commands that read URDF and xacro, as a user runs them (``{}``: the file).
COMMANDS: dict[str, tuple[str, ...]] = {
    "show": ("show", "{}"),
    "show --json": ("show", "--json", "{}"),
    "audit": ("audit", "--no-cache", "--jobs", "1", "{}"),
    "audit --fix": ("audit", "--fix", "--no-cache", "--jobs", "1", "{}"),
    "addmass": ("addmass", "--ellipsoid", "{}", "-o", "OUT"),
    "fix": ("fix", "--all-links", "{}", "-o", "OUT"),
    "hydrostatics": ("hydrostatics", "{}"),
    "plot": ("plot", "{}", "-o", "OUT.png"),
}


@pytest.mark.parametrize("suffix", [".urdf", ".urdf.xacro"])
@pytest.mark.parametrize("topology", ["chain", "comb"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_grows_linearly(
    command: str, topology: str, suffix: str, tmp_path: Path
) -> None:
    xacro = suffix != ".urdf"

    def write(links: int) -> Path:
        path = tmp_path / f"r{links}{suffix}"
        path.write_text(
            large_urdf(links, topology, massless=True, invalid=True, plugins=True, xacro=xacro)
        )
        return path

    _assert_linear(f"{command} ({topology}, {suffix})", _growth(write, _cli(*COMMANDS[command])))


class _CountingRe:
    """The ``re`` module as a module of gzinertia sees it, counting the characters of text its
    functions are handed (the work of the regular-expression engine, which runs in C where
    :func:`lines_run` does not see it)."""

    def __init__(self) -> None:
        import re

        self._re = re
        self.characters = 0

    def __getattr__(self, name: str) -> object:
        function = getattr(self._re, name)
        if name not in ("search", "match", "fullmatch", "finditer", "findall", "sub", "split"):
            return function

        def counted(pattern: object, string: str, *args: object, **kwargs: object) -> object:
            self.characters += len(string)
            return function(pattern, string, *args, **kwargs)

        return counted


def test_addmass_on_xacro_scans_the_text_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether each link is written literally in the xacro file was a search of the whole text
    per link: characters handed to the regex engine grew 16 times for 4 times the links."""
    import gzinertia.urdf.addmass as addmass

    counted = []
    for links in (N, 4 * N):
        path = tmp_path / f"r{links}.urdf.xacro"
        path.write_text(large_urdf(links, "comb", plugins=True, xacro=True))
        counter = _CountingRe()
        monkeypatch.setattr(addmass, "re", counter)
        _cli("addmass", "--ellipsoid", "{}", "-o", "OUT")(path)
        counted.append(counter.characters)
    assert counted[0] > 0
    _assert_linear("addmass (xacro)", (counted[0], counted[1]), "characters searched")


_FRAGMENTS = ["<link", "<link ", "<link\n", "<links ", " ", "name", 'xname="', "=", " = ", '"',
              "'", ">", "a", "b", "l1", '<link name="', "name='", 'name = "', "/>"]
_NAME_PARTS = ["a", "b", " ", "l1", ">", "<link ", '"', "'"]


@given(
    st.lists(st.sampled_from(_FRAGMENTS), max_size=30),
    st.lists(st.lists(st.sampled_from(_NAME_PARTS), max_size=3), min_size=1, max_size=8),
)
@settings(max_examples=500)
def test_literal_links_agree_with_the_regex_search_they_replace(
    fragments: list[str], names: list[list[str]]
) -> None:
    """The one-pass index of link names written literally finds what the search of the whole
    text for each name (the oracle: the code it replaces) finds, on texts made of the marks
    it reads: tags, quotes of both kinds, ``>`` inside values, attributes ending in ``name``."""
    from gzinertia.urdf.addmass import _literal_link, _LiteralLinks

    text = "".join(fragments)
    index = _LiteralLinks(text)
    for name in ["".join(parts) for parts in names]:
        assert (name in index) == _literal_link(text, name), (text, name)
