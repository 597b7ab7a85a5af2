"""Checks: what the audit rules and the edits both ask of a link, answered once.

Floor: above the records, :mod:`gzinertia.physics`, :mod:`gzinertia.gazebo`,
:mod:`gzinertia.classic` and :mod:`gzinertia.sdf` (it reads link records and computes with
them), below :mod:`gzinertia.audit`, :mod:`gzinertia.edit` and :mod:`gzinertia.report`, which
call it; it imports none of those, nor the CLI or :mod:`gzinertia.api`. It is not in
:mod:`gzinertia.physics` because its answers are about a link as the model file wrote it
(provenance comments, Hydrodynamics plugins, the reader's notes, the audit's tolerance), which
the physics floor does not know.

* :mod:`~gzinertia.checks.context`: per document and per link, the quantities the rules share,
  computed once (principal moments, inertia validity, the collisions' solid and box, the
  volume-fit fluid ellipsoid, the fluid's centre).
* :mod:`~gzinertia.checks.matrices`: gyration factors against a solid's, the centre an added-mass
  matrix implies.
* :mod:`~gzinertia.checks.added_mass`: the added mass a link carries and applies, and the fit its
  comment records.
* :mod:`~gzinertia.checks.bem`: whether a BEM (or imported) matrix still describes the link's
  hull.
* :mod:`~gzinertia.checks.overlap`: which fluid ellipsoids overlap as much as GZI210 reports
  (also ``addmass``'s overlap guard).
* :mod:`~gzinertia.checks.tolerance`: the inertia validity tolerances (NumPy-free: the settings
  read it at start-up).

The face loads nothing: the submodules named in :data:`SUBMODULES` are imported at their first
use (``gzinertia.checks.context.DocumentContext(...)``), for the audit's runner, which a cached
run loads without NumPy.
"""

from gzinertia.lazy_face import lazy_submodules

__all__: list[str] = []

#: Submodules imported on first use, for modules outside the package.
SUBMODULES = ("context",)

__getattr__ = lazy_submodules(__name__, SUBMODULES)
