"""The command line's calls into the library face (:mod:`gzinertia.api_edits`): the keywords of
a :class:`~gzinertia.model_input.ModelInput` (:func:`model_keywords`), an edit function called
with its warnings left to the command line, which prints them itself (:func:`edited`), and the
delivery of the :class:`~gzinertia.edit.edit_result.Edit` it returns (:func:`deliver_edit`:
``--diff``, ``--check``, ``-o``, ``--in-place`` or stdout, and the exit status).

Nothing here imports NumPy or the edits at start-up: each is imported when a command runs.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import typer

import gzinertia
import gzinertia.cli

if TYPE_CHECKING:
    import gzinertia.cli.delivery
    from gzinertia.cli.delivery import WriteMode
    from gzinertia.edit.edit_result import Edit
    from gzinertia.model_input import ModelInput

__all__ = ["deliver_edit", "edited", "model_keywords"]

EditOf = TypeVar("EditOf", bound="Edit[Any]")


def model_keywords(source: ModelInput) -> dict[str, Any]:
    """``source`` as the keywords the library's added-mass edits and :func:`gzinertia.fix`
    take (``model_paths``, ``package_paths``, ``xacro_args``, ``xacro_env``,
    ``trust_xacro``)."""
    return {"model_paths": source.model_paths, "package_paths": source.package_paths,
            "xacro_args": source.xacro_mapping, "xacro_env": sorted(source.xacro_env),
            "trust_xacro": source.trust_xacro}


def edited(function: Callable[..., EditOf], *args: Any, **keywords: Any) -> EditOf:
    """``function(*args, **keywords)``, a library edit, with the
    :class:`~gzinertia.api_edits.GzInertiaWarning` it issues ignored: the command line prints
    the :class:`Edit`'s skipped links and warnings in its own words."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gzinertia.GzInertiaWarning)
        return function(*args, **keywords)


def deliver_edit(edit: Edit[Any], mode: WriteMode) -> None:
    """Writes, diffs or checks ``edit``'s file as ``mode`` says; exit status 1 for ``--check``
    on a file that would change."""
    status = gzinertia.cli.delivery.deliver(edit.path, edit.old, edit.new, mode)
    if status:
        raise typer.Exit(status)
