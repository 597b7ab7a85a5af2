"""Editing users' model files. The package is also the library's edit entry point:
``gzinertia.edit(path_or_doc)`` opens a file for editing as a
:class:`~gzinertia.edit.model_file.ModelFile` (``set_added_mass``, ``set_inertia``), each
change returning an :class:`~gzinertia.edit.edit_result.Edit`.

Inside: the editing commands (:mod:`~gzinertia.edit.addmass`, :mod:`~gzinertia.edit.shift`,
:mod:`~gzinertia.edit.convert`, :mod:`~gzinertia.edit.hydro`, :mod:`~gzinertia.edit.fix`), the
format backends (:mod:`~gzinertia.edit.model_file`, :mod:`~gzinertia.edit.sdf_file`,
:mod:`~gzinertia.edit.urdf_file`), the minimal-diff writer they share
(:mod:`~gzinertia.edit.editor`, :mod:`~gzinertia.edit.spans`, :mod:`~gzinertia.edit.links`), the
read-back check (:mod:`~gzinertia.edit.verify`), the result (:mod:`~gzinertia.edit.edit_result`)
and its atomic write (:mod:`~gzinertia.io.safe_write`). Nothing here prints: the command
line renders an edit (:mod:`gzinertia.cli.delivery`). A file's format is asked in one place,
:func:`gzinertia.edit.backends.model_format`, whose backend runs the edits each format writes
its own way: :mod:`~gzinertia.edit.added_mass_edits` (ellipsoid, BEM, import) and
:mod:`~gzinertia.edit.fix_file` (inertia repair) each make one call to it.

Floor: above :mod:`gzinertia.checks` and the readers and writers of the formats, below the API
and the command line (never imported by them in reverse). One edge reaches the audit, on
purpose: :func:`gzinertia.edit.fix_plan.fix_findings` runs the whole audit
(:func:`gzinertia.audit.runner.check_document`) on a document, to choose what ``fix`` repairs and
to withdraw a repair the audit would then report (the tool never contradicts itself), and
:func:`~gzinertia.edit.model_file.new_audit_codes` asks it whether a value given adds a finding.
An edit uses the audit's result, never a rule's logic (rules are reached only through
:mod:`gzinertia.checks`).
"""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.lazy_face import names_and_submodules

if TYPE_CHECKING:
    from gzinertia.edit.model_file import ModelFile
    from gzinertia.records import SdfDocument

__all__ = ["open_edit"]

#: The edits (those the library's face runs, :mod:`gzinertia.api_edits`, and those each format
#: backend runs, :mod:`~gzinertia.edit.sdf_file`, :mod:`~gzinertia.edit.urdf_file`), imported on
#: their first use as ``gzinertia.edit.<name>`` (the face's laziness: a caller imports this
#: package at its top, so that running one edit loads none of the others).
EDITS = (
    "added_mass_edits", "added_mass_run", "addmass", "addmass_bem", "bem_arguments",
    "bem_import", "convert", "fin_table", "fix", "fix_file", "hydro", "migrate", "migrate_sdf",
    "migrate_urdf", "migrate_xacro", "sdf_added_mass", "sdf_version", "shift", "urdf_addmass",
    "urdf_fix",
)

#: ``open_edit`` (:func:`gzinertia.edit.backends.open_edit`) and the :data:`EDITS`, each
#: imported on its first use.
__getattr__ = names_and_submodules(__name__, "gzinertia.edit.backends", __all__, EDITS)


class _EditPackage(types.ModuleType):
    """This package, callable: ``gzinertia.edit(source)`` is
    :func:`~gzinertia.edit.backends.open_edit`."""

    def __call__(
        self, source: str | Path | SdfDocument, *, model_paths: Sequence[str | Path] = ()
    ) -> ModelFile:
        opened: ModelFile = self.open_edit(source, model_paths=model_paths)
        return opened


sys.modules[__name__].__class__ = _EditPackage
