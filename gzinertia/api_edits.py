"""The library's edits: each reads a file and returns an :class:`~gzinertia.edit.edit_result.Edit`
(``old`` and ``new`` bytes, ``text``, per-link ``links``, ``skipped`` links with why,
``warnings``, ``.diff()``, ``.write()``); none writes a file by itself.

:func:`addmass` (ellipsoid fits), :func:`addmass_bem` (boundary elements), :func:`addmass_from`
(a result computed elsewhere), :func:`shift`, :func:`convert`, :func:`hydro` and :func:`fix`.
Re-exported by :mod:`gzinertia.api` and :mod:`gzinertia` (imported on first use). The command
line's edits call these functions and render the :class:`Edit` they return; what they skipped
and warned of is also issued here as :class:`GzInertiaWarning` (which the command line, printing
it itself, ignores). Every matrix written is ``A_BBo_B``: about the link origin Bo in link axes B,
linear-first ``[x y z p q r]`` as the spec orders it.

Each edit's ``data``: the file's bytes when they do not come from ``path`` (standard input,
named ``<stdin>``: relative URIs resolve against the working directory). The added-mass edits
read URDF and xacro too: their ``**source`` keywords are :func:`gzinertia.read`'s
(:class:`~gzinertia.model_input.ModelSource`; ``model_paths`` are searched for packages too),
with the target's ``gazebo`` and ``engine`` (:class:`~gzinertia.model_input.TargetedSource`).

Floor: the library face (imports the edits, never the CLI).
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import gzinertia.edit as edits
import gzinertia.physics
from gzinertia.audit.target_choice import file_target
from gzinertia.edit.added_mass_request import (
    ADDED_MASS_DEFAULTS,
    AddedMassKeywords,
    AddedMassRequest,
)
from gzinertia.edit.edit_result import Edit
from gzinertia.errors import SettingError
from gzinertia.gazebo.target import Target, refuse_added_mass_move
from gzinertia.model_input import (
    ModelInput,
    ModelSource,
    TargetedSource,
    TargetKeywords,
    takes_keywords,
)
from gzinertia.vocabulary.fluids import DEFAULT_FLUID_DENSITY
from gzinertia.vocabulary.geometry import GeometryElement
from gzinertia.vocabulary.model_suffixes import is_urdf_path

if TYPE_CHECKING:
    from typing_extensions import Unpack

    import gzinertia.edit.added_mass_edits
    import gzinertia.edit.addmass
    import gzinertia.edit.bem_arguments
    import gzinertia.edit.convert
    import gzinertia.edit.fin_table
    import gzinertia.edit.fix
    import gzinertia.edit.fix_file
    import gzinertia.edit.hydro
    import gzinertia.edit.migrate
    import gzinertia.edit.shift
    import gzinertia.physics.bem
    import gzinertia.physics.damping_strip
    import gzinertia.physics.fluid_forces
    from gzinertia.edit.addmass import LinkAddedMass
    from gzinertia.edit.addmass_bem import BemRunProgress, LinkBem
    from gzinertia.edit.bem_import import ImportedLink
    from gzinertia.edit.convert import ConvertedLink
    from gzinertia.edit.fin_table import FinTable
    from gzinertia.edit.fix import LinkFix
    from gzinertia.edit.hydro import LinkDamping
    from gzinertia.edit.migrate import MigratedLink
    from gzinertia.edit.shift import ShiftedLink
    from gzinertia.physics.bem import Quality
    from gzinertia.physics.damping_record import DampingChoice
    from gzinertia.physics.fits import EllipsoidFit, FitMethod
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

#: An :class:`~gzinertia.edit.edit_result.Edit` of any per-link outcome.
EditOf = TypeVar("EditOf", bound="Edit[Any]")

__all__ = [
    "BemFile", "FixedFile", "GzInertiaWarning", "addmass", "addmass_bem", "addmass_from",
    "convert", "fix", "hydro", "shift",
]


class GzInertiaWarning(UserWarning):
    """Something an edit or a read did not do, or did with a caveat (the CLI's warnings)."""


#: The package's folder: a warning is issued at the first line outside it that called in.
_PACKAGE = str(Path(__file__).resolve().parent)


def _callers_level() -> int:
    """The ``stacklevel`` of the first frame outside the package, seen from the caller of this
    function (the line of the user's call, whatever wrappers the call went through)."""
    frame, level = inspect.currentframe(), 0
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def _warned(edit: EditOf, *more: str) -> EditOf:
    """``edit`` after its skipped links, its warnings and ``more`` are issued as
    :class:`GzInertiaWarning` (at the line of the call into the library)."""
    level = _callers_level()
    for line in [*edit.skipped, *edit.warnings, *more]:
        warnings.warn(line, GzInertiaWarning, stacklevel=level)
    return edit


def _target(path: str | Path, target: TargetKeywords) -> Target:
    """The target of a call on ``path`` (:func:`~gzinertia.audit.target_choice.file_target`:
    the keywords, else the nearest settings file's, else the world's engine, else the
    default)."""
    return file_target(path, target.get("gazebo"), target.get("engine"))


def _request(path: str | Path, links: str | None, keywords: AddedMassKeywords) -> AddedMassRequest:
    """The request of an added-mass call on ``path``'s ``links`` with its ``keywords``."""
    return AddedMassRequest.asked(path, links, keywords, _target(path, keywords))


@takes_keywords(AddedMassKeywords, ADDED_MASS_DEFAULTS)
def addmass(
    path: str | Path,
    *,
    density: float = DEFAULT_FLUID_DENSITY,
    method: FitMethod = "volume",
    links: str | None = None,
    ellipsoid: EllipsoidFit | None = None,
    **options: Unpack[AddedMassKeywords],
) -> Edit[LinkAddedMass]:
    """Each selected link's Tuckerman added mass written as ``<fluid_added_mass>``
    (``A_BBo_B``: about the link origin in link axes, linear-first as the spec orders it) in a
    fluid of ``density`` kg/m³, fitted by ``method`` (see :func:`gzinertia.api.fit`), or of the
    one ``ellipsoid`` given (:func:`gzinertia.physics.fits.explicit_fit`, posed in the link
    frame; ``links`` must then select one link); ``links`` of the :class:`Edit` are each link's
    matrix and fit.

    ``links``: a glob on scoped link names (``None``: every link that moves). ``options``:
    :class:`~gzinertia.edit.added_mass_request.AddedMassKeywords` (the file's model input and
    target, ``upgrade_version``, ``replace_plugin_added_mass``, ``allow_overlap``, ``data``).
    The version is raised to SDF 1.10 when older unless ``upgrade_version=False``. Links
    skipped (static, without collisions, already covered by a Hydrodynamics plugin or by an
    overlapping ellipsoid) are reported as :class:`GzInertiaWarning`. A URDF or xacro file
    (which has no ``<fluid_added_mass>``) gets the ``<gazebo>`` Hydrodynamics block
    ``gzinertia addmass`` writes there, without the links beyond the plugin's explicit bound
    (GZI506: said).
    The file is read as :func:`gzinertia.read` reads it, for the target ``gazebo``,
    ``engine``; an SDFormat file is refused where the target ignores ``<fluid_added_mass>``
    (GZI601; ``engine="dartsim"`` writes it anyway).
    """
    request = _request(path, links, options)
    fits = edits.addmass.FitChooser
    chooser = fits(method) if ellipsoid is None else fits(fixed=ellipsoid)
    return _warned(edits.added_mass_edits.ellipsoid_edit(request, chooser, density))


def shift(
    path: str | Path,
    link: str,
    *,
    source: Literal["com", "origin"] | tuple[float, float, float],
    axes: Literal["link", "inertial"] = "link",
    force: bool = False,
    model_paths: Sequence[str | Path] = (),
    data: bytes | None = None,
) -> Edit[ShiftedLink]:
    """One link's ``<fluid_added_mass>``, computed about ``source`` (``"com"``, ``"origin"``
    or a point ``(x, y, z)`` in link frame, m) in ``axes``, moved to the link origin in link
    axes by the exact change of point (what the spec wants); the :class:`Edit`'s one
    ``links`` item says from where, and the diagonal before and after.

    ``link`` is a glob matching exactly one link. A matrix gzinertia wrote is already about the
    origin: shifting it again raises unless ``force``.
    """
    return _warned(edits.shift.shift(Path(path), pattern=link, point=source, axes=axes,
                                     force=force, model_paths=model_paths, data=data))


@takes_keywords(TargetKeywords)
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
    data: bytes | None = None,
    **target: Unpack[TargetKeywords],
) -> Edit[ConvertedLink]:
    """Added mass moved between the Hydrodynamics plugin's ``<iDotJ>`` terms and
    ``<fluid_added_mass>`` (``to="sdf"`` or ``to="hydro"``), so it counts once; the
    :class:`Edit`'s ``links`` are each link converted, its sign and ``A_BBo_B``.

    ``sign``: ``"fossen"`` (negative derivatives, ``A = -D``), ``"physical"`` (``A = D``) or
    ``"auto"`` (from the diagonal; ``to="sdf"`` only). ``to="sdf"`` sets the plugin's
    ``<disable_added_mass>`` unless ``remove_plugin_terms`` (``to="sdf"`` only).
    ``target``: ``gazebo`` and ``engine`` name the Gazebo release and physics engine the file
    is for, as the audit's target (:class:`~gzinertia.model_input.TargetKeywords`; default:
    the newest stable release with dartsim, docs/releases.md):
    the move is refused, with why, where that target would ignore ``<fluid_added_mass>``
    (``to="sdf"``: GZI601) or deprecates the plugin's added mass that its engine replaces
    (``to="hydro"``: GZI602), so the audit under the same target finds nothing new.
    """
    p = Path(path)
    chosen = _target(p, target)
    if to == "sdf":
        refuse_added_mass_move(to, chosen)
        return _warned(edits.convert.hydro_to_sdf(
            p, pattern=links, sign=sign, remove_plugin_terms=remove_plugin_terms, force=force,
            model_paths=model_paths, upgrade_version=upgrade_version, data=data))
    if to != "hydro":
        raise ValueError(f"to must be 'sdf' or 'hydro', not {to!r}")
    if remove_plugin_terms:
        raise SettingError("remove_plugin_terms", "{remove_plugin_terms} goes with {hydro_to_sdf}")
    if sign == "auto":
        raise SettingError("sign", "{sdf_to_hydro} needs {sign_fossen_or_physical}")
    refuse_added_mass_move(to, chosen)
    return _warned(edits.convert.sdf_to_hydro(p, pattern=links, sign=sign,
                                              model_paths=model_paths, data=data))


