"""The library's front door: read a model, look at its links, fit, audit, edit.

Everything here is re-exported by :mod:`gzinertia` (``import gzinertia``) and imported on first
use, so importing the package costs nothing until a function is called.

Conventions (``docs/conventions.md``): every 6x6 is a
:class:`~gzinertia.physics.spatial_matrix.SpatialMatrix` that knows its point and axes and gives
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from gzinertia.edit.edit_result import Edit, decoded_text
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.model_input import ModelInput
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.fluids import DEFAULT_FLUID_DENSITY
from gzinertia.vocabulary.geometry import GeometryElement
from gzinertia.vocabulary.scoped_names import top_scope

if TYPE_CHECKING:
    from gzinertia.audit.findings import Finding
    from gzinertia.edit.addmass_bem import LinkBem
    from gzinertia.edit.fix import LinkFix
    from gzinertia.physics.bem import Quality
    from gzinertia.physics.fits import EllipsoidFit, FitMethod
    from gzinertia.physics.flotation import Flotation
    from gzinertia.physics.hydrostatics import ModelHydrostatics
    from gzinertia.records import BuoyancyWorld, LinkRecord, SdfDocument
    from gzinertia.sdf.buoyancy import BuoyancySystem

# duplicates: __all__ lists (here and gzinertia/__init__.py) are alike by shape only
__all__ = [
    "BemFile",
    "FixedFile",
    "GzInertiaWarning",
    "HydrostaticsResult",
    "HydrostaticsSettingsError",
    "Reader",
    "addmass",
    "addmass_bem",
    "addmass_from",
    "audit_paths",
    "convert",
    "document_hydrostatics",
    "fit",
    "fix",
    "hydro",
    "hydrostatics",
    "read",
    "readers",
    "register_reader",
    "shift",
]

#: Reads one file (and what it includes) into a document of links: ``(path, model_paths)``.
Reader = Callable[[Path, Sequence[str | Path]], "SdfDocument"]

#: Readers registered by lower-case file suffix, as ``"module:function"`` (imported on first
#: use) or a callable (:func:`register_reader`). Any other file goes to the built-in reader,
#: :func:`gzinertia.sdf.model_file.read_model_file` (SDFormat, URDF and xacro by suffix).
_READERS: dict[str, str | Reader] = {}
_BUILT_IN_READER = "gzinertia.sdf.model_file:read_model_file"


class GzInertiaWarning(UserWarning):
    """Something an edit or a read did not do, or did with a caveat (the CLI's warnings)."""


def register_reader(suffix: str, reader: Reader | str) -> None:
    """Reads files ending in ``suffix`` (``".urdf"``; case-insensitive) with ``reader``: a
    callable ``(path, model_paths) -> SdfDocument`` or a ``"module:function"`` string imported
    on first use. Replaces the reader registered for that suffix."""
    if not suffix.startswith("."):
        raise ValueError(f"a suffix starts with '.', not {suffix!r}")
    _READERS[suffix.lower()] = reader


def readers() -> dict[str, str | Reader]:
    """The registered readers by suffix (a copy)."""
    return dict(_READERS)


def _reader_for(path: Path) -> Reader:
    entry = _READERS.get(path.suffix.lower(), _BUILT_IN_READER)
    if callable(entry):
        return entry
    module_name, _, attr = entry.partition(":")
    import importlib

    try:
        module = importlib.import_module(module_name)
        function: Reader = getattr(module, attr)
    except (ImportError, AttributeError):
        raise GzInertiaError(
            f"{path}: no reader for {path.suffix} files in this installation ({entry})"
        ) from None
    return function


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
        return _reader_for(p)(p, paths)
    if p.suffix.lower() in _READERS:
        raise ValueError(
            f"xacro_args go to the built-in reader; the reader registered for {p.suffix} files "
            "takes (path, model_paths) only"
        )
    from gzinertia.sdf.model_file import read_model_file
    from gzinertia.urdf.reader import is_xacro

    if not is_xacro(str(p)):
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


def _text(new: bytes) -> str:
    """The edited file's text, decoded as its XML declaration says (UTF-8 otherwise)."""
    return decoded_text(new)


def _warn(lines: Iterable[str]) -> None:
    for line in lines:
        warnings.warn(line, GzInertiaWarning, stacklevel=3)


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
    from gzinertia.edit.addmass import FitChooser, add_mass
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(path):
        return _urdf_fit_edit(Path(path), method, density, links, model_paths)

    result = add_mass(
        Path(path), fit_for=FitChooser(method), density=density, pattern=links,
        upgrade_version=upgrade_version, model_paths=model_paths,
        replace_plugin_added_mass=replace_plugin_added_mass, allow_overlap=allow_overlap,
    )
    _warn([*result.skipped, *result.warnings])
    return _text(result.new)


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
    return _text(result.new)


# duplicates: the public functions' keyword defaults are alike by shape only
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
    return _text(result.new)


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
    return _text(result.new)


def _urdf_fit_edit(
    path: Path, method: FitMethod, density: float, links: str | None,
    package_paths: Sequence[str | Path],
) -> str:
    """:func:`addmass` on a URDF or xacro file: the ``<gazebo>`` Hydrodynamics block the CLI
    writes (URDF has no ``<fluid_added_mass>``)."""
    from gzinertia.edit.addmass import FitChooser
    from gzinertia.urdf.addmass import add_mass_urdf

    result = add_mass_urdf(path, fit_for=FitChooser(method), density=density, pattern=links,
                           package_paths=package_paths)
    _warn([*result.skipped, *result.warnings])
    return _text(result.new)


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
    so the audit reports it stale (GZI212) when they change. A URDF or xacro file gets the
    ``<gazebo>`` Hydrodynamics block instead (``model_paths`` then being package paths).
    """
    from gzinertia.edit.bem_import import add_mass_from
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(path):  # the <gazebo> Hydrodynamics block (URDF has no <fluid_added_mass>)
        from gzinertia.edit.bem_import import add_mass_from_urdf

        edit = add_mass_from_urdf(
            Path(path), result=Path(result), pattern=link, frequency=frequency, about=about,
            axes_rpy=axes_rpy, density=density, package_paths=model_paths,
            wamit_length=wamit_length,
            geometry=(None if shapes is None else tuple(shapes), geometry),
        )
        _warn([*edit.skipped, *edit.warnings])
        return _text(edit.new)
    imported = add_mass_from(
        Path(path), result=Path(result), pattern=link, frequency=frequency, about=about,
        axes_rpy=axes_rpy, density=density, upgrade_version=upgrade_version,
        model_paths=model_paths, wamit_length=wamit_length,
        geometry=(None if shapes is None else tuple(shapes), geometry),
    )
    return imported.text


#: What :func:`addmass_bem` makes: an :class:`~gzinertia.edit.edit_result.Edit` whose ``links``
#: are, per link solved, its :class:`~gzinertia.edit.addmass_bem.LinkBem` (the link, the shapes
#: meshed, their digest, and the :class:`~gzinertia.physics.bem.BemResult`: ``A_BBo_B`` about Bo
#: in link axes, panel counts, the estimated ``relative_error``, density, Capytaine's version);
#: ``text`` is the file's new text.
BemFile = Edit


# duplicates: the keyword parameters of add_mass_bem, alike by shape only
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
    from gzinertia.edit.addmass_bem import add_mass_bem
    from gzinertia.physics.bem import require_bem

    require_bem()
    settings = bem_settings(
        density, panel_size=panel_size, quality=quality, shapes=shapes, element=geometry,
        cache=cache, waterline=waterline, depth=None if depth == math.inf else depth,
        frequency=None if frequency == "zero" else frequency, together=together,
    )
    from gzinertia.sdf.model_file import is_urdf_path

    if is_urdf_path(path):  # the <gazebo> Hydrodynamics block (URDF has no <fluid_added_mass>)
        from gzinertia.edit.addmass_bem import add_mass_bem_urdf

        result, solved = add_mass_bem_urdf(
            Path(path), settings=settings, pattern=links, package_paths=model_paths
        )
    else:
        result, solved = add_mass_bem(
            Path(path), settings=settings, pattern=links, upgrade_version=upgrade_version,
            model_paths=model_paths, replace_plugin_added_mass=replace_plugin_added_mass,
            allow_overlap=allow_overlap,
        )
    _warn([*result.skipped, *result.warnings])
    return Edit(result.path, result.old, result.new, solved, result.skipped, result.warnings,
                result.notes)


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
    from gzinertia.edit.fix import fix as run_fix
    from gzinertia.sdf.model_file import is_urdf_path

    options = FixOptions(
        method=method, pattern=links, select=tuple(s.strip().upper() for s in select),
        all_links=all_links, geometry=geometry, move_com=move_com, density=density, mass=mass,
        tolerance=tolerance,
    )
    options.validate()  # a FixOptionsError is a ValueError
    p = Path(path)
    if is_urdf_path(p):
        from gzinertia.urdf.fix import fix_urdf

        policy = ModelInput.of(xacro_env=xacro_env, trust_xacro=trust_xacro).xacro_policy
        result = fix_urdf(p, options, [*package_paths, *model_paths], xacro_args,
                          xacro_policy=policy)
    else:
        if xacro_args is not None:
            raise ValueError(f"xacro_args go with a .xacro file, not {p.name}")
        result = run_fix(p, options, model_paths)
    _warn([*result.skipped, *(f"not written: {p}" for p in result.pending)])
    return result


@dataclass(frozen=True, repr=False, eq=False)
class HydrostaticsResult(ValueRecord):
    """What :func:`hydrostatics` computed: the numbers of ``gzinertia hydrostatics --json``
    (docs/hydrostatics.md) as typed data. SI units; points in the world frame W unless named
    otherwise.

    ``fluid`` is the fluid used (:class:`~gzinertia.records.BuoyancyWorld`: uniform or graded,
    density, layers, ``<enable>``, gravity ``g_W``) and ``fluid_origin`` where it came from.
    ``models``, in file order, are
    :class:`~gzinertia.physics.hydrostatics.ModelHydrostatics`: ``mass``, ``volume``,
    ``buoyancy``, ``weight``, ``net``, ``p_WG``, ``p_WB``, ``p_BG_W``, ``righting_moment_W``,
    ``restoring_stiffness`` (and ``*_exact`` by exact geometry), ``links``
    (:class:`~gzinertia.physics.hydrostatics.LinkHydrostatics`) and ``bodies``, the model's
    free bodies with the same numbers. ``flotation`` maps each model's name and each free
    body's name to its floating equilibrium
    (:class:`~gzinertia.physics.flotation.Flotation`: heave, trim, draft, ``GM_T``, ``GM_L``;
    ``None`` where none is solved, and for a model of several free bodies, which float apart).
    """

    path: str
    fluid: BuoyancyWorld
    fluid_origin: str
    models: tuple[ModelHydrostatics, ...]
    flotation: Mapping[str, Flotation | None]
    #: Whether Gazebo's Buoyancy system acts (:data:`gzinertia.sdf.buoyancy.BuoyancySystem`):
    #: ``"absent"`` in a world that loads none (Gazebo applies no buoyancy: every number is
    #: as if one were added), ``"unknown"`` for a model file (the fluid is assumed).
    buoyancy_system: BuoyancySystem = "loaded"

    @property
    def caveat(self) -> str | None:
        """What the numbers mean when the Buoyancy system is absent or unknown
        (:func:`gzinertia.sdf.buoyancy.buoyancy_system_caveat`), else ``None``."""
        from gzinertia.sdf.buoyancy import buoyancy_system_caveat

        return buoyancy_system_caveat(self.buoyancy_system, self.fluid.density)

    # duplicates: a lookup by name with the known names in the KeyError, as SdfDocument.link
    def model(self, name: str) -> ModelHydrostatics:
        """The model with this (top-level) name (``KeyError`` naming the models otherwise)."""
        for m in self.models:
            if m.name == name:
                return m
        from gzinertia.wording import bounded

        known = bounded(m.name for m in self.models) or "none"
        raise KeyError(f"no model named {name!r} in {self.path} (models: {known})")


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

    if isinstance(path, SdfDocument):
        doc = path
    else:
        doc = read(path, model_paths=model_paths, package_paths=package_paths,
                   xacro_args=xacro_args, xacro_env=xacro_env, trust_xacro=trust_xacro)
    return document_hydrostatics(doc, model=model, density=density, fluid=fluid, world=world,
                                 waterline=waterline, trim=trim)


class HydrostaticsSettingsError(SettingError):
    """Settings of :func:`hydrostatics` that do not go together or a value it refuses: a
    :class:`~gzinertia.errors.SettingError` (its ``key`` the setting; the message names the
    keyword argument, the command line's rendering the flag)."""


def document_hydrostatics(
    doc: SdfDocument,
    *,
    tree: Any = None,
    model: str | None = None,
    density: float | None = None,
    fluid: str | None = None,
    world: str | Path | None = None,
    waterline: float | None = None,
    trim: bool = True,
) -> HydrostaticsResult:
    """:func:`hydrostatics` of a document already read: the one assembly of fluid, models,
    free bodies and flotation that the library and the ``hydrostatics`` command share.

    ``tree``: the document's parsed XML (an lxml element) when its file cannot be read again
    (standard input); the world's Buoyancy plugin, gravity and model poses are then read from
    it. The other arguments are :func:`hydrostatics`'s; a bad combination raises
    :class:`HydrostaticsSettingsError` (a :class:`ValueError`).
    """
    from dataclasses import replace
    from fnmatch import fnmatchcase

    from gzinertia.arguments import check_fluid, fluid_density
    from gzinertia.options import option
    from gzinertia.physics.flotation import model_flotation
    from gzinertia.physics.hydrostatics import model_hydrostatics
    from gzinertia.records import BuoyancyWorld
    from gzinertia.sdf.buoyancy import buoyancy_system_of, read_gravity, read_model_poses

    check_fluid(density, fluid, HydrostaticsSettingsError)
    if waterline is not None and not math.isfinite(waterline):
        raise HydrostaticsSettingsError(
            "waterline", "{waterline} must be a finite height in m, not {value!r}",
            value=waterline,
        )
    file = doc.path
    world_file, world_tree = (str(world), None) if world is not None else (file, tree)
    plugin, system = buoyancy_system_of(world_file, world_tree)
    if plugin is not None:
        chosen, origin = plugin, f"Buoyancy plugin at {plugin.source}"
    else:
        chosen = BuoyancyWorld(g_W=read_gravity(world_file, world_tree))
        origin = "no Buoyancy plugin read: 1000 kg/m^3 assumed"
    if fluid is not None:
        chosen = replace(chosen, kind="uniform", density=fluid_density(None, fluid), layers=())
        origin = f"{option('fluid')} {fluid}"
    elif density is not None:
        chosen = replace(chosen, kind="uniform", density=density, layers=())
        origin = f"{option('density')} {density:g}"
    models = model_hydrostatics(doc.links, chosen, read_model_poses(file, tree))
    if model is not None:
        models = [m for m in models if fnmatchcase(m.name, model)]
        if not models:
            from gzinertia.wording import bounded

            names = bounded(dict.fromkeys(top_scope(lk.name) for lk in doc.links))
            raise GzInertiaError(f"{file}: no model matches {model!r} (models: "
                                 f"{names or 'none'})")
    records = {link.name: link for link in doc.links}
    flotation: dict[str, Flotation | None] = {}
    for m in models:
        for body in m.bodies:
            flotation[body.name] = model_flotation(
                body, [records[link.name] for link in body.links], chosen, waterline, trim)
        # the model's own flotation: its one body's (several free bodies float apart)
        flotation[m.name] = flotation[m.bodies[0].name] if len(m.bodies) == 1 else None
    return HydrostaticsResult(file, chosen, origin, tuple(models), flotation, system)
