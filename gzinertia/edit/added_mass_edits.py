"""The three added-mass edits, each once for both formats: an ellipsoid fit
(:func:`ellipsoid_edit`), a boundary-element solve (:func:`bem_edit`) and a matrix computed
elsewhere (:func:`import_edit`). Each takes an :class:`AddedMassRequest` (the file, the links,
what may be replaced) and returns an :class:`~gzinertia.edit.edit_result.Edit` whose ``links``
are its per-link outcomes (every matrix ``A_BBo_B``: about the link origin Bo in link axes B,
linear-first ``[x y z p q r]``).

The format is chosen here, once per edit, by suffix
(:func:`gzinertia.model_reader.is_urdf_path`): SDFormat gets ``<fluid_added_mass>``, each
link admitted and written by :mod:`gzinertia.edit.sdf_added_mass` (a Hydrodynamics plugin
applying added mass, one in another file, the GZI210 overlap guard: the same refusals for all
three); URDF and xacro, which have no ``<fluid_added_mass>`` (sdformat#1467), a ``<gazebo>``
Hydrodynamics block (:func:`gzinertia.edit.urdf_addmass.add_matrix_urdf`). The library's
:func:`gzinertia.addmass`, :func:`gzinertia.addmass_bem` and :func:`gzinertia.addmass_from` and
the command line's ``addmass --ellipsoid|--bem|--from`` each make one call here.

Floor: the edits (imports the SDF and URDF writers below it, never the audit or the CLI).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.edit_result import Edit
from gzinertia.io.result_files import ResultFile

if TYPE_CHECKING:
    from gzinertia.edit.addmass import FitChooser, LinkAddedMass
    from gzinertia.edit.addmass_bem import BemRunProgress, BemSettings, LinkBem
    from gzinertia.edit.bem_import import ImportedLink

__all__ = ["AddedMassRequest", "ResultFile", "bem_edit", "ellipsoid_edit", "import_edit"]


def ellipsoid_edit(
    request: AddedMassRequest, fit_for: FitChooser, density: float
) -> Edit[LinkAddedMass]:
    """Each selected link's Tuckerman added mass of the ellipsoids ``fit_for`` fits (or the
    explicit one it holds) in a fluid of ``density`` kg/m³."""
    if request.urdf:
        from gzinertia.edit.urdf_addmass import add_mass_urdf

        return add_mass_urdf(
            request.path, fit_for=fit_for, density=density, pattern=request.pattern,
            package_paths=request.source.search_paths, xacro_args=request.source.xacro_mapping,
            xacro_policy=request.source.xacro_policy,
        )
    from gzinertia.edit.addmass import add_mass

    return add_mass(
        request.path, fit_for=fit_for, density=density, pattern=request.pattern,
        upgrade_version=request.upgrade_version, model_paths=request.source.search_paths,
        replace_plugin_added_mass=request.replace_plugin_added_mass,
        allow_overlap=request.allow_overlap, data=request.data,
    )


def bem_edit(
    request: AddedMassRequest, settings: BemSettings, progress: BemRunProgress | None = None
) -> Edit[LinkBem]:
    """Each selected link's added mass from a boundary-element solve with ``settings``
    (Capytaine, direct method); ``progress`` is told each link and solve. The :class:`Edit`'s
    ``links`` are the links solved, each with its solve and error estimate."""
    from gzinertia.edit.addmass_bem import add_mass_bem, add_mass_bem_urdf

    if request.urdf:
        result, solved = add_mass_bem_urdf(
            request.path, settings=settings, pattern=request.pattern,
            package_paths=request.source.search_paths, progress=progress,
            xacro_args=request.source.xacro_mapping, xacro_policy=request.source.xacro_policy,
        )
    else:
        result, solved = add_mass_bem(
            request.path, settings=settings, pattern=request.pattern,
            upgrade_version=request.upgrade_version, model_paths=request.source.search_paths,
            replace_plugin_added_mass=request.replace_plugin_added_mass,
            allow_overlap=request.allow_overlap, progress=progress, data=request.data,
        )
    return Edit(result.path, result.old, result.new, solved, result.skipped, result.warnings,
                result.notes)


def import_edit(request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
    """The one link ``request.pattern`` selects given the matrix of ``result``, rotated to
    the link axes and moved to Bo exactly; the :class:`Edit`'s one ``ImportedLink`` names it."""
    from gzinertia.edit.bem_import import add_mass_from, add_mass_from_urdf

    return (add_mass_from_urdf if request.urdf else add_mass_from)(request, result)
