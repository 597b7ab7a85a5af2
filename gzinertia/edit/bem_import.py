"""``gzinertia addmass FILE --from RESULT --link L``: an added mass computed elsewhere (a
Capytaine dataset written with ``assemble_dataset`` + ``to_netcdf``), moved exactly to the link
origin in link axes and written to ``<fluid_added_mass>``.

The dataset's ``added_mass`` (dims ``omega``, ``radiating_dof``, ``influenced_dof``; Capytaine's
rigid-body dofs Surge..Yaw are linear-first ``[x y z p q r]``) is about the dataset's
``rotation_center`` P, in the axes F of the mesh. ``--about "x y z"`` gives ``p_BoP_B`` (default:
the dataset's ``rotation_center``, read as link coordinates: the usual case of a hull mesh built
in the link frame), ``--axes "roll pitch yaw"`` gives ``R_BF`` (default: the identity). The
matrix is re-expressed in B (``Rb·A·Rbᵀ``) and moved from P to Bo (``Tᵀ·A·T``, DESIGN.md §4).
Capytaine writes datasets for free-surface problems only (an unbounded-fluid solve has no
dataset): the frequency matters, and is chosen with ``--frequency``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.edit.edit_result import Edit
from gzinertia.errors import Float64OverflowError, GzInertiaError
from gzinertia.numbers import (
    DECIMAL,
    FORTRAN,
    MAX_MAGNITUDE,
    NumberError,
    read_integer,
    read_number,
)
from gzinertia.options import option
from gzinertia.physics.added_mass import AddedMass
from gzinertia.physics.bem_provenance import IMPORT_PREFIX, dataset_digest, format_import_geometry
from gzinertia.physics.rotation import Pose
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

#: Largest dataset file read (bytes).
MAX_DATASET_BYTES = 256 * 1024 * 1024
#: Largest total of the variables a dataset import reads (bytes; 64 MiB is the added mass at
#: 230,000 frequencies), checked before they are read.
MAX_DATASET_VARIABLE_BYTES = 64 * 1024 * 1024
#: The variables of a Capytaine dataset the import reads; no other is read.
DATASET_VARIABLES = (
    "added_mass", "omega", "radiating_dof", "influenced_dof", "rho", "water_depth",
    "rotation_center",
)
RIGID_BODY_DOFS = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")


@dataclass(frozen=True, repr=False, eq=False)
class ImportedLink(ValueRecord):
    """The outcome of an import: the link it belongs to (its scoped name; the pattern given
    when no link was written) and the result moved to ``A_BBo_B``, about the link origin Bo in
    link axes B."""

    name: str
    A_BBo_B: AddedMass


@dataclass(frozen=True, repr=False, eq=False)
class ImportedAddedMass(ValueRecord):
    """``A_FP_F`` as read (linear-first, about P in F axes) and what the dataset says."""

    A: np.ndarray
    omega: float
    density: float
    rotation_center: tuple[float, float, float] | None
    description: str
    #: ``sha256:<16 hex>`` of the file's bytes (written in the comment: which result it was).
    digest: str = ""


def _omega_option(text: str) -> float:
    """``--frequency`` given as a number (rad/s), read as C reads a number."""
    try:
        return read_number(text.strip(), DECIMAL)
    except NumberError as exc:
        raise GzInertiaError(
            f"{option('frequency')} must be zero, infinite or a number in rad/s, not {text!r} "
            f"({exc.reason})"
        ) from None


def _frequency_index(omegas: np.ndarray, wanted: str | None, path: Path) -> int:
    values = ", ".join(f"{w:g}" for w in omegas)
    if wanted is None:
        if len(omegas) == 1:
            return 0
        raise GzInertiaError(
            f"{path}: the dataset holds {len(omegas)} frequencies (omega = {values} rad/s): "
            f"choose one with {option('frequency_choice')}"
        )
    key = wanted.strip().lower()
    target = 0.0 if key == "zero" else math.inf if key in ("infinite", "inf") else None
    if target is None:
        target = _omega_option(wanted)
    hits = [i for i, w in enumerate(omegas) if w == target or math.isclose(w, target, rel_tol=1e-9)]
    if not hits:
        raise GzInertiaError(
            f"{path}: no omega = {target:g} rad/s in the dataset (it holds {values})"
        )
    return hits[0]


def _open_needed(xr: Any, data: bytes, path: Path) -> Any:
    """The dataset's :data:`DATASET_VARIABLES` (those it has), loaded; nothing else is read.

    A NetCDF classic file is cut down to them first (:func:`gzinertia.netcdf_classic.subset`,
    sized before they are copied); another file (NetCDF-4/HDF5) is opened lazily and they are
    sized before they are loaded. Either way they may take :data:`MAX_DATASET_VARIABLE_BYTES`.
    """
    import io

    from gzinertia.netcdf_classic import NetcdfError, is_classic, subset

    engine = None
    if is_classic(data):
        try:
            data = subset(data, DATASET_VARIABLES, MAX_DATASET_VARIABLE_BYTES)
        except NetcdfError as exc:
            raise GzInertiaError(f"{path}: cannot read as a NetCDF dataset ({exc})") from None
        engine = "scipy"
    try:
        ds = xr.open_dataset(io.BytesIO(data), engine=engine)
        ds = ds.drop_vars([name for name in ds.variables if name not in DATASET_VARIABLES])
        total = sum(int(v.nbytes) for v in ds.variables.values())
        if total > MAX_DATASET_VARIABLE_BYTES:
            raise GzInertiaError(
                f"{path}: the variables the import reads declare {total} bytes, more than the "
                f"{MAX_DATASET_VARIABLE_BYTES} read"
            )
        return ds.load()
    except GzInertiaError:
        raise
    except Exception as exc:  # xarray/netCDF raise many types for unreadable files
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        hint = (
            " (an HDF5-based NetCDF-4 file: pip install h5netcdf to read it)"
            if data.startswith(b"\x89HDF")
            else ""
        )
        raise GzInertiaError(f"{path}: cannot read as a NetCDF dataset ({first}){hint}") from None


def read_capytaine_dataset(path: Path, frequency: str | None) -> ImportedAddedMass:
    """The added mass at one frequency of a Capytaine NetCDF dataset (errors name the file)."""
    try:
        import xarray as xr
    except ImportError:
        raise GzInertiaError(
            f"{option('bem_from')} needs xarray (and a NetCDF reader): pip install "
            "'gzinertia[bem]'"
        ) from None
    from gzinertia.safe_read import read_regular_file

    try:
        data = read_regular_file(path, MAX_DATASET_BYTES)
    except OSError as exc:
        raise GzInertiaError(f"{path}: cannot read ({exc.strerror or exc})") from None
    ds = _open_needed(xr, data, path)
    if "added_mass" not in ds:
        raise GzInertiaError(f"{path}: no 'added_mass' variable (not a Capytaine dataset?)")
    am = ds["added_mass"]
    for dim in am.dims:
        if dim not in ("omega", "radiating_dof", "influenced_dof") and am.sizes[dim] != 1:
            raise GzInertiaError(
                f"{path}: added_mass varies along {dim!r} ({am.sizes[dim]} values): one "
                "configuration at a time"
            )
    am = am.squeeze(drop=False)
    dofs_r = [str(d) for d in np.atleast_1d(am["radiating_dof"].values)]
    dofs_i = [str(d) for d in np.atleast_1d(am["influenced_dof"].values)]
    missing = [d for d in RIGID_BODY_DOFS if d not in dofs_r or d not in dofs_i]
    if missing:
        raise GzInertiaError(
            f"{path}: the dataset lacks the rigid-body dofs {', '.join(missing)} "
            "(a 6x6 needs Surge, Sway, Heave, Roll, Pitch, Yaw)"
        )
    omegas = (
        np.atleast_1d(np.asarray(am["omega"].values, dtype=float))
        if "omega" in am.coords
        else np.array([math.nan])
    )
    k = _frequency_index(omegas, frequency, path)
    sel = am.isel(omega=k) if "omega" in am.dims else am
    A = np.array(
        [
            [float(sel.sel(radiating_dof=r, influenced_dof=i)) for i in RIGID_BODY_DOFS]
            for r in RIGID_BODY_DOFS
        ]
    )
    if not np.all(np.abs(A) <= MAX_MAGNITUDE):  # NaN too
        raise GzInertiaError(
            f"{path}: the added mass at omega = {omegas[k]:g} is not finite or beyond "
            f"{MAX_MAGNITUDE:g}"
        )
    rho = float(np.atleast_1d(ds["rho"].values)[0]) if "rho" in ds else math.nan
    if "rho" in ds and not 0.0 < rho <= MAX_MAGNITUDE:
        raise GzInertiaError(f"{path}: rho = {rho:g} is not a positive density within 1e100")
    centre = None
    if "rotation_center" in ds:
        c = np.asarray(ds["rotation_center"].values, dtype=float).reshape(-1)
        if c.shape == (3,) and np.all(np.isfinite(c)):
            centre = (float(c[0]), float(c[1]), float(c[2]))
    depth = float(np.atleast_1d(ds["water_depth"].values)[0]) if "water_depth" in ds else math.nan
    version = str(ds.attrs.get("capytaine_version", "unknown"))
    description = (
        f"Capytaine {version} dataset {path.name}, omega {omegas[k]:g} rad/s, free surface, "
        f"water depth {depth:g} m"
    )
    return ImportedAddedMass(
        A, float(omegas[k]), rho, centre, description, dataset_digest(data)
    )


def _wamit_period(frequency: str | None, path: Path) -> float:
    """The WAMIT ``PER`` to read: ``-1`` is the infinite period (zero frequency), ``0`` the
    zero period (infinite frequency), else ``2π/ω`` seconds."""
    if frequency is None:
        raise GzInertiaError(
            f"{path}: choose the frequency with {option('frequency_zero_infinite_omega')}"
        )
    key = frequency.strip().lower()
    if key == "zero":
        return -1.0
    if key in ("infinite", "inf"):
        return 0.0
    omega = _omega_option(frequency)
    if not omega > 0.0:
        raise GzInertiaError(
            f"{option('frequency')} must be zero, infinite or positive, not {frequency!r}"
        )
    return 2.0 * math.pi / omega


def _wamit_line(fields: list[str], where: str, line: str) -> tuple[float, int, int, float]:
    """``PER I J Abar`` of one line, each number as the files' Fortran readers read it
    (:data:`gzinertia.numbers.FORTRAN`: ``1.0D+03`` is 1000, ``1_000`` no number), finite
    within ±1e100 (``Bbar``, when there, is checked the same way and not used)."""
    if len(fields) < 4:
        raise GzInertiaError(f"{where}: not a WAMIT .1 line (PER I J A [B]): {line.strip()[:60]!r}")
    try:
        per, abar = read_number(fields[0], FORTRAN), read_number(fields[3], FORTRAN)
        i, j = read_integer(fields[1]), read_integer(fields[2])
        for bbar in fields[4:5]:
            read_number(bbar, FORTRAN)
    except NumberError as exc:
        raise GzInertiaError(
            f"{where}: value {exc} (a WAMIT .1 line is PER I J A [B], numbers as Fortran reads "
            "them)"
        ) from None
    return per, i, j, abar


def _dimensional_factors(density: float, length: float) -> dict[int, float]:
    """``ρ·L^k`` for k = 3, 4, 5, each within [1e-100, 1e100] (else the added mass would
    overflow, or vanish, in float64 and in an SDF file)."""
    factors = {}
    for k in (3, 4, 5):
        try:
            factors[k] = density * length**k
        except OverflowError:
            factors[k] = math.inf
        if not 1.0 / MAX_MAGNITUDE <= factors[k] <= MAX_MAGNITUDE:
            raise GzInertiaError(
                f"{option('density')} {density:g} kg/m^3 and {option('wamit_length')} "
                f"{length:g} m make rho*ULEN^{k} = {factors[k]:g}, outside [1e-100, 1e100]: the "
                "added mass would not be a number an SDF file holds"
            )
    return factors


def read_wamit_1(
    path: Path, frequency: str | None, density: float | None, length: float
) -> ImportedAddedMass:
    """The added mass of a WAMIT ``.1`` file (lines ``PER I J Abar [Bbar]``) at one period,
    made dimensional: ``A_ij = Abar_ij·ρ·L^k``, ``k`` = 3 (both modes translations), 4 (one
    of each), 5 (both rotations); modes 1-6 are surge, sway, heave, roll, pitch, yaw
    (linear-first). The file names neither ρ nor L: ``density`` is required, ``length`` is
    WAMIT's ULEN."""
    from gzinertia.safe_read import read_regular_file

    if density is None:
        raise GzInertiaError(
            f"{path}: a WAMIT .1 file is non-dimensional: give the density it was computed "
            f"for with {option('density_or_fluid')}"
        )
    if not (math.isfinite(length) and length > 0.0):
        raise GzInertiaError(
            f"{option('wamit_length')} must be a positive length, not {length!r}"
        )
    period = _wamit_period(frequency, path)
    try:
        raw = read_regular_file(path, MAX_DATASET_BYTES)
    except OSError as exc:
        raise GzInertiaError(f"{path}: cannot read ({exc.strerror or exc})") from None
    factors = _dimensional_factors(density, length)
    text = raw.decode("utf-8", errors="replace")
    A = np.full((6, 6), np.nan)
    periods: set[float] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        per, i, j, abar = _wamit_line(fields, f"{path}:{number}", line)
        periods.add(per)
        if not (1 <= i <= 6 and 1 <= j <= 6):
            continue  # generalized modes or other bodies: not this rigid body
        same = per == period or (period > 0 and math.isclose(per, period, rel_tol=1e-5))
        if same:
            A[i - 1, j - 1] = abar * factors[3 + (i > 3) + (j > 3)]
    if np.all(np.isnan(A)):
        have = ", ".join(f"{p:g}" for p in sorted(periods))
        raise GzInertiaError(f"{path}: no PER = {period:g} s in the file (it holds {have})")
    if np.any(np.isnan(A)):
        raise GzInertiaError(f"{path}: the 6x6 at PER = {period:g} s is incomplete")
    omega = math.inf if period == 0.0 else 0.0 if period < 0 else 2.0 * math.pi / period
    description = (
        f"WAMIT .1 file {path.name}, PER {period:g} s (omega {omega:g} rad/s), ULEN {length:g} m"
    )
    return ImportedAddedMass(A, omega, density, None, description, dataset_digest(raw))


