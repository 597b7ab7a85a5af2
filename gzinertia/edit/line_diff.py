"""A unified diff of two versions of a file in time linear in their length (for ``--diff``).

``difflib.unified_diff`` matches lines with ``SequenceMatcher``, whose search for the longest
common block is quadratic when many lines repeat, as the 21 entries of every
``<fluid_added_mass>`` do: ``addmass --diff`` on 3,000 links took 30 s in the diff alone. Here
lines are first matched the way "patience diff" does: the lines that occur exactly once in each
version and in the same order (a longest increasing subsequence, O(k log k)) are anchors, and
``SequenceMatcher`` only aligns the short stretches between consecutive anchors. A stretch too
long to align cheaply is shown as removed and added whole, which is still a correct diff. The
output format is ``difflib.unified_diff``'s.
"""

from __future__ import annotations

import bisect
import difflib
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

Opcode = tuple[str, int, int, int, int]

#: Stretches between anchors are aligned by ``SequenceMatcher`` when ``len(a)·len(b)`` is at
#: most this (its cost grows with that product); longer ones are replaced whole.
MAX_ALIGNED_PRODUCT = 250_000


def _anchors(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """``(i, j)`` pairs with ``a[i] == b[j]``, each line unique in both, increasing in i and j
    (the longest such chain)."""
    count_a, count_b = Counter(a), Counter(b)
    where_b = {line: j for j, line in enumerate(b) if count_b[line] == 1}
    pairs = [
        (i, where_b[line]) for i, line in enumerate(a) if count_a[line] == 1 and line in where_b
    ]
    # Longest increasing subsequence of the j's (patience sorting).
    tails: list[int] = []  # tails[k]: the smallest j ending a chain of length k + 1
    tail_index: list[int] = []  # index in pairs of that j
    previous = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_index.append(n)
        else:
            tails[k] = j
            tail_index[k] = n
        previous[n] = tail_index[k - 1] if k else -1
    chain = []
    n = tail_index[-1] if tail_index else -1
    while n >= 0:
        chain.append(pairs[n])
        n = previous[n]
    return chain[::-1]


def _stretch(
    a: Sequence[str], b: Sequence[str], i1: int, i2: int, j1: int, j2: int
) -> list[Opcode]:
    if i1 == i2 and j1 == j2:
        return []
    if i1 == i2:
        return [("insert", i1, i2, j1, j2)]
    if j1 == j2:
        return [("delete", i1, i2, j1, j2)]
    if (i2 - i1) * (j2 - j1) > MAX_ALIGNED_PRODUCT:
        return [("replace", i1, i2, j1, j2)]
    matcher = difflib.SequenceMatcher(None, a[i1:i2], b[j1:j2], autojunk=False)
    return [
        (tag, i1 + p1, i1 + p2, j1 + q1, j1 + q2) for tag, p1, p2, q1, q2 in matcher.get_opcodes()
    ]


def line_opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """Opcodes turning ``a`` into ``b``, as ``SequenceMatcher.get_opcodes`` gives them."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a, end_b = end_a - 1, end_b - 1
    ops: list[Opcode] = []

    def add(op: Opcode) -> None:
        if op[1] == op[2] and op[3] == op[4]:
            return
        if ops and op[0] == "equal" and ops[-1][0] == "equal":
            ops[-1] = ("equal", ops[-1][1], op[2], ops[-1][3], op[4])
        else:
            ops.append(op)

    add(("equal", 0, start, 0, start))
    i, j = start, start
    for ai, bj in _anchors(a[start:end_a], b[start:end_b]):
        ai, bj = ai + start, bj + start
        for op in _stretch(a, b, i, ai, j, bj):
            add(op)
        add(("equal", ai, ai + 1, bj, bj + 1))
        i, j = ai + 1, bj + 1
    for op in _stretch(a, b, i, end_a, j, end_b):
        add(op)
    add(("equal", end_a, len(a), end_b, len(b)))
    return ops


def _grouped(codes: list[Opcode], n: int) -> Iterator[list[Opcode]]:
    """``SequenceMatcher.get_grouped_opcodes`` on these opcodes."""
    if not codes:
        codes = [("equal", 0, 1, 0, 1)]
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)
    group: list[Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * n:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group


def _range(start: int, stop: int) -> str:
    """A hunk range as ``difflib.unified_diff`` writes it."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return str(beginning)
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def unified_diff(
    a: Sequence[str], b: Sequence[str], fromfile: str, tofile: str, n: int = 3
) -> Iterator[str]:
    """``difflib.unified_diff(a, b, fromfile, tofile, n=n)``'s format, in linear time."""
    started = False
    for group in _grouped(line_opcodes(a, b), n):
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in a[i1:i2])
                continue
            if tag in ("replace", "delete"):
                yield from ("-" + line for line in a[i1:i2])
            if tag in ("replace", "insert"):
                yield from ("+" + line for line in b[j1:j2])


def file_diff(path: Path, old: bytes, new: bytes) -> str:
    """A unified diff of a file's bytes ``old`` and ``new`` (decoded as UTF-8, undecodable bytes
    replaced), named ``path`` (``a/``, ``b/`` prefixes for a relative path); every line ends
    with a line break."""
    a = old.decode("utf-8", errors="replace").splitlines(keepends=True)
    b = new.decode("utf-8", errors="replace").splitlines(keepends=True)
    absolute = path.is_absolute()
    old_name, new_name = (str(path), str(path)) if absolute else (f"a/{path}", f"b/{path}")
    lines = unified_diff(a, b, old_name, new_name)  # difflib's format, linear time
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
