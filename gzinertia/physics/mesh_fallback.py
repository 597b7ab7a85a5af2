"""The geometry pipeline's fallback for a mesh that cannot be closed (:mod:`gzinertia.physics.
mesh_body`): the choices, the block that sets one (:func:`hull_fallback`), and the phrases its
notes use, which the provenance comments write and read back. Here, apart from the pipeline
(trimesh, SciPy), so that what only names them (the comments, the settings, the commands'
``--hull``, the union of a link's shapes) imports neither.

Floor: physics (imports the vocabulary's hull choices and the standard library).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from gzinertia.vocabulary.hull import HULL_CHOICES, HullChoice

__all__ = ["HULL_CHOICES", "HULL_NOTE", "HULL_USED", "OVERLAP_NOTE", "WRAP_NOTE", "WRAP_USED",
           "HullChoice", "approximated", "current_hull", "hull_fallback"]


#: The words :attr:`MeshBody.note` uses for what is an approximation (:func:`approximated`).
HULL_NOTE = "convex hull"
OVERLAP_NOTE = "overlaps counted twice"
#: How the note opens when the convex hull stood in (read back from written comments).
HULL_USED = f"{HULL_NOTE} of a mesh that is not closed"
WRAP_NOTE = "closed wrap"
#: How the note opens when the wrap stood in (read back from written comments).
WRAP_USED = f"{WRAP_NOTE} of a mesh that is not closed"

_HULL: ContextVar[HullChoice] = ContextVar("gzinertia_hull_fallback", default="none")



def approximated(note: str | None) -> bool:
    """Whether a solid's note (:attr:`MeshBody.note`, or several joined) says it is an
    approximation (a convex hull, a wrap, overlaps counted twice), not the exact solid."""
    return bool(note) and any(words in str(note) for words in (HULL_NOTE, WRAP_NOTE,
                                                               OVERLAP_NOTE))


def current_hull() -> HullChoice:
    """The fallback in force (:func:`hull_fallback`; ``none`` outside any block)."""
    return _HULL.get()


@contextlib.contextmanager
def hull_fallback(choice: HullChoice) -> Iterator[None]:
    """A block within which a mesh that cannot be closed is replaced as ``choice`` says
    (``none``: refused)."""
    if choice not in HULL_CHOICES:
        raise ValueError(f"hull fallback {choice!r} is not one of {', '.join(HULL_CHOICES)}")
    token = _HULL.set(choice)
    try:
        yield
    finally:
        _HULL.reset(token)