@takes_keywords(TargetKeywords)
def hydro(
    path: str | Path,
    links: str,
    *,
    density: float = DEFAULT_FLUID_DENSITY,
    viscosity: float = 1.0e-3,
    method: DampingChoice | FitMethod = "mujoco",
    fit: FitMethod | None = None,
    speed: float | None = None,
    couplings: bool = False,
    cross_terms: bool = False,
    force: bool = False,
    model_paths: Sequence[str | Path] = (),
    coefficients: EllipsoidFluidCoefficients | None = None,
    data: bytes | None = None,
    fins: str | Path | FinTable | None = None,
    **target: Unpack[TargetKeywords],
) -> Edit[LinkDamping]:
    """Hydrodynamics plugin damping terms written for the links matching the glob ``links``.

    The terms (``<iJ>`` linear, ``<iJabsK>`` quadratic) have Fossen's negative sign, link axes,
    about the link origin, for a fluid of ``density`` kg/m³ and dynamic ``viscosity`` Pa·s;
    ``method`` says where they come from:

    * ``"mujoco"`` (the default): MuJoCo's ellipsoid fluid model on the ``fit`` ellipsoids
      (``None``: MuJoCo's own, ``"mujoco"``) with MuJoCo's 5 ``coefficients`` (``None``: its
      defaults), ``couplings`` and ``cross_terms`` as :func:`gzinertia.edit.hydro.link_damping`
      takes them; ``"volume"`` and ``"inertia"`` (the fit, as earlier releases took it here)
      select this model on that fit;
    * ``"strip"`` (slender hulls: strip theory, friction at ``speed`` m/s, default 1.5),
      ``"morison"`` (bluff bodies and frames: per-member drag), ``"auto"`` (chosen per link
      from its shape): :func:`gzinertia.physics.damping_estimate.damping_estimate`; these take
      none of the MuJoCo model's settings.

    ``fins``: strip theory's fins, a fin file (:mod:`gzinertia.edit.fin_table`) or its table.
    The :class:`Edit`'s ``links``: each link's terms with their fit and combined-motion error
    (MuJoCo) or estimate (method, reason, assumptions, band). Terms a plugin has are replaced
    only with ``force``. ``target``: ``gazebo``, ``engine``, as :func:`convert` takes them; a
    link's ``<fluid_added_mass>`` turns its plugin's added mass off only where the target
    applies the element (elsewhere it is left on, said)."""
    damping: DampingChoice = "mujoco"
    if method in ("volume", "inertia", "explicit"):
        fit = fit or method  # type: ignore[assignment]
    else:
        damping = method  # type: ignore[assignment]
    if speed is not None and damping not in ("strip", "auto"):
        raise SettingError("speed", "{speed} is strip theory's design speed: it applies to "
                           "{method} strip and auto only")
    return _warned(edits.hydro.hydro(
        Path(path), pattern=links, method=fit or "mujoco", density=density,
        viscosity=viscosity,
        coefs=coefficients or gzinertia.physics.fluid_forces.EllipsoidFluidCoefficients(),
        couplings=couplings, model_paths=model_paths, cross_terms=cross_terms, force=force,
        data=data, damping=damping,
        speed=gzinertia.physics.damping_strip.DEFAULT_SPEED if speed is None else speed,
        target=_target(path, target),
        fins=edits.fin_table.read_fin_table(fins) if isinstance(fins, (str, Path)) else fins))


