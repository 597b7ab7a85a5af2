"""One edit of one file: the document as read, its bytes, the editor, and the verified result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.verify import verify_edit
from gzinertia.record_base import Record
from gzinertia.records import SdfDocument
from gzinertia.sdf import read_sdf_bytes
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.urdf.fragments import refuse_fragment
from gzinertia.vocabulary.model_suffixes import is_xacro_path

__all__ = ["FileEdit"]


@dataclass(repr=False)
class FileEdit(Record):
    """Open with :meth:`open`, make edits through :attr:`editor`, then :meth:`finish`."""

    path: Path
    model_paths: Sequence[str | Path]
    doc: SdfDocument
    old: bytes
    editor: XmlEditor

    @classmethod
    def open(
        cls, path: Path, model_paths: Sequence[str | Path], data: bytes | None = None
    ) -> FileEdit:
        """Reads ``path`` as SDF (errors name file and line) and prepares its bytes for edits;
        ``data``: the file's bytes when they do not come from ``path`` (standard input, named
        ``<stdin>``: relative includes and URIs resolve against the working directory), nothing
        read. ``model_paths``: searched first for ``model://`` URIs. A xacro
        fragment (macros only, a nameless ``<robot>``) is refused as having nothing to edit
        (:func:`~gzinertia.urdf.fragments.refuse_fragment`)."""
        if data is None and is_xacro_path(path):
            refuse_fragment(path)
        old = read_file_bytes(path) if data is None else data
        doc = read_sdf_bytes(old, str(path), model_paths)
        return cls(path, model_paths, doc, old, XmlEditor(old, str(path)))

    def finish(self, added_mass: Mapping[str, AddedMass | None]) -> bytes:
        """The edited bytes, checked by re-reading them (:func:`verify_edit`): links keep their
        poses and rigid inertia; ``added_mass`` (scoped link → new ``A_BBo_B``, ``None`` for
        removed) is what changed."""
        new = self.editor.result()
        if new != self.old:
            verify_edit(self.path, self.doc, new, self.model_paths, added_mass)
        return new
