"""Gazebo-classic marine plugins: what their blocks say and the force each one applies.

* :mod:`~gzinertia.classic.uuv`: UUV Simulator's underwater-object plugin (vocabulary, the
  per-link record, the reader of its XML block);
* :mod:`~gzinertia.classic.uuv_models`: what its hydrodynamic models (``fossen``, ``sphere``,
  ``cylinder``, ``spheroid``, ``box``) compute from their parameters;
* :mod:`~gzinertia.classic.uuv_wrench`: the wrench it applies to a link in a given state;
* :mod:`~gzinertia.classic.vrx`: VRX's classic USV dynamics plugin (vocabulary, record, reader,
  wrench);
* :mod:`~gzinertia.classic.find`: the plugin blocks of a parsed SDF or URDF tree;
* :mod:`~gzinertia.classic.migrate`: their gz-sim equivalent (``gzinertia migrate``).

The semantics are those of the plugins' source at the commits in :data:`UUV_COMMIT` and
:data:`VRX_COMMIT` (``docs/classic_plugins.md`` gives file and line for each statement).
"""

from __future__ import annotations

__all__ = ["UUV_COMMIT", "VRX_COMMIT"]

#: UUV Simulator (github.com/uuvsimulator/uuv_simulator) commit the semantics were read at.
UUV_COMMIT = "bfb40cb153684a0703173117b6bbf4258e8e71c5"
#: VRX (github.com/osrf/vrx), branch ``gazebo_classic``, commit the semantics were read at.
VRX_COMMIT = "c9b9388308f8976c724da4af6685f69c9c378983"
