"""The library's front door: read a model, look at its links, fit, audit, edit.

Everything here is re-exported by :mod:`gzinertia` (``import gzinertia``) and imported on first
use, so importing the package costs nothing until a function is called.

Conventions (``docs/conventions.md``): every 6x6 is a
:class:`~gzinertia.spatial.matrix.SpatialMatrix` that knows its point and axes and gives
its numbers only in a named ordering (``.linear_first()`` ``[v; ω]`` = SDFormat ``[x y z p q r]``,
``.angular_first()`` ``[ω; v]`` = Drake/DART). Per link: ``link.M_BBo_B`` (rigid, about the
link origin Bo in link axes B), ``link.M_BBcm_B`` (about the centre of mass), ``link.A_BBo_B``
(``<fluid_added_mass>``, about Bo in B; ``None`` when absent).

Each edit (``addmass``, ``addmass_bem``, ``addmass_from``, ``shift``, ``convert``, ``hydro``,
``fix``: :mod:`gzinertia.api_edits`, re-exported by :mod:`gzinertia`) reads the file and
returns an :class:`~gzinertia.edit.edit_result.Edit` (``text``, ``links``: each link's
outcome, ``skipped``, ``warnings``, ``.diff()``, ``.write()``); it writes nothing.
Values computed elsewhere are written with ``gzinertia.edit(path)``
(:mod:`gzinertia.edit.model_file`). :func:`hydrostatics` returns data
(:class:`HydrostaticsResult`), the numbers of ``gzinertia hydrostatics --json``. What the
command line prints as warnings (skipped links, plausibility) is issued as
:class:`~gzinertia.api_edits.GzInertiaWarning` through :mod:`warnings`; what it refuses raises
:class:`~gzinertia.errors.GzInertiaError` naming the file and line.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import gzinertia.audit
import gzinertia.catalogue
import gzinertia.physics
from gzinertia.hydrostatics_result import (
    HydrostaticsResult,
    HydrostaticsSettingsError,
    document_hydrostatics,
)
from gzinertia.model_input import ModelInput, ModelSource, TargetedSource, takes_keywords
from gzinertia.model_reader import is_xacro_path, read_model_file
from gzinertia.readers import READERS as _READERS  # noqa: F401  (the registry, as it was named)
from gzinertia.readers import Reader, reader_for, readers, register_reader, registered
from gzinertia.records import SdfDocument
from gzinertia.selection import select_links
from gzinertia.vocabulary.fluids import fluid_density

if TYPE_CHECKING:
    from typing_extensions import Unpack

    import gzinertia.audit.catalogue
    import gzinertia.audit.config
    import gzinertia.audit.projects
    import gzinertia.audit.target_choice
    import gzinertia.physics.fits
    from gzinertia.audit.findings import Finding
    from gzinertia.catalogue.compare import Comparison
    from gzinertia.physics.fits import EllipsoidFit, FitMethod
    from gzinertia.records import LinkRecord, SdfDocument

__all__ = [
    "HydrostaticsResult", "HydrostaticsSettingsError", "ModelSource", "Reader", "TargetedSource",
    "audit_paths", "compare", "document_hydrostatics", "fit", "hydrostatics", "read", "readers",
    "register_reader",
]


@takes_keywords(ModelSource)
def read(path: str | Path, **source: Unpack[ModelSource]) -> SdfDocument:
    """Reads a model or world file, and everything it includes, into a document of links.

    The reader is chosen by suffix: one registered with :func:`register_reader`, else the
    built-in one (URDF for ``.urdf``, xacro for ``.xacro`` and ``.urdf.xacro``, converted as
    libsdformat converts them; SDFormat for anything else).
    ``source``: where the files it names are found and how xacro is expanded
    (:class:`~gzinertia.model_input.ModelSource`: ``model_paths``, ``package_paths``,
    ``xacro_args``, ``xacro_env``, ``trust_xacro``; the xacro keywords go to the built-in
    reader only). Links are scoped ``model::nested::link``
    (:meth:`~gzinertia.records.SdfDocument.link`).
    Raises :class:`~gzinertia.errors.GzInertiaError` (file and line) for a file it cannot read.
    """
    p = Path(path)
    given = ModelInput.given(source)
    paths = [*given.package_paths, *given.model_paths]
    policy = given.xacro_policy
    xacro_args = source.get("xacro_args")
    if policy is not None and xacro_args is None:
        xacro_args = {}
    if xacro_args is None:
        return reader_for(p)(p, paths)
    if registered(p):
        raise ValueError(
            f"xacro_args go to the built-in reader; the reader registered for {p.suffix} files "
            "takes (path, model_paths) only"
        )
    if not is_xacro_path(p):
        raise ValueError(f"xacro_args go with a .xacro file, not {p.name}")
    return read_model_file(p, paths, xacro_args=dict(xacro_args), xacro_policy=policy)


def fit(link: LinkRecord, method: FitMethod = "volume") -> EllipsoidFit:
    """The fluid ellipsoids fitted to a link, posed in the link frame B.

    ``method``: ``"volume"`` (an ellipsoid with each collision's volume and inertia),
    ``"mujoco"`` (MuJoCo's ellipsoid per collision), ``"inertia"`` (the equivalent ellipsoid of
    the ``<inertial>``). ``fit(link).added_mass(density)`` is the Tuckerman ``A_BBo_B``, about
    the link origin in link axes; ``.ellipsoids`` are
    :class:`~gzinertia.physics.ellipsoid.PosedEllipsoid` values posed in the link frame (their
    ``X_FE`` is ``X_BE``; ``label`` names the collisions).
    Raises :class:`~gzinertia.physics.fits.FitError` when the link cannot be fitted that way.
    """
    return gzinertia.physics.fits.fit_link(link, method)


@takes_keywords(ModelSource)
def audit_paths(
    *paths: str | Path, codes: Iterable[str] | None = None, **source: Unpack[ModelSource],
) -> list[Finding]:
    """Audits files and directories (recursively) and returns the findings, in file order.

    ``codes``: keep only findings with these rule codes (``"GZI201"``...; ``None``: all).
    Each :class:`~gzinertia.audit.findings.Finding` has ``code``, ``severity``, ``file``,
    ``line``, ``link`` and ``message``, and ``values`` with the numbers it is about (named with
    point, axes and ordering). A file that cannot be read (missing, not XML, a xacro
    expansion that fails...) is a ``GZI001`` finding of severity ``error`` at the file and line
    the reader named, its message the line ``gzinertia audit`` prints for it (where the command
    exits 2), kept whatever ``codes`` asks for. No settings file is read: the result is that of
    ``gzinertia audit --isolated -m MODEL_PATH... PATH...``, through the same call
    (:func:`gzinertia.audit.projects.audit_projects`). ``source``: the files are read as
    :func:`read` reads them (:class:`~gzinertia.model_input.ModelSource`; ``package_paths``
    are searched as model paths are, as the audit's ``--package-path`` is).
    """
    audit = gzinertia.audit
    result, _ = audit.projects.audit_projects(
        [str(p) for p in paths], config_file=None,
        known_codes=frozenset(audit.catalogue.RULE_INFOS), isolated=True,
        overrides=audit.config.source_overrides(ModelInput.given(source)),
    )
    wanted = None if codes is None else frozenset(codes)
    kept = [f for f in result.findings if wanted is None or f.code in wanted]
    return sorted([*result.unreadable_findings(), *kept], key=lambda f: f.sort_key)


@takes_keywords(TargetedSource)
def hydrostatics(
    path: str | Path | SdfDocument,
    *,
    model: str | None = None,
    density: float | None = None,
    fluid: Literal["freshwater", "seawater", "air"] | None = None,
    world: str | Path | None = None,
    waterline: float | None = None,
    trim: bool = True,
    **source: Unpack[TargetedSource],
) -> HydrostaticsResult:
    """Displaced volume, buoyancy, weight, centres of mass G and buoyancy B per model, free
    body and link, as gz-sim's Buoyancy system computes them from the collisions (and by exact
    geometry), with the floating equilibrium of surface craft: what
    ``gzinertia hydrostatics --json`` prints, as :class:`HydrostaticsResult`.

    ``path``: a file (read as :func:`read` reads it, with ``source``'s
    :class:`~gzinertia.model_input.ModelSource` keywords) or a document :func:`read` returned
    (its file gives the world and the models' poses). The fluid is the Buoyancy plugin of the world
    in ``world`` (default: the file itself), else Gazebo's default (1000 kg/m³ with the world's
    gravity); ``density`` (kg/m³) or ``fluid`` overrides its density and makes it uniform.
    ``model``: a glob on top-level model names. ``waterline``: the free-surface height z (m,
    world) at which each free body's floating equilibrium is solved (default: a graded fluid's
    lowest layer, for bodies that float there); ``trim=False`` solves the heave only.
    ``gazebo``/``engine``: the target release and engine, as ``audit --gazebo/--engine`` (over
    the nearest settings file's ``gazebo``/``engine``): when either names one, each enabled
    link's collisions under that release's Buoyancy system, beside the exact geometry
    (:attr:`HydrostaticsResult.release_links`; docs/hydrostatics.md).
    """
    doc = path if isinstance(path, SdfDocument) else read(
        path, **ModelInput.given(source).keywords())
    target = gzinertia.audit.target_choice.shown_target(
        doc.path, source.get("gazebo"), source.get("engine"), "asked for")
    return document_hydrostatics(doc, model=model, density=density, fluid=fluid, world=world,
                                 waterline=waterline, trim=trim, target=target)



@takes_keywords(ModelSource)
def compare(
    path: str | Path | SdfDocument,
    *,
    links: str | None = None,
    entry: str | None = None,
    density: float | None = None,
    fluid: Literal["freshwater", "seawater", "air"] | None = None,
    bem: bool = False,
    **source: Unpack[ModelSource],
) -> Comparison:
    """Per link, what the file applies in Gazebo (added mass, damping, displaced volume, mass)
    beside gzinertia's estimates and a catalogue entry, with ratios: what
    ``gzinertia compare --json`` prints, as :class:`~gzinertia.catalogue.compare.Comparison`.

    Every number is about the link origin in link axes (added mass the diagonal of ``A_BBo_B``,
    damping gz-sim's Fossen-negative Hydrodynamics terms). ``links``: a glob on scoped link
    names (``None``: all). ``entry``: a catalogue id (:func:`gzinertia.catalogue.entries`)
    shown as converted to gz-sim's form, with the ratio file/entry; whatever ``entry`` says,
    each link lists the entries whose numbers it carries (copied numbers). ``density`` (kg/m³)
    or ``fluid``: the fluid of the estimates (default fresh water, Gazebo's Buoyancy default).
    ``bem``: add the boundary-element estimate (needs the ``bem`` extra; a solve per link).
    ``path`` is read as :func:`read` reads it (``source``:
    :class:`~gzinertia.model_input.ModelSource`), or is a document :func:`read` returned.
    """
    catalogue = gzinertia.catalogue
    rho = fluid_density(density, fluid)
    chosen = None if entry is None else catalogue.entry(entry)
    doc = path if isinstance(path, SdfDocument) else read(path, **source)
    chosen_links = select_links(doc.links, links, str(doc.path))
    return catalogue.compare_links(str(doc.path), chosen_links, rho, chosen,
                                   catalogue.entries(), bem, selected=links is not None)
