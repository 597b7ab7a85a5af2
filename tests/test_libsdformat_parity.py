"""Where libsdformat's Python module is installed, our reader agrees with it on every example."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES, rel_err

from gzinertia.sdf import read_sdf_file
from gzinertia.sdf.libsdformat import find_module, read_with_libsdformat

# libsdformat's Python module (sdformat13, 14, ...) is the oracle: found by the reader's own lookup
pytestmark = [
    pytest.mark.oracle,
    pytest.mark.skipif(find_module() is None, reason="no libsdformat Python module"),
]


@pytest.mark.parametrize("path", sorted(EXAMPLES.rglob("*.sdf")), ids=lambda p: p.name)
def test_poses_and_inertias_match_libsdformat(path) -> None:  # type: ignore[no-untyped-def]
    ours = read_sdf_file(path, [EXAMPLES])
    theirs = read_with_libsdformat(path, [EXAMPLES])
    assert [link.name for link in ours.links] == [link.name for link in theirs.links]
    for a, b in zip(ours.links, theirs.links, strict=True):
        assert rel_err(a.X_WB.matrix(), b.X_WB.matrix()) < 1e-12
        assert rel_err(a.M_BBo_B.angular_first(), b.M_BBo_B.angular_first()) < 1e-12