def _vector_text(values: Sequence[float] | np.ndarray) -> str:
    return " ".join(f"{v:.6g}" for v in values)


def _check_vector(values: Sequence[float], name: str) -> None:
    """Three finite numbers within ±1e100 (the numbers an SDF file holds)."""
    if len(values) != 3 or not all(abs(v) <= MAX_MAGNITUDE for v in values):  # NaN too
        raise GzInertiaError(
            f"{name} must be three finite numbers within ±{MAX_MAGNITUDE:g}, not "
            f"({_vector_text(values)})"
        )


def imported_in_link(
    imported: ImportedAddedMass,
    p_BoP_B: Sequence[float] | None,
    rpy_BF: Sequence[float],
    density: float | None,
) -> tuple[AddedMass, str]:
    """``A_BBo_B`` from the dataset's ``A_FP_F``: scaled to ``density`` when given (added mass
    is proportional to ρ), re-expressed in B with ``R_BF`` and moved from P to Bo; and the
    provenance text."""
    about_given = p_BoP_B is not None
    if p_BoP_B is None:
        if imported.rotation_center is None:
            raise GzInertiaError(
                "the dataset names no rotation_center: give the point it is about with "
                f"{option('about')}"
            )
        p_BoP_B = imported.rotation_center
    A = imported.A
    rho = imported.density
    note = f"fluid density {rho:g} kg/m^3"
    if density is not None and math.isfinite(rho) and rho > 0 and density != rho:
        A = A * (density / rho)
        note = f"scaled from {rho:g} to {density:g} kg/m^3"
    point = option("about") if about_given else "the dataset's rotation_center"
    _check_vector(p_BoP_B, point)
    _check_vector(rpy_BF, option("axes"))
    X_BF = Pose.from_xyz_rpy(np.asarray(p_BoP_B, dtype=float), np.asarray(rpy_BF, dtype=float))
    try:
        A_BBo_B = AddedMass(A, ordering="linear-first", point="P", axes="F").in_link(X_BF)
        peak = float(np.max(np.abs(A_BBo_B.linear_first())))
    except Float64OverflowError:
        peak = math.inf
    if not peak <= MAX_MAGNITUDE:
        raise GzInertiaError(
            f"the imported added mass ({note}), moved from {point} ({_vector_text(p_BoP_B)} m) "
            f"to the link origin, reaches {peak:g}, beyond the {MAX_MAGNITUDE:g} an SDF file "
            "holds"
        )
    p = _vector_text(X_BF.p)
    rpy = _vector_text(rpy_BF)
    text = (
        f"{IMPORT_PREFIX} ({imported.description}, {note}), computed "
        f"about ({p}) in axes rpy ({rpy}) of the link; moved to the link origin in link axes"
    )
    return A_BBo_B, text


def _geometry_record(
    link: LinkRecord,
    geometry: tuple[tuple[str, ...] | None, GeometryElement],
    digest: str,
) -> str:
    """``; geometry ...; mesh digest ...; dataset digest ...`` for the link's shapes (none when
    the link has none: there is then nothing to go stale)."""
    from gzinertia.edit.addmass_bem import shapes_of
    from gzinertia.physics.surface_mesh import geometry_digest

    names, element = geometry
    shapes = shapes_of(link, names, element)
    if not shapes:
        return ""
    return "; " + format_import_geometry(
        element, [c.name for c in shapes], geometry_digest(shapes), digest
    )


def _read_result(
    result: Path,
    frequency: str | None,
    about: Sequence[float] | None,
    density: float | None,
    wamit_length: float,
) -> ImportedAddedMass:
    """The result file read: a WAMIT ``.1`` file (which needs ``about``) or a Capytaine
    dataset."""
    if result.suffix == ".1":
        if about is None:
            raise GzInertiaError(
                f"{result}: a WAMIT .1 file does not say the point it is about: give the "
                f"origin of its body coordinates (XBODY) in link coordinates with "
                f"{option('about')}"
            )
        return read_wamit_1(result, frequency, density, wamit_length)
    return read_capytaine_dataset(result, frequency)