@takes_keywords(AddedMassKeywords, ADDED_MASS_DEFAULTS)
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
    **options: Unpack[AddedMassKeywords],
) -> Edit[ImportedLink]:
    """A boundary-element result computed elsewhere written as one link's
    ``<fluid_added_mass>`` (``A_BBo_B``: about the link origin Bo in link axes B), as
    ``gzinertia addmass --from`` writes it; the :class:`Edit`'s one ``links`` item names the
    link and the matrix written.

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
    instead (refused beyond the plugin's explicit bound, GZI506). ``options``: as
    :func:`addmass` takes them.
    """
    request = _request(path, link, options)
    read = edits.added_mass_edits.ResultFile(
        Path(result), frequency, about, axes_rpy, density, wamit_length,
        (None if shapes is None else tuple(shapes), geometry))
    return _warned(edits.added_mass_edits.import_edit(request, read))


#: What :func:`addmass_bem` makes: an :class:`~gzinertia.edit.edit_result.Edit` whose ``links``
#: are, per link solved, its :class:`~gzinertia.edit.addmass_bem.LinkBem` (the link, the shapes
#: meshed, their digest, and the :class:`~gzinertia.physics.bem.BemResult`: ``A_BBo_B`` about Bo
#: in link axes, panel counts, the estimated ``relative_error``, density, Capytaine's version);
#: ``text`` is the file's new text.
BemFile = Edit


