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
#: Allowed growth of memory at its peak from n to 4n links: it comes in the steps of Python's
#: allocator and its lists' and dicts' growth (4.0 to 4.12 linear here; quadratic gave 6.5).
MEMORY_GROWTH = 4.25


def _growth(write: Callable[[int], Path], run: Callable[[Path], object]) -> tuple[int, int]:
    """Lines run on ``N`` and ``4N`` links (after a first, uncounted run of each: imports and
    caches)."""
    counts = []
    for links in (N, 4 * N):
        path = write(links)
        run(path)
        counts.append(lines_run(lambda p=path: run(p)))  # type: ignore[misc]
    return counts[0], counts[1]


def _assert_linear(
    what: str,
    counts: tuple[int, int],
    unit: str = "lines",
    sizes: tuple[int, int] | None = None,
    links: tuple[int, int] = (N, 4 * N),
    limit: float = LINEAR_GROWTH,
) -> None:
    """``counts`` on ``links`` (``N`` and ``4N``) grow at most ``limit`` times, or as much
    more as the input does when its ``sizes`` (bytes) grow more than 4 times (longer
    names)."""
    growth = counts[1] / counts[0]
    allowed = limit * (1.0 if sizes is None else max(1.0, sizes[1] / sizes[0] / 4))
    assert growth <= allowed, (
        f"{what}: {counts[0]} {unit} for {links[0]} links, {counts[1]} for {links[1]} "
        f"(x{growth:.2f}, linear is at most x{allowed / limit * 4:.2f})"
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
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_grows_linearly(
    command: str, suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a comb (a spine of revolute joints, a leaf lumped into each spine link, some of them
    massless or kept by ``<preserveFixedJoint>``), invalid inertias and plugins. The commands
    run in ``tmp_path``, so their outputs (``-o OUT``) never land in the checkout."""
    monkeypatch.chdir(tmp_path)
    xacro = suffix != ".urdf"

    def write(links: int) -> Path:
        path = tmp_path / f"r{links}{suffix}"
        path.write_text(
            large_urdf(links, "comb", massless=True, invalid=True, plugins=True, xacro=xacro)
        )
        return path

    _assert_linear(f"{command} ({suffix})", _growth(write, _cli(*COMMANDS[command])))


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
    import gzinertia.edit.urdf_addmass as addmass

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
    from gzinertia.edit.urdf_addmass import _literal_link, _LiteralLinks

    text = "".join(fragments)
    index = _LiteralLinks(text)
    for name in ["".join(parts) for parts in names]:
        assert (name in index) == _literal_link(text, name), (text, name)


def _column(links: int, rng_seed: int = 0, spread: float = 0.0) -> list[tuple[object, object]]:
    """Fluid ellipsoids of ``links`` links stacked along z, 1 m apart (x and y the same, unless
    ``spread``), one to three per link, semi-axes of 0.05 to 0.6 m: the layout of a mast or a
    chain hanging down, where a sweep along x met every pair."""
    import numpy as np

    from gzinertia.physics.ellipsoid import PosedEllipsoid
    from gzinertia.spatial.rotation import Pose

    rng = np.random.default_rng(rng_seed)
    members: list[tuple[object, object]] = []
    for k in range(links):
        ctx = object()  # a link: only its identity matters to the pairing
        for _ in range(int(rng.integers(1, 4))):
            p = np.array([0.0, 0.0, float(k)]) + rng.uniform(-spread, spread, 3)
            semi_axes = rng.uniform(0.05, 0.6, 3)
            members.append((ctx, PosedEllipsoid(semi_axes, Pose(p))))
    return members


def test_fluid_ellipsoid_pairs_grow_linearly_in_a_column() -> None:
    """GZI210's candidate pairs of links stacked along z: a sweep along x compared every pair
    (x16 for 4 times the links)."""
    from gzinertia.checks.overlap import candidate_pairs

    counts = []
    for links in (N, 4 * N):
        members = _column(links)
        counts.append(lines_run(lambda m=members: list(candidate_pairs(m))))  # type: ignore[misc]
    _assert_linear("GZI210 candidate pairs (column)", (counts[0], counts[1]))


@pytest.mark.parametrize("spread", [0.0, 0.3, 3.0])
def test_fluid_ellipsoid_pairs_are_those_whose_spheres_meet(spread: float) -> None:
    """The oracle is every pair, compared directly: two ellipsoids of different links whose
    bounding spheres (radius: the largest semi-axis) meet, earlier link first, in the order a
    sweep along x meets them (by the later one's left edge x - r, then the earlier one's)."""
    import numpy as np

    from gzinertia.checks.overlap import candidate_pairs

    members = _column(60, rng_seed=int(10 * spread), spread=spread)
    radius = [float(max(e.semi_axes)) for _, e in members]  # type: ignore[attr-defined]
    x = [float(e.X_FE.p[0]) for _, e in members]  # type: ignore[attr-defined]
    order = sorted(range(len(members)), key=lambda k: x[k] - radius[k])
    pos = {k: i for i, k in enumerate(order)}
    rank: dict[int, int] = {}
    for ctx, _ in members:
        rank.setdefault(id(ctx), len(rank))
    expected = []
    for i in range(len(members)):
        for j in range(len(members)):
            (a_ctx, a), (b_ctx, b) = members[i], members[j]
            if pos[i] >= pos[j] or a_ctx is b_ctx:
                continue
            reach = radius[i] + radius[j]
            if float(np.sum((a.X_FE.p - b.X_FE.p) ** 2)) > reach * reach:  # type: ignore[attr-defined]
                continue
            first, second = (i, j) if rank[id(a_ctx)] < rank[id(b_ctx)] else (j, i)
            expected.append(((pos[j], pos[i]), first, second))
    expected.sort()
    got = [(id(a), id(b)) for _, a, _, b in candidate_pairs(members)]  # type: ignore[arg-type]
    want = [(id(members[f][1]), id(members[s][1])) for _, f, s in expected]
    assert want, "the layout has overlapping pairs"
    assert got == want


@given(
    st.lists(
        st.tuples(
            st.tuples(*[st.floats(-5.0, 5.0, allow_nan=False)] * 3),
            st.one_of(st.floats(0.0, 3.0), st.sampled_from([0.0, 1e-300, 0.25, 0.5, 1.0, 2.0])),
        ),
        max_size=40,
    ),
    st.sampled_from([1.0, 1e-3, 1e150]),
)
def test_near_pairs_hold_every_pair_of_spheres_that_meet(
    spheres: list[tuple[tuple[float, float, float], float]], scale: float
) -> None:
    """The oracle compares every pair: each pair of spheres closer than the sum of their radii
    is among the grid's pairs (radii of every size class, exact powers of two, zero, centres
    far out), and no pair comes twice."""
    import math

    from gzinertia.physics.sphere_grid import near_pairs

    centres = [tuple(scale * v for v in c) for c, _ in spheres]
    radii = [scale * r for _, r in spheres]
    pairs = near_pairs(centres, radii)
    assert len(pairs) == len(set(pairs)) and all(i < j for i, j in pairs)
    found = set(pairs)
    for i in range(len(spheres)):
        for j in range(i + 1, len(spheres)):
            if math.dist(centres[i], centres[j]) < radii[i] + radii[j]:
                assert (i, j) in found, (centres[i], radii[i], centres[j], radii[j])


class _CountingBytes(bytes):
    """A file's bytes that count how many of them the editor examines: the bytes ``find``,
    ``rfind`` and ``count`` scan, the length of each slice taken and each byte indexed (work
    done in C, where :func:`lines_run` does not see it)."""

    examined = 0

    def _bounds(self, start: int | None = None, end: int | None = None) -> tuple[int, int]:
        return slice(start, end).indices(len(self))[:2]

    def find(self, sub: bytes, *bounds: int) -> int:  # type: ignore[override]
        start, end = self._bounds(*bounds)
        at = super().find(sub, start, end)
        _CountingBytes.examined += (at + len(sub) - start) if at >= 0 else end - start
        return at

    def rfind(self, sub: bytes, *bounds: int) -> int:  # type: ignore[override]
        start, end = self._bounds(*bounds)
        at = super().rfind(sub, start, end)
        _CountingBytes.examined += (end - at) if at >= 0 else end - start
        return at

    def count(self, sub: bytes, *bounds: int) -> int:  # type: ignore[override]
        start, end = self._bounds(*bounds)
        _CountingBytes.examined += end - start
        return super().count(sub, start, end)

    def __getitem__(self, key: int | slice) -> int | bytes:  # type: ignore[override]
        got = super().__getitem__(key)
        _CountingBytes.examined += len(got) if isinstance(got, bytes) else 1
        return got


@pytest.mark.parametrize("newlines", [True, False], ids=["lines", "one-line"])
def test_editing_every_link_examines_bytes_linearly(newlines: bool) -> None:
    """The edits ``fix --move-com`` makes on a URDF (and ``addmass`` on SDF) at each link:
    indentation and line ends were found by scanning back to the line's start and copying it,
    the whole file for a file on one line (a generated or minified one)."""
    from lxml import etree

    from gzinertia.edit.editor import XmlEditor

    counts, sizes = [], []
    for links in (N, 4 * N):
        text = large_urdf(links, "comb").replace(
            '<origin xyz="0.01 0.02 0.03" rpy="0.1 0.2 0.3"/>', "")
        if not newlines:
            text = text.replace("\n", "")
        data = _CountingBytes(text.encode())
        sizes.append(len(data))
        editor = XmlEditor(data, "one.urdf")
        _CountingBytes.examined = 0
        for k, link in enumerate(editor.root.iter("link")):
            inertial, collision = link.find("inertial"), link.find("collision")
            assert isinstance(inertial, etree._Element) and isinstance(collision, etree._Element)
            editor.append_child_lines(inertial, ['<origin xyz="0 0 0" rpy="0 0 0"/>'])
            if k % 2:
                editor.replace_element(collision, ["<collision/>"])
            else:
                editor.remove_element(collision)
        editor.result()
        counts.append(_CountingBytes.examined)
    _assert_linear("editing every link", (counts[0], counts[1]), "bytes examined",
                   (sizes[0], sizes[1]))


@given(st.lists(st.sampled_from([b" ", b"\t", b"\r", b"\n", b"\x0b", b"\x0c", b"a", b"<"]),
                max_size=12), st.integers(0, 12))
def test_line_ends_agree_with_the_scans_they_replace(parts: list[bytes], pos: int) -> None:
    """The oracles are the scans the editor made before (back to the previous newline, forward
    to the next, and ``bytes.strip`` of what lies between)."""
    from gzinertia.edit.spans import blank_line_end, blank_line_start, indentation_at

    data = b"".join(parts)
    pos = min(pos, len(data))
    start = data.rfind(b"\n", 0, pos) + 1
    head = data[start:pos]
    assert indentation_at(data, pos) == (head if not head.strip() else b"")
    assert blank_line_start(data, pos) == (None if head.strip() else start)
    nl = data.find(b"\n", pos)
    if nl < 0:
        through = pos if data[pos:].strip() else len(data)
    else:
        through = nl + 1 if not data[pos:nl].strip() else pos
    end = blank_line_end(data, pos)
    assert (pos if end is None else end) == through


def test_xacro_expansion_compares_children_linearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """xacro replaces each macro call by what it makes through minidom's ``insertBefore`` and
    ``removeChild``, which find the call among its siblings by comparing them one by one from
    the first: expanding a robot of k macro calls compared k² nodes. The count is of those
    comparisons (``Node.__eq__``, identity as minidom's own), made in this process."""
    import re
    from xml.dom import minidom

    from gzinertia.urdf.xacro_child import expand_annotated

    compared = [0]

    def eq(self: object, other: object) -> bool:
        compared[0] += 1
        return self is other

    monkeypatch.setattr(minidom.Node, "__eq__", eq, raising=False)
    counts = []
    for links in (N, 4 * N):
        text = large_urdf(links, "chain", xacro=True)
        text = re.sub(r'<link name="(l\d+)">.*</link>', r'<xacro:made name="\1"/>', text)
        path = tmp_path / f"calls{links}.urdf.xacro"
        path.write_text(text)
        compared[0] = 0
        expand_annotated(path)
        counts.append(compared[0])
    _assert_linear("xacro expansion (every link a macro call)", (counts[0], counts[1]),
                   "nodes compared")


def _gimbal_chain(links: int) -> bytes:
    """A chain of fixed joints, each turned by a pitch of 90°, which libsdformat lumps wrongly
    (GZI403 names every one of them on the one link they are lumped into)."""
    inertial = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                'izz="1"/></inertial>')
    lines = ['<robot name="g">', *(f'<link name="l{k}">{inertial}</link>' for k in range(links))]
    lines += [f'<joint name="j{k}" type="fixed"><parent link="l{k - 1}"/><child link="l{k}"/>'
              '<origin xyz="0.1 0 0" rpy="0 1.5707963 0"/></joint>' for k in range(1, links)]
    return "\n".join([*lines, "</robot>"]).encode()


def test_lumping_a_chain_of_gimbal_locked_joints_holds_linear_memory() -> None:
    """Each link of the chain held the list of every rotation below it: memory quadratic in
    the links (20,000 would take about 2 GB). The measure is the peak of the memory Python
    allocates while reading (``tracemalloc``: a count of bytes, not a time)."""
    import tracemalloc

    from gzinertia.urdf import read_urdf_bytes

    peaks, sizes = [], []
    for links in (8 * N, 32 * N):
        data = _gimbal_chain(links)
        read_urdf_bytes(data, "g.urdf")  # imports and caches
        tracemalloc.start()
        try:
            doc = read_urdf_bytes(data, "g.urdf")
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert any(n.code == "urdf-lumping-gimbal" for n in doc.notes)
        sizes.append(len(data))
    _assert_linear("lumping a gimbal-locked chain", (peaks[0], peaks[1]), "bytes at peak",
                   (sizes[0], sizes[1]), (8 * N, 32 * N), MEMORY_GROWTH)
