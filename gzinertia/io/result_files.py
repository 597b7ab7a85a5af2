"""Added-mass results computed elsewhere, read: a WAMIT ``.1`` file (made dimensional by
``ρ·L^k``) here, a Capytaine dataset (NetCDF from ``assemble_dataset`` + ``to_netcdf``; only the
variables the import needs, sized first: docs/security.md) by
:mod:`gzinertia.io.capytaine_dataset` (xarray, reached through the package face when a dataset
is read), each at one frequency, as :class:`ImportedAddedMass` (``A_FP_F``: linear-first, about
the result's point P in its axes F; the records live in :mod:`gzinertia.io.result_records`).
:func:`read_result` reads either; :mod:`gzinertia.edit.bem_import` moves the result to the link
and writes it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

import gzinertia.io
from gzinertia.errors import GzInertiaError, SettingError
from gzinertia.io.result_records import (
    MAX_DATASET_BYTES,
    ImportedAddedMass,
    ResultFile,
    dataset_digest,
    omega_option,
)
from gzinertia.io.safe_read import read_regular_file
from gzinertia.numbers import FORTRAN, MAX_MAGNITUDE, NumberError, read_integer, read_number
from gzinertia.options import option

if TYPE_CHECKING:
    import gzinertia.io.capytaine_dataset

__all__ = ["ImportedAddedMass", "ResultFile", "dataset_digest", "read_result", "read_wamit_1"]


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
    omega = omega_option(frequency)
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
    return gzinertia.io.capytaine_dataset.read_capytaine_dataset(result.path, result.frequency)
