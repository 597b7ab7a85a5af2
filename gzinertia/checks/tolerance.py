"""The inertia validity tolerances a check can judge by (NumPy-free: the audit's settings read
it when the command line is parsed)."""

from __future__ import annotations

from typing import Literal

__all__ = ["TOLERANCES", "Tolerance"]

#: Inertia validity tolerances: gz-math's (:func:`gzinertia.spatial.inertia.gz_tolerance`) or
#: Drake's (:func:`gzinertia.spatial.inertia.drake_tolerance`).
Tolerance = Literal["gz", "drake"]
TOLERANCES: tuple[Tolerance, ...] = ("gz", "drake")
