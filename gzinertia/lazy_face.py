"""A package face that imports its implementation on first use: :func:`face_getattr` makes the
module ``__getattr__`` (PEP 562) of a package whose public names live in one submodule, so that
importing the package (or a light submodule of it) does not import that submodule and what it
imports (NumPy, the readers).

Floor: the words (imports only the standard library); imported by the package faces of every
floor.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from typing import Any

__all__ = ["face_getattr", "homes_getattr"]


def face_getattr(package: str, module: str, names: Collection[str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each of ``names`` read from ``module`` (a dotted
    module name), imported when one of them is first asked for; any other name an
    :class:`AttributeError`, as for a module without it."""
    return homes_getattr(package, dict.fromkeys(names, module))


def homes_getattr(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package`` whose public names live in several submodules: each
    name of ``homes`` read from the dotted module it maps to, imported when that name is first
    asked for; any other name an :class:`AttributeError`, as for a module without it."""

    def attribute(name: str) -> Any:
        module = homes.get(name)
        if module is not None:
            return getattr(importlib.import_module(module), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute
