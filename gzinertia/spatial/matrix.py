"""A 6x6 value that knows its point, axes and ordering.

:class:`SpatialMatrix` holds a symmetric spatial matrix (a spatial inertia, an added mass, or
their sum) about a named point in named axes. It has no preferred ordering: every way to get the
numbers out names one (:meth:`~SpatialMatrix.linear_first` ``[v; ω]``, SDFormat's
``[x y z p q r]``; :meth:`~SpatialMatrix.angular_first` ``[ω; v]``, Drake's and DART's), and every
way to put numbers in says which one they are in (``ordering=`` is keyword-only and required).

So an angular-first rigid inertia and a linear-first added mass cannot be added by mistake:

* ``M + A`` of two :class:`SpatialMatrix` values adds the same physics (each knows its ordering)
  and raises :class:`ValueError` when they are about different points or in different axes;
* a bare NumPy array never mixes in silently: ``M + array``, ``array + M``, ``np.asarray(M)``
  and ``M @ x`` raise :class:`TypeError` naming the two accessors.

Monogram names (``docs/conventions.md``): ``point`` and ``axes`` are the strings used in
messages, e.g. ``"Bo"`` and ``"B"`` for ``M_BBo_B`` and ``A_BBo_B``, ``"Eo"``/``"E"`` for an
ellipsoid's own ``A_EEo_E``.
"""

from __future__ import annotations

from typing import NoReturn, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from gzinertia.spatial.algebra import (
    ORDERINGS,
    Mat6,
    Ordering,
    as_6x6,
    change_axes,
    kinetic_energy,
    reorder,
    shift,
)

__all__ = ["SpatialInertia", "SpatialMatrix"]

_S = TypeVar("_S", bound="SpatialMatrix")

_ACCESSORS = "use .linear_first() or .angular_first() for the array"


