"""The provenance of a BEM or imported ``<fluid_added_mass>``: what its comment says about the
geometry it was computed from (an imported dataset's digest:
:func:`gzinertia.io.result_files.dataset_digest`, where result files are read).

``addmass --bem`` writes one line (an XML comment, ASCII, no ``--``) naming the method, the panel
count, the frequency, the fluid domain, the estimated discretisation error, the shapes meshed,
the digest of that geometry (:func:`gzinertia.physics.surface_mesh.geometry_digest`), the fluid
density and the point and axes, then the same facts as data;
:mod:`gzinertia.physics.provenance_comment` writes and reads it (older comments too). The audit
reads the shapes and the digest back (GZI212: stale when the geometry changed since; GZI204
defers to a current one, which states the point).
"""

from __future__ import annotations

from gzinertia.physics.provenance_comment import BEM_PREFIX as PREFIX
from gzinertia.physics.provenance_comment import IMPORT_PREFIX, BemProvenance
from gzinertia.physics.provenance_comment import bem_comment as format_provenance
from gzinertia.physics.provenance_comment import import_geometry as format_import_geometry
from gzinertia.physics.provenance_comment import read_bem_comment as parse_provenance

__all__ = [
    "IMPORT_PREFIX",
    "PREFIX",
    "BemProvenance",
    "format_import_geometry",
    "format_provenance",
    "parse_provenance",
]

