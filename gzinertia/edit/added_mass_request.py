"""What an added-mass edit is asked to edit, whatever the matrix's source
(:class:`AddedMassRequest`): the file, the links, where its files are found, and what may be
replaced. Taken by :mod:`gzinertia.edit.added_mass_edits` and the format backends it reaches
(:class:`~gzinertia.edit.model_file.ModelFormat`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from gzinertia.gazebo.target import DEFAULT_TARGET, Target
from gzinertia.model_input import KEYWORD_DEFAULTS, ModelInput, TargetedSource
from gzinertia.record_base import ValueRecord

__all__ = ["ADDED_MASS_DEFAULTS", "AddedMassKeywords", "AddedMassRequest"]


class AddedMassKeywords(TargetedSource, total=False):
    """The keywords the library's added-mass edits share (:func:`gzinertia.addmass`,
    :func:`gzinertia.addmass_bem`, :func:`gzinertia.addmass_from`), each optional: where the
    file's own files are found and its target (:class:`~gzinertia.model_input.TargetedSource`),
    and ``upgrade_version`` (default ``True``), ``replace_plugin_added_mass`` and
    ``allow_overlap`` (default ``False``), ``data`` (the file's bytes when they do not come from
    its path: standard input), as :class:`AddedMassRequest` says."""

    upgrade_version: bool
    replace_plugin_added_mass: bool
    allow_overlap: bool
    data: bytes | None


@dataclass(frozen=True, repr=False, eq=False)
class AddedMassRequest(ValueRecord):
    """What an added-mass edit is asked to edit, whatever the matrix's source.

    ``path``: the file (``<stdin>`` with ``data``, its bytes: SDFormat only); ``pattern``: a
    glob on scoped link names (``None``: every link that moves); ``source``: where its files
    are found (model paths, or package paths and the xacro settings for URDF/xacro);
    ``upgrade_version``: raise an SDF file to 1.10 when older; ``replace_plugin_added_mass``:
    write beside a Hydrodynamics plugin applying added mass and turn its own off (SDFormat
    only: the URDF/xacro backend refuses it); ``allow_overlap``: write a link whose fluid ellipsoid
    overlaps that of a link carrying added mass (GZI210, then said in the warnings);
    ``target``: the Gazebo release and engine the file is for (SDFormat's
    ``<fluid_added_mass>`` is refused where it ignores the element: GZI601)."""

    path: Path
    pattern: str | None = None
    source: ModelInput = field(default_factory=ModelInput)
    data: bytes | None = None
    upgrade_version: bool = True
    replace_plugin_added_mass: bool = False
    allow_overlap: bool = False
    target: Target = DEFAULT_TARGET

    @classmethod
    def asked(cls, path: str | Path, pattern: str | None, keywords: AddedMassKeywords,
              target: Target) -> AddedMassRequest:
        """The request of a library call's ``keywords``, for ``target``."""
        return cls(Path(path), pattern, ModelInput.given(keywords), keywords.get("data"),
                   keywords.get("upgrade_version", True),
                   keywords.get("replace_plugin_added_mass", False),
                   keywords.get("allow_overlap", False), target)


#: What each of :class:`AddedMassKeywords` means when not given: the model input's, and the
#: request's own fields' defaults.
ADDED_MASS_DEFAULTS: dict[str, object] = {
    **KEYWORD_DEFAULTS,
    **{f.name: f.default for f in fields(AddedMassRequest)
       if f.name in AddedMassKeywords.__annotations__},
}