class SpatialMatrix:
    """A 6x6 about ``point`` in ``axes``; ``ordering`` names the ordering of ``matrix`` as given.

    Immutable. Stored as given; :meth:`symmetric` and :attr:`asymmetry` say how far from
    symmetric it is. Subclasses (:class:`SpatialInertia`,
    :class:`gzinertia.spatial.added_mass.AddedMass`) keep their type through :meth:`shift`,
    :meth:`reexpressed` and :meth:`symmetric`; a sum of two different kinds is a plain
    :class:`SpatialMatrix`.
    """

    __slots__ = ("_lf", "axes", "point")
    #: NumPy defers every operator to this class, which refuses bare arrays.
    __array_ufunc__ = None

    _lf: NDArray[np.float64]
    point: str
    axes: str

    def __init__(self, matrix: ArrayLike, *, ordering: Ordering, point: str, axes: str) -> None:
        if ordering not in ORDERINGS:
            raise ValueError(f"ordering must be one of {', '.join(ORDERINGS)}, got {ordering!r}")
        lf = reorder(as_6x6(matrix), ordering, "linear-first")
        lf.setflags(write=False)
        object.__setattr__(self, "_lf", lf)
        object.__setattr__(self, "point", str(point))
        object.__setattr__(self, "axes", str(axes))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _like(self: _S, lf: ArrayLike, point: str | None = None, axes: str | None = None) -> _S:
        """A value of this type from a linear-first array (same point and axes unless given)."""
        new = object.__new__(type(self))
        arr = np.array(lf, dtype=float)
        arr.setflags(write=False)
        object.__setattr__(new, "_lf", arr)
        object.__setattr__(new, "point", self.point if point is None else point)
        object.__setattr__(new, "axes", self.axes if axes is None else axes)
        return new

    # --- the numbers ------------------------------------------------------------------------
    def linear_first(self) -> Mat6:
        """The matrix ordered ``[v; ω]`` (SDFormat ``[x y z p q r]``, Fossen, Capytaine), about
        :attr:`point` in :attr:`axes`: a copy."""
        return self._lf.copy()

    def angular_first(self) -> Mat6:
        """The matrix ordered ``[ω; v]`` (Drake ``CopyToFullMatrix6()``, DART), about
        :attr:`point` in :attr:`axes`: a copy."""
        return reorder(self._lf, "linear-first", "angular-first")

    def in_ordering(self, ordering: Ordering) -> Mat6:
        """The matrix in the named ordering, about :attr:`point` in :attr:`axes` (a copy)."""
        return reorder(self._lf, "linear-first", ordering)

    @property
    def name(self) -> str:
        """``"{point} in {axes}"``, as messages say it."""
        return f"about {self.point} in {self.axes} axes"

    # --- algebra ----------------------------------------------------------------------------
    def symmetric(self: _S) -> _S:
        """``(M + Mᵀ)/2`` about the same point in the same axes (same type)."""
        return self._like(0.5 * (self._lf + self._lf.T))

    @property
    def asymmetry(self) -> float:
        """``max|M - Mᵀ|`` (0 for a symmetric matrix; the same in either ordering)."""
        return float(np.max(np.abs(self._lf - self._lf.T)))

    def shift(self: _S, p_PQ: ArrayLike, point: str) -> _S:
        """The same physics about a new point Q named ``point`` (same axes, same type):
        ``p_PQ`` runs **from the current point P to the new point Q**, in the matrix's axes
        (Drake's ``Shift(p_PQ_E)``; :func:`gzinertia.spatial.algebra.shift`)."""
        return self._like(shift(self._lf, p_PQ, "linear-first"), point=point)

    def reexpressed(self: _S, axes: str, R_GF: ArrayLike) -> _S:
        """The same matrix in axes G named ``axes``, given ``R_GF`` from the current axes F."""
        return self._like(change_axes(self._lf, R_GF), axes=axes)

    def kinetic_energy(self, nu: ArrayLike, ordering: Ordering) -> float:
        """``½ νᵀ M ν`` for a spatial velocity ``ν`` at this point in these axes, ordered as
        ``ordering`` says."""
        return kinetic_energy(self.in_ordering(ordering), nu)

    def __add__(self, other: object) -> SpatialMatrix:
        if not isinstance(other, SpatialMatrix):
            raise TypeError(
                f"cannot add a {type(other).__name__} to a {type(self).__name__}: its ordering is "
                f"unknown; wrap it in SpatialMatrix(..., ordering=..., point=..., axes=...) or "
                f"{_ACCESSORS}"
            )
        if (self.point, self.axes) != (other.point, other.axes):
            raise ValueError(
                f"cannot add a matrix {other.name} to one {self.name}: shift and re-express "
                "them to one point and axes first"
            )
        with np.errstate(over="ignore", invalid="ignore"):
            total = self._lf + other._lf
        if type(self) is type(other):
            return self._like(total)
        return SpatialMatrix(total, ordering="linear-first", point=self.point, axes=self.axes)

    def __radd__(self, other: object) -> NoReturn:
        raise TypeError(
            f"cannot add a {type(self).__name__} to a {type(other).__name__}: its ordering is "
            f"unknown; {_ACCESSORS}"
        )

    def __sub__(self, other: object) -> NoReturn:
        raise TypeError(f"{type(self).__name__} has no subtraction; {_ACCESSORS}")

    __rsub__ = __sub__
    __mul__ = __sub__
    __rmul__ = __sub__
    __matmul__ = __sub__
    __rmatmul__ = __sub__

    def __array__(self, dtype: object = None, copy: object = None) -> NoReturn:
        raise TypeError(f"a {type(self).__name__} is not an array: {_ACCESSORS}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_rebuild, (type(self), self._lf, self.point, self.axes))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpatialMatrix):
            return NotImplemented
        return (type(self) is type(other) and (self.point, self.axes) == (other.point, other.axes)
                and bool(np.array_equal(self._lf, other._lf)))

    def __repr__(self) -> str:
        rows = np.array2string(self._lf, precision=6, suppress_small=True)
        return (f"{type(self).__name__}(point={self.point!r}, axes={self.axes!r}, "
                f"linear-first=\n{rows})")


def _rebuild(cls: type[_S], lf: NDArray[np.float64], point: str, axes: str) -> _S:
    """Unpickling (the audit cache, process pools): a value from its linear-first array."""
    return SpatialMatrix._like(object.__new__(cls), lf, point, axes)


class SpatialInertia(SpatialMatrix):
    """A rigid body's spatial inertia (``M_BBo_B``, ``M_BBcm_B``) about ``point`` in ``axes``.

    Angular-first it is ``[[I, m·[c]×], [m·[c]×ᵀ, m·1]]`` about a point from which the centre of
    mass is at ``c`` (Drake's ``SpatialInertia.CopyToFullMatrix6()``, DART's
    ``getSpatialTensor()``)."""

    __slots__ = ()

    @property
    def mass(self) -> float:
        """``m``: any diagonal entry of the translational block."""
        return float(self._lf[0, 0])
