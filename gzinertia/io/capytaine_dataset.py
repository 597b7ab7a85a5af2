"""A Capytaine dataset read (NetCDF from ``assemble_dataset`` + ``to_netcdf``; only the
variables the import needs, sized first: docs/security.md), at one frequency, as an
:class:`~gzinertia.io.result_records.ImportedAddedMass`.

xarray is an optional extra (``gzinertia[bem]``): imported with this module, which
:func:`gzinertia.io.result_files.read_result` reaches through the package face
(:mod:`gzinertia.io`) only when a dataset is read; without it, :data:`xr` is ``None`` and a
dataset import is refused with the extra to install.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import numpy as np

from gzinertia.errors import GzInertiaError
from gzinertia.io.netcdf_classic import NetcdfError, is_classic, subset
from gzinertia.io.result_records import (
    MAX_DATASET_BYTES,
    ImportedAddedMass,
    dataset_digest,
    omega_option,
)
from gzinertia.io.safe_read import read_regular_file
from gzinertia.numbers import MAX_MAGNITUDE
from gzinertia.options import option

try:
    import xarray as xr
except ImportError:  # the optional extra gzinertia[bem]
    xr = None  # type: ignore[assignment]  # refused with the extra to install

__all__ = ["DATASET_VARIABLES", "read_capytaine_dataset"]

#: Largest total of the variables a dataset import reads (bytes; 64 MiB is the added mass at
#: 230,000 frequencies), checked before they are read.
MAX_DATASET_VARIABLE_BYTES = 64 * 1024 * 1024
#: The variables of a Capytaine dataset the import reads; no other is read.
DATASET_VARIABLES = (
    "added_mass", "omega", "radiating_dof", "influenced_dof", "rho", "water_depth",
    "rotation_center",
)
RIGID_BODY_DOFS = ("Surge", "Sway", "Heave", "Roll", "Pitch", "Yaw")



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
        target = omega_option(wanted)
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
    if xr is None:
        raise GzInertiaError(
            f"{option('bem_from')} needs xarray (and a NetCDF reader): pip install "
            "'gzinertia[bem]'"
        )
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