@takes_keywords(AddedMassKeywords, ADDED_MASS_DEFAULTS)
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
    progress: BemRunProgress | None = None,
    **options: Unpack[AddedMassKeywords],
) -> Edit[LinkBem]:
    """Each selected link's added mass from a boundary-element solve (Capytaine, direct
    method) written as ``<fluid_added_mass>`` (``A_BBo_B``: about the link origin Bo in link
    axes B, linear-first as the spec orders it) with its provenance comment, as
    ``gzinertia addmass --bem`` writes it (docs/bem.md); and each link's solve. A URDF or
    xacro file gets the ``<gazebo>`` Hydrodynamics block instead (``together`` is refused
    there; so are links beyond the plugin's explicit bound, GZI506). ``options``: as
    :func:`addmass` takes them.

    A separate function from :func:`addmass` (whose ``method`` is the ellipsoid fit): the solve
    takes its own settings and returns its own per-link outcome (panels, error estimate).
    ``geometry``: mesh the link's collisions or its visuals; ``shapes``: their names (``None``:
    all). ``panel_size`` (m) or ``quality`` (``"fast"``, ``"default"``, ``"fine"``) set the
    resolution. ``waterline``: a free surface at this world height z (m; ``None``: unbounded
    fluid; ``"auto"``: at each link's floating draft, heel and trim, from its free body's
    hydrostatic equilibrium in water of ``density``, recorded in each
    :class:`~gzinertia.edit.addmass_bem.LinkBem`'s ``floating``), with ``depth`` (m) and the
    ``frequency`` limit; ``together``: one problem for all
    selected links. ``cache``: read and write the result cache. ``progress`` is told each
    link and solve (:class:`~gzinertia.edit.addmass_bem.BemRunProgress`). Skipped links and
    results whose error estimate exceeds a few percent are reported as
    :class:`GzInertiaWarning`.

    Raises :class:`~gzinertia.physics.bem.BemUnavailableError` (a
    :class:`~gzinertia.errors.GzInertiaError`) with the CLI's install hint when Capytaine or
    manifold3d is missing (``pip install 'gzinertia[bem]'``).
    """
    gzinertia.physics.bem.require_bem()
    settings = edits.bem_arguments.bem_settings(
        density, panel_size=panel_size, quality=quality, shapes=shapes, element=geometry,
        cache=cache, waterline=waterline, depth=None if depth == math.inf else depth,
        frequency=None if frequency == "zero" else frequency, together=together,
    )
    request = _request(path, links, options)
    return _warned(edits.added_mass_edits.bem_edit(request, settings, progress))


