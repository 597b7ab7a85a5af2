"""The three added-mass edits: an ellipsoid fit (:func:`ellipsoid_edit`), a boundary-element
solve (:func:`bem_edit`) and a matrix computed elsewhere (:func:`import_edit`). Each takes an
:class:`AddedMassRequest` (the file, the links, what may be replaced) and returns an
:class:`~gzinertia.edit.edit_result.Edit` whose ``links`` are its per-link outcomes (every
matrix ``A_BBo_B``: about the link origin Bo in link axes B, linear-first ``[x y z p q r]``).

Each is one call to the file's backend (:func:`gzinertia.edit.backends.model_format`, the one
place the format is asked): SDFormat gets ``<fluid_added_mass>``
(:class:`~gzinertia.edit.sdf_file.SdfModelFile`, its writer
:class:`~gzinertia.edit.sdf_added_mass.SdfAddedMassWriter`); URDF and xacro, which have no
``<fluid_added_mass>`` (sdformat#1467), a ``<gazebo>`` Hydrodynamics block
(:class:`~gzinertia.edit.urdf_file.UrdfModelFile`,
:class:`~gzinertia.edit.urdf_addmass.UrdfAddedMassWriter`). Both run the one link loop of
:mod:`gzinertia.edit.added_mass_run` (the same links, skips, refusals and warnings). The
library's :func:`gzinertia.addmass`, :func:`gzinertia.addmass_bem` and
:func:`gzinertia.addmass_from` and the command line's ``addmass --ellipsoid|--bem|--from`` each
make one call here.

Floor: the edits (imports the backends' registry below it, never the audit or the CLI).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.backends import model_format
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
    return model_format(request.path, request.data).ellipsoid_edit(request, fit_for, density)


def bem_edit(
    request: AddedMassRequest, settings: BemSettings, progress: BemRunProgress | None = None
) -> Edit[LinkBem]:
    """Each selected link's added mass from a boundary-element solve with ``settings``
    (Capytaine, direct method); ``progress`` is told each link and solve. The :class:`Edit`'s
    ``links`` are the links solved, each with its solve and error estimate."""
    return model_format(request.path, request.data).bem_edit(request, settings, progress)


def import_edit(request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
    """The one link ``request.pattern`` selects given the matrix of ``result``, rotated to
    the link axes and moved to Bo exactly; the :class:`Edit`'s one ``ImportedLink`` names it."""
    return model_format(request.path, request.data).import_edit(request, result)
