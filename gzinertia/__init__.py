"""gzinertia: rigid-body inertia and fluid added mass for Gazebo/SDFormat models.

The library in five lines (``docs/api.md`` has worked examples)::

    import gzinertia
    doc = gzinertia.read("model.sdf")                 # a document of links
    link = doc.link("boat::hull")
    link.M_BBo_B.angular_first()                      # rigid 6x6 about the link origin, [ω; v]
    new_text = gzinertia.addmass("model.sdf", density=1025.0).text

* :func:`read` a file (SDFormat; other formats plug in by suffix: :func:`register_reader`)
  into a :class:`Document` of :class:`Link` records.
* Per link, every 6x6 is a :class:`SpatialMatrix` that knows its point and axes and gives its
  numbers only in a named ordering: ``link.M_BBo_B`` and ``link.M_BBcm_B``
  (:class:`SpatialInertia`), ``link.A_BBo_B`` (:class:`AddedMass`, ``None`` when absent);
  ``.linear_first()`` is ``[v; ω]`` (SDFormat's ``[x y z p q r]``), ``.angular_first()`` is
  ``[ω; v]`` (Drake, DART). Changes of point go from the old point to the new one
  (``M.shift(p_PQ, "Q")``, as Drake's ``Shift``).
* :func:`fit` the link's fluid ellipsoids; ``fit(link).added_mass(density)`` is ``A_BBo_B``.
* :func:`audit_paths` files or folders: a list of :class:`Finding` (``gzinertia.audit`` is the
  audit's sub-package, hence the name).
* Edits write nothing and return an :class:`Edit` (the new ``text`` with each link's outcome,
  the links skipped and why, warnings; ``.diff()``, ``.write()`` atomic): :func:`addmass`,
  :func:`addmass_bem`, :func:`addmass_from`, :func:`shift`, :func:`convert`, :func:`hydro`,
  :func:`fix`, :func:`migrate`.
* ``gzinertia.edit(path_or_document)`` opens a file for values you computed
  (:class:`ModelFile`: ``set_added_mass(link, A_BBo_B)``, ``set_inertia``,
  ``set_plugin_terms``), each returning an :class:`Edit`.
* :func:`hydrostatics`: buoyancy, weight, G and B per model, free body and link, and the
  floating equilibrium, as :class:`HydrostaticsResult` (``gzinertia hydrostatics --json``).
* :func:`html_report`: one self-contained HTML page of models in 3D with their numbers and
  findings, as :class:`HtmlReport` (``gzinertia report``).

Names are imported on first use, so ``import gzinertia`` (and the CLI's start-up) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gzinertia.version import __version__

if TYPE_CHECKING:
    from gzinertia.api import (
        HydrostaticsResult,
        audit_paths,
        compare,
        fit,
        hydrostatics,
        read,
        register_reader,
    )
    from gzinertia.api_edits import (
        BemFile,
        FixedFile,
        GzInertiaWarning,
        addmass,
        addmass_bem,
        addmass_from,
        convert,
        fix,
        hydro,
        migrate,
        shift,
    )
    from gzinertia.api_report import HtmlReport, html_report
    from gzinertia.audit.findings import Finding
    from gzinertia.catalogue.compare import Comparison
    from gzinertia.edit.addmass_bem import LinkBem
    from gzinertia.edit.backends import open_edit as edit
    from gzinertia.edit.edit_result import Edit
    from gzinertia.edit.fix import LinkFix
    from gzinertia.edit.model_file import ModelFile
    from gzinertia.errors import GzInertiaError, SettingError
    from gzinertia.physics.bem import BemResult
    from gzinertia.physics.fits import EllipsoidFit
    from gzinertia.physics.flotation import Flotation
    from gzinertia.physics.hydrostatics import LinkHydrostatics, ModelHydrostatics
    from gzinertia.physics.inertia_repair import InertiaRepair
    from gzinertia.records import BuoyancyWorld, Inertial
    from gzinertia.records import LinkRecord as Link
    from gzinertia.records import SdfDocument as Document
    from gzinertia.spatial.added_mass import AddedMass
    from gzinertia.spatial.matrix import SpatialInertia, SpatialMatrix

#: Where the public names live: module → the names it defines, imported on first access.
_HOMES: dict[str, tuple[str, ...]] = {
    "gzinertia.api": (
        "read", "register_reader", "fit", "audit_paths", "hydrostatics", "compare",
        "HydrostaticsResult",
    ),
    "gzinertia.api_edits": (
        "addmass", "shift", "convert", "hydro", "addmass_from", "addmass_bem", "BemFile", "fix",
        "FixedFile", "migrate", "GzInertiaWarning",
    ),
    "gzinertia.edit.edit_result": ("Edit",),
    "gzinertia.edit.model_file": ("ModelFile",),
    "gzinertia.api_report": ("html_report", "HtmlReport"),
    "gzinertia.catalogue.compare": ("Comparison",),
    "gzinertia.edit.addmass_bem": ("LinkBem",),
    "gzinertia.physics.bem": ("BemResult",),
    "gzinertia.edit.fix": ("LinkFix",),
    "gzinertia.physics.inertia_repair": ("InertiaRepair",),
    "gzinertia.physics.hydrostatics": ("ModelHydrostatics", "LinkHydrostatics"),
    "gzinertia.physics.flotation": ("Flotation",),
    "gzinertia.records": ("BuoyancyWorld", "Inertial"),
    "gzinertia.errors": ("GzInertiaError", "SettingError"),
    "gzinertia.spatial.matrix": ("SpatialMatrix", "SpatialInertia"),
    "gzinertia.spatial.added_mass": ("AddedMass",),
    "gzinertia.physics.fits": ("EllipsoidFit",),
    "gzinertia.audit.findings": ("Finding",),
}
#: Public names the module defines under another name: name → (module, attribute).
_RENAMED: dict[str, tuple[str, str]] = {
    "Document": ("gzinertia.records", "SdfDocument"),
    "Link": ("gzinertia.records", "LinkRecord"),
}
#: Public name → (module, attribute).
_LAZY: dict[str, tuple[str, str]] = {
    **{name: (module, name) for module, names in _HOMES.items() for name in names},
    **_RENAMED,
}

__all__ = [
    "AddedMass",
    "BemFile",
    "BemResult",
    "BuoyancyWorld",
    "Comparison",
    "Document",
    "Edit",
    "EllipsoidFit",
    "Finding",
    "FixedFile",
    "Flotation",
    "GzInertiaError",
    "GzInertiaWarning",
    "HtmlReport",
    "HydrostaticsResult",
    "InertiaRepair",
    "Inertial",
    "Link",
    "LinkBem",
    "LinkFix",
    "LinkHydrostatics",
    "ModelFile",
    "ModelHydrostatics",
    "SettingError",
    "SpatialInertia",
    "SpatialMatrix",
    "__version__",
    "addmass",
    "addmass_bem",
    "addmass_from",
    "audit_paths",
    "compare",
    "convert",
    "edit",
    "fit",
    "fix",
    "html_report",
    "hydro",
    "hydrostatics",
    "migrate",
    "read",
    "register_reader",
    "shift",
]


#: Modules of the package imported at their first use as ``gzinertia.name``, for the command
#: line (which imports this face at its top; ``--help`` loads none of them): the sub-package
#: ``edit`` (callable: ``gzinertia.edit(path).set_added_mass(...)``) and the top-level modules
#: a command reaches.
SUBMODULES = (
    "arguments", "edit", "hydrostatics_result", "model_reader", "numbers", "selection", "shell",
    "wording",
)


def __getattr__(name: str) -> Any:
    import importlib

    if name in SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
