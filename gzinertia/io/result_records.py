"""What an added-mass result computed elsewhere is: the file to import (:class:`ResultFile`),
what it gives (:class:`ImportedAddedMass`, ``A_FP_F``: linear-first, about the result's point P
in its axes F), the digest that names it in provenance comments, and the frequency option read
as a number. The readers are :mod:`gzinertia.io.result_files` (WAMIT ``.1``, and the dispatch)
and :mod:`gzinertia.io.capytaine_dataset` (xarray, loaded only to read a dataset).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gzinertia.errors import SettingError
from gzinertia.numbers import DECIMAL, NumberError, read_number
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.geometry import GeometryElement

__all__ = ["MAX_DATASET_BYTES", "ImportedAddedMass", "ResultFile", "dataset_digest",
           "omega_option"]

#: Largest dataset file read (bytes).
MAX_DATASET_BYTES = 256 * 1024 * 1024

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
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


def omega_option(text: str) -> float:
    """``--frequency`` given as a number (rad/s), read as C reads a number (a
    :class:`~gzinertia.errors.SettingError` on ``frequency`` otherwise)."""
    try:
        return read_number(text.strip(), DECIMAL)
    except NumberError as exc:
        raise SettingError(
            "frequency", "{frequency} must be zero, infinite or a number in rad/s, not {value!r} "
            "({reason})", value=text, reason=exc.reason,
        ) from None
