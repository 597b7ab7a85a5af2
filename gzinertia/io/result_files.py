"""Added-mass results computed elsewhere, read: a Capytaine dataset (NetCDF from
``assemble_dataset`` + ``to_netcdf``; only the variables the import needs, sized first:
docs/security.md) or a WAMIT ``.1`` file (made dimensional by ``ρ·L^k``), each at one frequency,
as :class:`ImportedAddedMass` (``A_FP_F``: linear-first, about the result's point P in its axes
F). :mod:`gzinertia.edit.bem_import` moves it to the link and writes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.numbers import (
    DECIMAL,
    FORTRAN,
    MAX_MAGNITUDE,
    NumberError,
    read_integer,
    read_number,
)
from gzinertia.options import option
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = [
    "ImportedAddedMass", "ResultFile", "dataset_digest", "read_capytaine_dataset", "read_result",
    "read_wamit_1",
]

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
class ResultFile(ValueRecord):
    """A boundary-element result computed elsewhere (:func:`import_edit`): a Capytaine
    dataset or a WAMIT ``.1`` file (``wamit_length``: its ULEN, m), at ``frequency``
    (``"zero"``, ``"infinite"`` or ω in rad/s as text; ``None``: the file's only one), about
    the point ``about`` (link frame, m; ``None``: the dataset's ``rotation_center``) in axes
    rotated from the link's by ``axes_rpy`` (rad), rescaled to ``density`` (kg/m³; ``None``:
    as solved); ``geometry``: the link's shapes it describes (names or ``None`` for all, and
    the element), recorded for GZI212."""

    path: Path
    frequency: str | None = None
    about: tuple[float, float, float] | None = None
    axes_rpy: tuple[float, float, float] = (0.0, 0.0, 0.0)
    density: float | None = None
    wamit_length: float = 1.0
    geometry: tuple[tuple[str, ...] | None, GeometryElement] = (None, "collision")


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


def dataset_digest(data: bytes) -> str:
    """``sha256:<16 hex>`` of a result file's bytes (written in the provenance comment: which
    result it was)."""
    import hashlib

    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def _omega_option(text: str) -> float:
    """``--frequency`` given as a number (rad/s), read as C reads a number."""
    try:
        return read_number(text.strip(), DECIMAL)
    except NumberError as exc:
        raise SettingError(
            "frequency", "{frequency} must be zero, infinite or a number in rad/s, not {value!r} "
            "({reason})", value=text, reason=exc.reason,
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

    A NetCDF classic file is cut down to them first (:func:`gzinertia.io.netcdf_classic.subset`,
    sized before they are copied); another file (NetCDF-4/HDF5) is opened lazily and they are
    sized before they are loaded. Either way they may take :data:`MAX_DATASET_VARIABLE_BYTES`.
    """
    import io

    from gzinertia.io.netcdf_classic import NetcdfError, is_classic, subset

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
    from gzinertia.io.safe_read import read_regular_file

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
        raise SettingError(
            "frequency", "{frequency} must be zero, infinite or positive, not {value!r}",
            value=frequency,
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
            raise SettingError(
                "wamit_length", "{density} {rho:g} kg/m^3 and {wamit_length} {length:g} m make "
                "rho*ULEN^{k} = {factor:g}, outside [1e-100, 1e100]: the added mass would not be "
                "a number an SDF file holds", rho=density, length=length, k=k, factor=factors[k],
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
    from gzinertia.io.safe_read import read_regular_file

    if density is None:
        raise GzInertiaError(
            f"{path}: a WAMIT .1 file is non-dimensional: give the density it was computed "
            f"for with {option('density_or_fluid')}"
        )
    if not (math.isfinite(length) and length > 0.0):
        raise SettingError(
            "wamit_length", "{wamit_length} must be a positive length, not {value!r}", value=length
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


def read_result(result: ResultFile) -> ImportedAddedMass:
    """The result file read: a WAMIT ``.1`` file (which needs ``about``) or a Capytaine
    dataset."""
    if result.path.suffix == ".1":
        if result.about is None:
            raise GzInertiaError(
                f"{result.path}: a WAMIT .1 file does not say the point it is about: give the "
                f"origin of its body coordinates (XBODY) in link coordinates with "
                f"{option('about')}"
            )
        return read_wamit_1(result.path, result.frequency, result.density, result.wamit_length)
    return read_capytaine_dataset(result.path, result.frequency)