#: What :func:`fix` makes: an :class:`~gzinertia.edit.edit_result.Edit` whose ``text`` is the
#: file's new text, whose ``links`` are, per repaired link, its
#: :class:`~gzinertia.edit.fix.LinkFix` (the codes repaired, ``repair``: ``I_BBcm_I`` before and
#: after, about the centre of mass in the inertial frame's axes, their principal moments and
#: their change, ``relative_change`` (of the largest) and ``moment_change`` (of each),
#: ``boundary``: the face of the valid set the result sits on; the mass and ``p_BoBcm_B`` before
#: and after), and whose ``pending`` are repairs that could not be written into a xacro (where to
#: write which value).
FixedFile = Edit


@takes_keywords(ModelSource)
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
    data: bytes | None = None,
    **source: Unpack[ModelSource],
) -> Edit[LinkFix]:
    """Invalid and implausible rigid inertia repaired, as ``gzinertia fix`` writes it (only
    the ``<inertia>`` children that change; ``<pose>`` with ``move_com``; a whole
    ``<inertial>`` for a link without one), and what changed per link.

    ``method``: ``"nearest"`` (the Frobenius-nearest valid ``I_BBcm_I``, principal axes kept:
    round-off and near misses), ``"geometry"`` (the uniform solid of the link's ``geometry``,
    collisions or visuals, with the declared mass; ``density`` or ``mass`` for links without
    ``<inertial>`` or positive mass; ``move_com`` moves the centre of mass to the solid's
    centroid) or ``"balance"`` (MuJoCo's ``balanceinertia``). ``links``: a glob on scoped link
    names; ``select``: codes or prefixes among those the method repairs (default: all of them);
    ``all_links``: every selected link, not only those with findings; ``tolerance``: whose
    validity check decides (``"gz"``: libsdformat's, ``"drake"``); the repair satisfies both.
    URDF and xacro files are repaired in place of their own values (``source``: read as
    :func:`gzinertia.read` reads them). Links not
    repaired, and why, are :class:`GzInertiaWarning`; so are ``pending`` repairs.
    """
    options = edits.fix.FixOptions(
        method=method, pattern=links, select=tuple(s.strip().upper() for s in select),
        all_links=all_links, geometry=geometry, move_com=move_com, density=density, mass=mass,
        tolerance=tolerance,
    )
    options.validate()  # a FixOptionsError is a ValueError
    p, given = Path(path), ModelInput.given(source)
    xacro_args = source.get("xacro_args")
    if xacro_args is not None and not is_urdf_path(p):
        raise ValueError(f"xacro_args go with a .xacro file, not {p.name}")
    result = edits.fix_file.fix_file(
        p, options, given.model_paths, package_paths=given.package_paths,
        xacro_args=xacro_args, xacro_policy=given.xacro_policy, data=data)
    return _warned(result, *(f"not written: {p}" for p in result.pending))


@takes_keywords(TargetedSource)
def migrate(
    path: str | Path,
    *,
    to: Literal["gz-sim", "uuv-simulator"] = "gz-sim",
    keep_classic: bool = False,
    force: bool = False,
    upgrade_version: bool = True,
    data: bytes | None = None,
    buoyancy: Literal["keep", "proxy"] = "keep",
    **source: Unpack[TargetedSource],
) -> Edit[MigratedLink]:
    """The file's classic marine plugin blocks (UUV Simulator's underwater-object plugin, VRX's
    USV dynamics) as their gz-sim equivalent, as ``gzinertia migrate`` writes them:
    ``<fluid_added_mass>`` about the link origin in link axes (the symmetric part of the exact
    matrix; in a URDF, the Hydrodynamics plugin's ``<iDotJ>`` terms) and gz-sim Hydrodynamics
    damping terms (gz-sim's sign); the per-link outcome
    (:class:`gzinertia.edit.migrate.MigratedLink`) holds the gz-sim equivalent, what could not
    be exact and the net-buoyancy change (``buoyancy="proxy"``: a proxy collision floats the
    declared volume). The classic blocks are removed unless ``keep_classic``.
    ``to="uuv-simulator"`` goes back: each link's gz-sim added mass and Hydrodynamics terms as
    UUV Simulator's block (what it cannot hold said). ``source``: the file and its target, as
    :func:`addmass` takes them (model and package paths are searched alike); a xacro file is
    migrated where each block is written, a block not written literally is in ``pending``.
    Warnings are :class:`GzInertiaWarning` too. Writes nothing."""
    given = ModelInput.given(source)
    result = edits.migrate.migrate(
        path, to=to, keep_classic=keep_classic, force=force, upgrade_version=upgrade_version,
        model_paths=given.search_paths, data=data, xacro_args=source.get("xacro_args"),
        xacro_policy=given.xacro_policy, buoyancy=buoyancy, target=_target(path, source))
    return _warned(result, *(f"not written: {p}" for p in result.pending))
