"""The library's front door: read a model, look at its links, fit, audit, edit.

Everything here is re-exported by :mod:`gzinertia` (``import gzinertia``) and imported on first
use, so importing the package costs nothing until a function is called.

Conventions (``docs/conventions.md``): every 6x6 is a
:class:`~gzinertia.spatial.matrix.SpatialMatrix` that knows its point and axes and gives
its numbers only in a named ordering (``.linear_first()`` ``[v; ω]`` = SDFormat ``[x y z p q r]``,
``.angular_first()`` ``[ω; v]`` = Drake/DART). Per link: ``link.M_BBo_B`` (rigid, about the
link origin Bo in link axes B), ``link.M_BBcm_B`` (about the centre of mass), ``link.A_BBo_B``
(``<fluid_added_mass>``, about Bo in B; ``None`` when absent).

Each edit (:func:`addmass`, :func:`addmass_from`, :func:`shift`, :func:`convert`, :func:`hydro`)
reads the file and returns its new text; it writes nothing. The two whose per-link outcome is
more than the matrix they write return an :class:`~gzinertia.edit.edit_result.Edit` (``text``,
``links``, ``.diff()``, ``.write()``): :func:`fix` (each link's inertia change; also named
:data:`FixedFile`) and :func:`addmass_bem` (each link's solve and its error estimate; also named
:data:`BemFile`). Values computed elsewhere are written with ``gzinertia.edit(path)``
(:mod:`gzinertia.edit.model_file`). :func:`hydrostatics` returns data
(:class:`HydrostaticsResult`), the numbers of ``gzinertia hydrostatics --json``. What the
command line prints as warnings (skipped links, plausibility) is issued as
:class:`GzInertiaWarning` through :mod:`warnings`; what it refuses raises
:class:`~gzinertia.errors.GzInertiaError` naming the file and line.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.edit_result import Edit, decoded_text
from gzinertia.hydrostatics_result import (
    HydrostaticsResult,
    HydrostaticsSettingsError,
    document_hydrostatics,
)
from gzinertia.model_input import ModelInput
from gzinertia.readers import READERS as _READERS  # noqa: F401  (the registry, as it was named)
from gzinertia.readers import Reader, reader_for, readers, register_reader, registered
from gzinertia.vocabulary.fluids import DEFAULT_FLUID_DENSITY
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    from gzinertia.audit.findings import Finding
    from gzinertia.edit.addmass_bem import LinkBem
    from gzinertia.edit.fix import LinkFix
    from gzinertia.physics.bem import Quality
    from gzinertia.physics.fits import EllipsoidFit, FitMethod
    from gzinertia.records import LinkRecord, SdfDocument

#: An :class:`~gzinertia.edit.edit_result.Edit` of any per-link outcome.
EditOf = TypeVar("EditOf", bound="Edit[Any]")

__all__ = [
    "BemFile", "FixedFile", "GzInertiaWarning", "HydrostaticsResult", "HydrostaticsSettingsError",
    "Reader", "addmass", "addmass_bem", "addmass_from", "audit_paths", "convert",
    "document_hydrostatics", "fit", "fix", "hydro", "hydrostatics", "read", "readers",
    "register_reader", "shift",
]

class GzInertiaWarning(UserWarning):
    """Something an edit or a read did not do, or did with a caveat (the CLI's warnings)."""


def read(
    path: str | Path,
    *,
    model_paths: Sequence[str | Path] = (),
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
    xacro_env: Sequence[str] = (),
    trust_xacro: bool = False,
) -> SdfDocument:
    """Reads a model or world file, and everything it includes, into a document of links.

    The reader is chosen by suffix: one registered with :func:`register_reader`, else the
    built-in one (URDF for ``.urdf``, xacro for ``.xacro`` and ``.urdf.xacro``, converted as
    libsdformat converts them; SDFormat for anything else).
    ``model_paths`` are searched first for ``model://`` URIs, then ``GZ_SIM_RESOURCE_PATH``,
    ``SDF_PATH`` and ``IGN_GAZEBO_RESOURCE_PATH``. For URDF and xacro, ``package_paths`` (then
    ``model_paths``) are searched for ``package://`` and ``$(find pkg)``, then
    ``ROS_PACKAGE_PATH`` and ``AMENT_PREFIX_PATH``; ``xacro_args`` are xacro's
    ``name:=value`` arguments (``{"name": "value"}``; the built-in reader only).
    ``xacro_env`` names the environment variables xacro's ``$(env)``/``$(optenv)`` may read
    (no other is); ``trust_xacro`` evaluates xacro expressions with Python, which runs the
    model's code (by default they are evaluated without Python: docs/security.md).
    Links are scoped ``model::nested::link`` (:meth:`~gzinertia.records.SdfDocument.link`).
    Raises :class:`~gzinertia.errors.GzInertiaError` (file and line) for a file it cannot read.
    """
    p = Path(path)
    paths = [*package_paths, *model_paths]
    policy = ModelInput.of(xacro_env=xacro_env, trust_xacro=trust_xacro).xacro_policy
    if policy is not None and xacro_args is None:
        xacro_args = {}
    if xacro_args is None:
        return reader_for(p)(p, paths)
    if registered(p):
        raise ValueError(
            f"xacro_args go to the built-in reader; the reader registered for {p.suffix} files "
            "takes (path, model_paths) only"
        )
    from gzinertia.model_reader import is_xacro_path, read_model_file

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
    from gzinertia.physics.fits import fit_link

    return fit_link(link, method)


def audit_paths(
    *paths: str | Path,
    model_paths: Sequence[str | Path] = (),
    codes: Iterable[str] | None = None,
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
    (:func:`gzinertia.audit.projects.audit_projects`).
    """
    from functools import partial

    from gzinertia.audit.catalogue import RULE_INFOS
    from gzinertia.audit.config import with_overrides
    from gzinertia.audit.projects import audit_projects

    result, _ = audit_projects(
        [str(p) for p in paths], config_file=None, known_codes=frozenset(RULE_INFOS),
        isolated=True, overrides=partial(with_overrides, model_paths=[str(p) for p in model_paths]),
    )
    wanted = None if codes is None else frozenset(codes)
    kept = [f for f in result.findings if wanted is None or f.code in wanted]
    return sorted([*result.unreadable_findings(), *kept], key=lambda f: f.sort_key)


def _warn(lines: Iterable[str]) -> None:
    for line in lines:
        warnings.warn(line, GzInertiaWarning, stacklevel=3)


def _warned(edit: EditOf) -> EditOf:
    """``edit`` after its skipped links and warnings are issued as :class:`GzInertiaWarning`."""
    for line in [*edit.skipped, *edit.warnings]:
        warnings.warn(line, GzInertiaWarning, stacklevel=3)
    return edit


def addmass(
    path: str | Path,
    *,
    density: float = DEFAULT_FLUID_DENSITY,
    method: FitMethod = "volume",
    links: str | None = None,
    upgrade_version: bool = True,
    replace_plugin_added_mass: bool = False,
    allow_overlap: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with each selected link's Tuckerman added mass written as
    ``<fluid_added_mass>`` (``A_BBo_B``: about the link origin in link axes, linear-first as
    the spec orders it) in a fluid of ``density`` kg/m³, fitted by ``method`` (see :func:`fit`).

    ``links``: a glob on scoped link names (``None``: every link that moves). The version is
    raised to SDF 1.10 when older unless ``upgrade_version=False``. Links skipped (static,
    without collisions, already covered by a Hydrodynamics plugin or by an overlapping
    ellipsoid) are reported as :class:`GzInertiaWarning`. A URDF or xacro file (which has no
    ``<fluid_added_mass>``) gets the ``<gazebo>`` Hydrodynamics block ``gzinertia addmass``
    writes there, ``model_paths`` then being package paths.
    """
    from gzinertia.edit.added_mass_edits import ellipsoid_edit
    from gzinertia.edit.addmass import FitChooser

    request = AddedMassRequest.of(path, links, model_paths, upgrade_version,
                                  replace_plugin_added_mass, allow_overlap)
    return _warned(ellipsoid_edit(request, FitChooser(method), density)).text


def shift(
    path: str | Path,
    link: str,
    *,
    source: Literal["com", "origin"] | tuple[float, float, float],
    axes: Literal["link", "inertial"] = "link",
    force: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with one link's ``<fluid_added_mass>``, computed about ``source``
    (``"com"``, ``"origin"`` or a point ``(x, y, z)`` in link frame, m) in ``axes``, moved to
    the link origin in link axes by the exact change of point (what the spec wants).

    ``link`` is a glob matching exactly one link. A matrix gzinertia wrote is already about the
    origin: shifting it again raises unless ``force``.
    """
    from gzinertia.edit.shift import shift as run_shift

    result = run_shift(Path(path), pattern=link, point=source, axes=axes, force=force,
                       model_paths=model_paths)
    return decoded_text(result.new)


def convert(
    path: str | Path,
    *,
    to: Literal["sdf", "hydro"],
    sign: Literal["fossen", "physical", "auto"] = "auto",
    links: str | None = None,
    remove_plugin_terms: bool = False,
    force: bool = False,
    upgrade_version: bool = True,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with added mass moved between the Hydrodynamics plugin's ``<iDotJ>``
    terms and ``<fluid_added_mass>`` (``to="sdf"`` or ``to="hydro"``), so it counts once.

    ``sign``: ``"fossen"`` (negative derivatives, ``A = -D``), ``"physical"`` (``A = D``) or
    ``"auto"`` (from the diagonal; ``to="sdf"`` only). ``to="sdf"`` sets the plugin's
    ``<disable_added_mass>`` unless ``remove_plugin_terms``.
    """
    from gzinertia.edit.convert import hydro_to_sdf, sdf_to_hydro

    p = Path(path)
    if to == "sdf":
        result = hydro_to_sdf(p, pattern=links, sign=sign, remove_plugin_terms=remove_plugin_terms,
                              force=force, model_paths=model_paths,
                              upgrade_version=upgrade_version)
    elif to == "hydro":
        if sign == "auto":
            raise ValueError("to='hydro' needs sign='fossen' or sign='physical'")
        result = sdf_to_hydro(p, pattern=links, sign=sign, model_paths=model_paths)
    else:
        raise ValueError(f"to must be 'sdf' or 'hydro', not {to!r}")
    _warn(result.warnings)
    return decoded_text(result.new)


def hydro(
    path: str | Path,
    links: str,
    *,
    density: float = DEFAULT_FLUID_DENSITY,
    viscosity: float = 1.0e-3,
    method: FitMethod = "mujoco",
    couplings: bool = False,
    cross_terms: bool = False,
    force: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with Hydrodynamics plugin damping terms (``<iJ>`` linear,
    ``<iJabsK>`` quadratic; Fossen's negative sign, link frame, about the link origin) for the
    links matching the glob ``links``, from MuJoCo's ellipsoid fluid model in a fluid of
    ``density`` kg/m³ and dynamic ``viscosity`` Pa·s, with MuJoCo's default coefficients.
    Terms a plugin already has are replaced only with ``force``.
    """
    from gzinertia.edit.hydro import hydro as run_hydro
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

    result = run_hydro(
        Path(path), pattern=links, method=method, density=density, viscosity=viscosity,
        coefs=EllipsoidFluidCoefficients(), couplings=couplings, model_paths=model_paths,
        cross_terms=cross_terms, force=force,
    )
    _warn(result.warnings)
    return decoded_text(result.new)


def addmass_from(
    path: str | Path,
    result: str | Path,
    *,
    link: str,
    about: tuple[float, float, float] | None = None,
    axes_rpy: tuple[float, float, float] = (0.0, 0.0, 0.0),
    frequency: str | None = None,
    density: float | None = None,
    wamit_length: float = 1.0,
    geometry: GeometryElement = "collision",
    shapes: Sequence[str] | None = None,
    upgrade_version: bool = True,
    model_paths: Sequence[str | Path] = (),
    replace_plugin_added_mass: bool = False,
    allow_overlap: bool = False,
) -> str:
    """The file's new text with a boundary-element result computed elsewhere written as one
    link's ``<fluid_added_mass>`` (``A_BBo_B``: about the link origin Bo in link axes B), as
    ``gzinertia addmass --from`` writes it.

    ``result``: a Capytaine dataset (NetCDF from ``assemble_dataset``) or a WAMIT ``.1`` file
    (non-dimensionalised by ``ρ·L^k`` with ``L = wamit_length``, m). The matrix, computed about
    the point ``about`` (x, y, z in the link frame, m; default: the point the dataset records)
    in axes rotated from the link's by ``axes_rpy`` (roll, pitch, yaw, rad), is rotated to the
    link axes and moved to Bo exactly. ``frequency``: ``"zero"``, ``"infinite"`` or ω in
    rad/s as text (default: the dataset's only one). ``density`` (kg/m³) rescales a result
    solved at another density. ``link`` is a glob matching exactly one link; ``geometry`` and
    ``shapes`` (names; ``None``: all) record which of the link's shapes the result describes,
    so the audit reports it stale (GZI212) when they change. The link is refused as
    :func:`addmass` refuses it: when its Hydrodynamics plugin applies added mass (unless
    ``replace_plugin_added_mass``, which turns the plugin's off) or its fluid ellipsoid overlaps
    one of a link carrying added mass (GZI210; unless ``allow_overlap``, then a
    :class:`GzInertiaWarning`). A URDF or xacro file gets the ``<gazebo>`` Hydrodynamics block
    instead (``model_paths`` then being package paths).
    """
    from gzinertia.edit.added_mass_edits import ResultFile, import_edit

    request = AddedMassRequest.of(path, link, model_paths, upgrade_version,
                                  replace_plugin_added_mass, allow_overlap)
    read = ResultFile(Path(result), frequency, about, axes_rpy, density, wamit_length,
                      (None if shapes is None else tuple(shapes), geometry))
    return _warned(import_edit(request, read)).text


#: What :func:`addmass_bem` makes: an :class:`~gzinertia.edit.edit_result.Edit` whose ``links``
#: are, per link solved, its :class:`~gzinertia.edit.addmass_bem.LinkBem` (the link, the shapes
#: meshed, their digest, and the :class:`~gzinertia.physics.bem.BemResult`: ``A_BBo_B`` about Bo
#: in link axes, panel counts, the estimated ``relative_error``, density, Capytaine's version);
#: ``text`` is the file's new text.
BemFile = Edit


def addmass_bem(
    path: str | Path,
    *,
    density: float = DEFAULT_FLUID_DENSITY,
    links: str | None = None,
    geometry: GeometryElement = "collision",
    shapes: Sequence[str] | None = None,
    panel_size: float | None = None,
    quality: Quality = "default",
    waterline: float | Literal["auto"] | None = None,
    depth: float = math.inf,
    frequency: Literal["zero", "infinite"] = "zero",
    together: bool = False,
    cache: bool = True,
    upgrade_version: bool = True,
    replace_plugin_added_mass: bool = False,
    allow_overlap: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> Edit[LinkBem]:
    """The file's new text with each selected link's added mass from a boundary-element solve
    (Capytaine, direct method) written as ``<fluid_added_mass>`` (``A_BBo_B``: about the link
    origin Bo in link axes B, linear-first as the spec orders it) with its provenance comment,
    as ``gzinertia addmass --bem`` writes it (docs/bem.md); and each link's solve. A URDF or
    xacro file gets the ``<gazebo>`` Hydrodynamics block instead (``model_paths`` then being
    package paths; ``together`` is refused there).

    A separate function from :func:`addmass` (whose ``method`` is the ellipsoid fit): the solve
    takes its own settings and returns its own per-link outcome (panels, error estimate).
    ``geometry``: mesh the link's collisions or its visuals; ``shapes``: their names (``None``:
    all). ``panel_size`` (m) or ``quality`` (``"fast"``, ``"default"``, ``"fine"``) set the
    resolution. ``waterline``: a free surface at this world height z (m; ``None``: unbounded
    fluid; ``"auto"``: at each link's floating draft, heel and trim, from its free body's
    hydrostatic equilibrium in water of ``density``, recorded in each
    :class:`~gzinertia.edit.addmass_bem.LinkBem`'s ``floating``), with ``depth`` (m) and the
    ``frequency`` limit; ``together``: one problem for all
    selected links. ``cache``: read and write the result cache. Skipped links and results whose
    error estimate exceeds a few percent are reported as :class:`GzInertiaWarning`.

    Raises :class:`~gzinertia.physics.bem.BemUnavailableError` (a
    :class:`~gzinertia.errors.GzInertiaError`) with the CLI's install hint when Capytaine or
    manifold3d is missing (``pip install 'gzinertia[bem]'``).
    """
    from gzinertia.arguments import bem_settings
    from gzinertia.edit.added_mass_edits import bem_edit
    from gzinertia.physics.bem import require_bem

    require_bem()
    settings = bem_settings(
        density, panel_size=panel_size, quality=quality, shapes=shapes, element=geometry,
        cache=cache, waterline=waterline, depth=None if depth == math.inf else depth,
        frequency=None if frequency == "zero" else frequency, together=together,
    )
    request = AddedMassRequest.of(path, links, model_paths, upgrade_version,
                                  replace_plugin_added_mass, allow_overlap)
    return _warned(bem_edit(request, settings))


#: What :func:`fix` makes: an :class:`~gzinertia.edit.edit_result.Edit` whose ``text`` is the
#: file's new text, whose ``links`` are, per repaired link, its
#: :class:`~gzinertia.edit.fix.LinkFix` (the codes repaired, ``repair``: ``I_BBcm_I`` before and
#: after, about the centre of mass in the inertial frame's axes, their principal moments and
#: their change, ``relative_change`` (of the largest) and ``moment_change`` (of each),
#: ``boundary``: the face of the valid set the result sits on; the mass and ``p_BoBcm_B`` before
#: and after), and whose ``pending`` are repairs that could not be written into a xacro (where to
#: write which value).
FixedFile = Edit


def fix(
    path: str | Path,
    *,
    method: Literal["nearest", "geometry", "balance"] = "nearest",
    links: str | None = None,
    select: Iterable[str] = (),
    all_links: bool = False,
    geometry: GeometryElement = "collision",
    move_com: bool = False,
    density: float | None = None,
    mass: float | None = None,
    tolerance: Literal["gz", "drake"] = "gz",
    model_paths: Sequence[str | Path] = (),
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
    xacro_env: Sequence[str] = (),
    trust_xacro: bool = False,
) -> Edit[LinkFix]:
    """The file's new text with invalid and implausible rigid inertia repaired, as
    ``gzinertia fix`` writes it (only the ``<inertia>`` children that change; ``<pose>`` with
    ``move_com``; a whole ``<inertial>`` for a link without one), and what changed per link.

    ``method``: ``"nearest"`` (the Frobenius-nearest valid ``I_BBcm_I``, principal axes kept:
    round-off and near misses), ``"geometry"`` (the uniform solid of the link's ``geometry``,
    collisions or visuals, with the declared mass; ``density`` or ``mass`` for links without
    ``<inertial>`` or positive mass; ``move_com`` moves the centre of mass to the solid's
    centroid) or ``"balance"`` (MuJoCo's ``balanceinertia``). ``links``: a glob on scoped link
    names; ``select``: codes or prefixes among those the method repairs (default: all of them);
    ``all_links``: every selected link, not only those with findings; ``tolerance``: whose
    validity check decides (``"gz"``: libsdformat's, ``"drake"``); the repair satisfies both.
    URDF and xacro files are repaired in place of their own values (``package_paths``,
    ``xacro_args``, ``xacro_env`` and ``trust_xacro`` as for :func:`read`). Links not
    repaired, and why, are :class:`GzInertiaWarning`; so are ``pending`` repairs.
    """
    from gzinertia.edit.fix import FixOptions
    from gzinertia.edit.fix_file import fix_file
    from gzinertia.vocabulary.model_suffixes import is_urdf_path

    options = FixOptions(
        method=method, pattern=links, select=tuple(s.strip().upper() for s in select),
        all_links=all_links, geometry=geometry, move_com=move_com, density=density, mass=mass,
        tolerance=tolerance,
    )
    options.validate()  # a FixOptionsError is a ValueError
    p = Path(path)
    if xacro_args is not None and not is_urdf_path(p):
        raise ValueError(f"xacro_args go with a .xacro file, not {p.name}")
    policy = ModelInput.of(xacro_env=xacro_env, trust_xacro=trust_xacro).xacro_policy
    result = fix_file(p, options, model_paths, package_paths=package_paths,
                      xacro_args=xacro_args, xacro_policy=policy)
    _warn([*result.skipped, *(f"not written: {p}" for p in result.pending)])
    return result


def hydrostatics(
    path: str | Path | SdfDocument,
    *,
    model: str | None = None,
    density: float | None = None,
    fluid: Literal["freshwater", "seawater", "air"] | None = None,
    world: str | Path | None = None,
    waterline: float | None = None,
    trim: bool = True,
    model_paths: Sequence[str | Path] = (),
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
    xacro_env: Sequence[str] = (),
    trust_xacro: bool = False,
) -> HydrostaticsResult:
    """Displaced volume, buoyancy, weight, centres of mass G and buoyancy B per model, free
    body and link, as gz-sim's Buoyancy system computes them from the collisions (and by exact
    geometry), with the floating equilibrium of surface craft: what
    ``gzinertia hydrostatics --json`` prints, as :class:`HydrostaticsResult`.

    ``path``: a file (read as :func:`read` reads it, with ``model_paths``, ``package_paths``,
    ``xacro_args``, ``xacro_env`` and ``trust_xacro``) or a document :func:`read` returned (its
    file gives the world and the models' poses). The fluid is the Buoyancy plugin of the world
    in ``world`` (default: the file itself), else Gazebo's default (1000 kg/m³ with the world's
    gravity); ``density`` (kg/m³) or ``fluid`` overrides its density and makes it uniform.
    ``model``: a glob on top-level model names. ``waterline``: the free-surface height z (m,
    world) at which each free body's floating equilibrium is solved (default: a graded fluid's
    lowest layer, for bodies that float there); ``trim=False`` solves the heave only.
    """
    from gzinertia.records import SdfDocument

    doc = path if isinstance(path, SdfDocument) else read(
        path, model_paths=model_paths, package_paths=package_paths, xacro_args=xacro_args,
        xacro_env=xacro_env, trust_xacro=trust_xacro)
    return document_hydrostatics(doc, model=model, density=density, fluid=fluid, world=world,
                                 waterline=waterline, trim=trim)


def migrate(
    path: str | Path,
    *,
    to: Literal["gz-sim"] = "gz-sim",
    keep_classic: bool = False,
    force: bool = False,
    upgrade_version: bool = True,
    model_paths: Sequence[str | Path] = (),
) -> Edit[Any]:
    """The file's classic marine plugin blocks (UUV Simulator's underwater-object plugin, VRX's
    USV dynamics) as their gz-sim equivalent, as ``gzinertia migrate`` writes them:
    ``<fluid_added_mass>`` about the link origin in link axes (the symmetric part of the exact
    matrix; in a URDF, the Hydrodynamics plugin's ``<iDotJ>`` terms) and gz-sim Hydrodynamics
    damping terms (gz-sim's sign); ``model_paths``: model or package paths; the per-link outcome
    (:class:`gzinertia.edit.migrate.MigratedLink`) holds the gz-sim equivalent, what could not
    be exact and the net-buoyancy change. The classic blocks are removed unless
    ``keep_classic``. Warnings are :class:`GzInertiaWarning` too. Writes nothing
    (:meth:`Edit.write`); ``docs/migrate.md``."""
    from gzinertia.edit.migrate import migrate as run_migrate

    return _warned(run_migrate(path, to=to, keep_classic=keep_classic, force=force,
                               upgrade_version=upgrade_version, model_paths=model_paths))
