"""One link's added mass in an SDFormat file, as every SDF edit writes it (the ellipsoid fit,
boundary elements, an imported result, a matrix the caller gives): the SDF backend's
:class:`~gzinertia.edit.added_mass_run.AddedMassWriter` (:class:`SdfAddedMassWriter`), why a link
whose Hydrodynamics plugin applies added mass is refused (:func:`plugin_conflict`), and how it is
written (:func:`write_link_added_mass`: ``<fluid_added_mass>`` about the link origin in link
axes, the plugin's own added mass turned off when it is replaced, the version raised to 1.10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.added_mass_run import RunOutput, WritePolicy, WrittenFile
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import (
    NotEditableError,
    link_element,
    plugin_element,
    same_file,
    write_fluid_added_mass,
)
from gzinertia.edit.sdf_version import check_version_for_added_mass
from gzinertia.edit.session import FileEdit
from gzinertia.gazebo.target import refuse_ignored_element
from gzinertia.options import option
from gzinertia.records import HydroPlugin, LinkRecord, SdfDocument
from gzinertia.spatial.added_mass import AddedMass

__all__ = ["SdfAddedMassWriter", "plugin_conflict", "refuse_for_target",
           "write_link_added_mass"]


def plugin_conflict(link: LinkRecord, plugin: HydroPlugin, path: Path) -> str:
    """Why ``link`` gets no ``<fluid_added_mass>`` while ``plugin`` applies added mass."""
    return (
        f"its Hydrodynamics plugin (line {plugin.source.line}) applies added mass from its "
        "<iDotJ> terms, and <fluid_added_mass> as well would count it twice: move those "
        f"values with `{option('hydro_to_sdf_command', path=path)}`, or pass "
        f"{option('replace_plugin_added_mass')} to write the ellipsoid estimate and turn the "
        "plugin's "
        "added mass off (<disable_added_mass>true</disable_added_mass>)"
    )


def write_link_added_mass(
    editor: XmlEditor,
    link: LinkRecord,
    plugins: Sequence[HydroPlugin],
    written: tuple[AddedMass, str],
    policy: WritePolicy,
    out: tuple[list[str], list[str]],
    replaces: str,
) -> bool:
    """Writes ``written`` (``A_BBo_B``, about Bo in link axes B, linear-first; and its comment)
    as the link's ``<fluid_added_mass>`` and turns off the added mass of its ``plugins``, with a
    note in ``out[1]`` that ends with ``replaces`` (after the plugin's line number). ``False``
    after appending to ``out[0]`` (skipped) why the link's element cannot be edited (raised
    instead when the link was selected explicitly)."""
    A_BBo_B, comment = written
    skipped, notes = out
    try:
        write_fluid_added_mass(editor, link_element(editor, link), A_BBo_B, comment)
    except NotEditableError as exc:
        if policy.pattern is not None:
            raise
        skipped.append(f"{link.name}: {exc.message}")
        return False
    for plugin in plugins:
        editor.set_children_text(plugin_element(editor, plugin), {"disable_added_mass": "true"})
        notes.append(
            f"{link.name}: turned off the added mass of its Hydrodynamics plugin (line "
            f"{plugin.source.line}{replaces}"
        )
    return True


def refuse_for_target(request: AddedMassRequest) -> None:
    """Raises :class:`~gzinertia.errors.SettingError` (key ``engine``) when ``request``'s target
    ignores ``<fluid_added_mass>`` (the audit's GZI601 would report what the edit writes),
    naming the way out: the plugin's added mass for that engine, or a target applying it."""
    refuse_ignored_element(
        request.target, "addmass", "for this engine the added mass goes into the "
        "Hydrodynamics plugin's <iDotJ> terms (addmass for dartsim, then {sdf_to_hydro} for "
        "this engine)")


class SdfAddedMassWriter:
    """An SDFormat file's added mass as an added-mass run writes it: ``<fluid_added_mass>`` in
    the link's ``<inertial>`` (only links and plugins of this file), read back at the end with
    the version raised to 1.10 (or kept, said)."""

    def __init__(self, edit: FileEdit) -> None:
        self.edit = edit

    @classmethod
    def open(cls, request: AddedMassRequest) -> SdfAddedMassWriter:
        """``request``'s file (or standard input's bytes) read as SDFormat for the run;
        refused first as :func:`refuse_for_target` says."""
        refuse_for_target(request)
        return cls(FileEdit.open(request.path, request.source.search_paths, request.data))

    @property
    def doc(self) -> SdfDocument:
        """The document as read."""
        return self.edit.doc

    @property
    def old(self) -> bytes:
        """The bytes as read."""
        return self.edit.old

    def in_file(self, file: str | Path) -> bool:
        """Whether ``file`` is this file (a link or plugin of an included model is not)."""
        return same_file(file, self.edit.path)

    def plugin_conflict(self, link: LinkRecord, plugin: HydroPlugin) -> str:
        """:func:`plugin_conflict` in this file."""
        return plugin_conflict(link, plugin, self.edit.path)

    def write(self, link: LinkRecord, plugins: Sequence[HydroPlugin],
              written: tuple[AddedMass, str], replaces: str, policy: WritePolicy,
              out: RunOutput) -> bool:
        """:func:`write_link_added_mass` (``A_BBo_B`` about Bo in link axes B)."""
        return write_link_added_mass(self.edit.editor, link, plugins, written, policy,
                                     (out.skipped, out.notes), replaces)

    def finish(self, written: Mapping[str, AddedMass], upgrade_version: bool) -> WrittenFile:
        """The bytes with ``written`` (per scoped link name, ``A_BBo_B``: about the link origin
        Bo in link axes B, linear-first ``[x y z p q r]``), read back (:meth:`FileEdit.finish`);
        when something was written, the version raised to 1.10 unless ``upgrade_version`` is
        false (then kept, said)."""
        said = None
        if written:
            said = check_version_for_added_mass(self.edit.editor, self.doc.sdf_version,
                                                keep=not upgrade_version)
        return WrittenFile(self.edit.finish(written), said or None)