def add_mass_from(
    path: Path,
    *,
    result: Path,
    pattern: str | None,
    frequency: str | None,
    about: Sequence[float] | None,
    axes_rpy: Sequence[float],
    density: float | None,
    upgrade_version: bool,
    model_paths: Sequence[str | Path],
    wamit_length: float = 1.0,
    geometry: tuple[tuple[str, ...] | None, GeometryElement] = (None, "collision"),
    data: bytes | None = None,
) -> Edit[ImportedLink]:
    """Reads ``result``, moves it to the one link ``pattern`` selects and writes it (in
    memory): the :class:`Edit` with the link's :class:`ImportedLink` and the notes.

    The comment also records the link's displacing geometry the result is taken to describe
    (``geometry``: shape names or all, collisions or visuals, as ``--bem`` meshes them) with its
    digest, and the digest of the result file: the audit reports the matrix as stale (GZI212)
    once that geometry changes.
    ``data``: the file's bytes when they do not come from ``path`` (standard input, named
    ``<stdin>``: relative URIs resolve against the working directory)."""
    from gzinertia.edit.addmass import _editable_links
    from gzinertia.edit.links import ascii_comment, link_element, write_fluid_added_mass
    from gzinertia.edit.sdf_version import check_version_for_added_mass
    from gzinertia.edit.session import FileEdit

    if pattern is None:
        raise GzInertiaError(
            f"{option('from_link')} naming the one link the result belongs to"
        )
    imported = _read_result(result, frequency, about, density, wamit_length)
    edit = FileEdit.open(path, model_paths, data)
    links, _ = _editable_links(edit.doc, path, pattern, True)
    link = links[0]
    A_BBo_B, text = imported_in_link(imported, about, axes_rpy, density)
    text += _geometry_record(link, geometry, imported.digest)
    write_fluid_added_mass(
        edit.editor, link_element(edit.editor, link), A_BBo_B, ascii_comment(text)
    )
    notes = []
    said = check_version_for_added_mass(edit.editor, edit.doc.sdf_version, keep=not upgrade_version)
    if said:
        notes.append(said)
    new = edit.finish({link.name: A_BBo_B})
    return Edit(path, edit.old, new, (ImportedLink(link.name, A_BBo_B),), notes=tuple(notes))


