"""A package face that imports its implementation on first use: :func:`face_getattr` makes the
module ``__getattr__`` (PEP 562) of a package whose public names live in one submodule, so that
importing the package (or a light submodule of it) does not import that submodule and what it
imports (NumPy, the readers).

Floor: the words (imports only the standard library); imported by the package faces of every
floor.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection
from typing import Any

__all__ = ["face_getattr", "lazy_submodules", "names_and_submodules"]


def face_getattr(package: str, module: str, names: Collection[str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each of ``names`` read from ``module`` (a dotted
    module name), imported when one of them is first asked for; any other name an
    :class:`AttributeError`, as for a module without it."""

    def attribute(name: str) -> Any:
        if name in names:
            return getattr(importlib.import_module(module), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute


def lazy_submodules(package: str, names: Collection[str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package`` whose submodules ``names`` are imported at their first
    use: ``package.name`` (an attribute read, ``package.name.function(...)``) imports
    ``package.name``; any other name an :class:`AttributeError`, as for a module without it.
    The caller imports ``package`` at its top and, for the type checker, ``package.name``
    under ``if TYPE_CHECKING:``."""

    def attribute(name: str) -> Any:
        if name in names:
            return importlib.import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute


def names_and_submodules(
    package: str, module: str, names: Collection[str], submodules: Collection[str]
) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package`` that serves both: each of ``names`` read from
    ``module`` (:func:`face_getattr`), each of ``submodules`` imported as ``package.name``
    (:func:`lazy_submodules`), on first use. A module inside ``package`` that ``module``
    imports cannot use it (``package`` imports ``module`` for the type checker: a circle in the
    import graph); one outside it can."""
    name_of = face_getattr(package, module, names)
    submodule_of = lazy_submodules(package, submodules)

    def attribute(name: str) -> Any:
        return submodule_of(name) if name in submodules else name_of(name)

    return attribute
