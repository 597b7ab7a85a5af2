"""How every command's flags are declared: the two helpers and the one alias they use.

A flag is an ``Annotated`` type whose metadata :func:`flag` (or :func:`argument`) makes from
the flag's spellings and help text::

    SelectFlag = Annotated[Maybe[str], flag("--select", "Only these rules ...")]

    def audit(..., select: SelectFlag = None) -> None: ...

:data:`Maybe` is ``Optional`` (typer needs it on Python 3.10, where ``X | None`` would do
for a type checker), so a module declaring flags needs no ``noqa`` for it. Both helpers
hand typer exactly what a ``typer.Option(...)`` or ``typer.Argument(...)`` written out would,
so ``--help`` renders as before. Nothing here imports NumPy (CLI start-up).
"""

from __future__ import annotations

from typing import Any, Optional, TypeVar

import typer

__all__ = ["Maybe", "argument", "flag", "flag_with"]

T = TypeVar("T")

#: ``Optional[T]``: a flag whose default is ``None`` (not given).
Maybe = Optional[T]  # noqa: UP045 (typer needs Optional on Python 3.10)


def flag(names: str, help: str, **options: Any) -> Any:
    """The metadata of an option's ``Annotated`` type: ``typer.Option`` with the spellings
    ``names`` (space-separated, e.g. ``"--output -o"`` or ``"--progress/--no-progress"``;
    ``""``: from the parameter's name), the help text ``help`` and any other of its
    ``options`` (e.g. ``callback``)."""
    return typer.Option(*names.split(), help=help, **options)


def flag_with(mode: str, names: str, help: str, **options: Any) -> Any:
    """:func:`flag` for an option that only counts with another, ``mode`` (e.g. ``"--bem"``):
    its help says so first (``With --bem: ...``), in one wording for every such option."""
    return flag(names, f"With {mode}: {help}", **options)


def argument(help: str, **options: Any) -> Any:
    """The metadata of a positional argument's ``Annotated`` type: ``typer.Argument`` with the
    help text ``help`` and any other of its ``options``."""
    return typer.Argument(help=help, **options)