def add_mass_from_urdf(
    path: Path,
    *,
    result: Path,
    pattern: str | None,
    frequency: str | None,
    about: Sequence[float] | None,
    axes_rpy: Sequence[float],
    density: float | None,
    package_paths: Sequence[str | Path] = (),
    wamit_length: float = 1.0,
    geometry: tuple[tuple[str, ...] | None, GeometryElement] = (None, "collision"),
    xacro_args: Mapping[str, str] | None = None,
    xacro_policy: XacroPolicy | None = None,
) -> Edit[ImportedLink]:
    """:func:`add_mass_from` for a URDF/xacro file: the imported matrix, moved to the link
    origin Bo in link axes, written as a ``<gazebo>`` Hydrodynamics block
    (:func:`gzinertia.urdf.addmass.add_matrix_urdf`) with the import's provenance comment inside
    it (geometry and dataset digests: GZI212 watches the link as Gazebo builds it). The
    :class:`Edit`'s one :class:`ImportedLink` names the link written (the pattern when none
    was: a xacro link made by a macro, whose block is in the warnings to paste)."""
    from gzinertia.urdf.addmass import add_matrix_urdf

    if pattern is None:
        raise GzInertiaError(f"{option('from_link')} naming the one link the result belongs to")
    imported = _read_result(result, frequency, about, density, wamit_length)
    A_BBo_B, text = imported_in_link(imported, about, axes_rpy, density)

    def matrix_for(link: LinkRecord) -> tuple[AddedMass, str]:
        from gzinertia.edit.links import ascii_comment

        return A_BBo_B, ascii_comment(text + _geometry_record(link, geometry, imported.digest))

    edit, written = add_matrix_urdf(
        path, matrix_for=matrix_for, pattern=pattern, package_paths=package_paths, single=True,
        xacro_args=xacro_args, xacro_policy=xacro_policy,
    )
    name = written[0][0].name if written else pattern
    return Edit(edit.path, edit.old, edit.new, (ImportedLink(name, A_BBo_B),), edit.skipped,
                edit.warnings, edit.notes)
