"""The spatial core: rotations and poses (:mod:`~gzinertia.spatial.rotation`), 6x6 algebra and
orderings (:mod:`~gzinertia.spatial.algebra`), the 6x6 matrix that knows its point and axes
(:mod:`~gzinertia.spatial.matrix`), rigid inertia (:mod:`~gzinertia.spatial.inertia`), fluid
added mass (:mod:`~gzinertia.spatial.added_mass`) and Tuckerman's ellipsoid coefficients
(:mod:`~gzinertia.spatial.tuckerman`).

Floor: the bottom, below the records. NumPy, the standard library, :mod:`gzinertia.record_base`,
:mod:`gzinertia.errors`, :mod:`gzinertia.numbers` and :mod:`gzinertia.vocabulary` only: it reads
no file and knows no SDF tag. Every matrix is named with its point, axes and ordering
(``docs/conventions.md``).

The face loads nothing: :mod:`~gzinertia.spatial.rotation` (NumPy) is imported at its first use as
``gzinertia.spatial.rotation``, for the command line, whose ``--help`` loads no NumPy.
"""

from gzinertia.lazy_face import lazy_submodules

__getattr__ = lazy_submodules(__name__, ("rotation",))
