"""File access, one home each: opening a file a model names without blocking or reading past a cap
(:mod:`~gzinertia.io.safe_read`), writing a file atomically (:mod:`~gzinertia.io.safe_write`),
folders below a root reached through no symbolic link (:mod:`~gzinertia.io.confined`), the cache
folder (:mod:`~gzinertia.io.cache_folder`), the caps on what one input may make gzinertia read or
build (:mod:`~gzinertia.io.limits`), mesh files (checked in :mod:`~gzinertia.io.mesh_files`, loaded
in :mod:`~gzinertia.io.mesh_trimesh`, COLLADA in :mod:`~gzinertia.io.mesh_collada`, the text
formats' checks in :mod:`~gzinertia.io.mesh_text`, gz-common's submeshes in
:mod:`~gzinertia.io.mesh_submeshes`), the default mesh source that physics reads meshes through
(:mod:`~gzinertia.io.mesh_source`) and the added-mass results computed elsewhere
(:mod:`~gzinertia.io.result_records`; WAMIT ``.1`` files and the dispatch:
:mod:`~gzinertia.io.result_files`, Capytaine datasets: :mod:`~gzinertia.io.capytaine_dataset`,
NetCDF classic sized before it is read: :mod:`~gzinertia.io.netcdf_classic`).

Floor: the bottom, beside the words, below the records. The standard library, NumPy, lxml,
trimesh (loaded when a mesh is read), :mod:`gzinertia.errors`, :mod:`gzinertia.record_base`,
:mod:`gzinertia.numbers`, :mod:`gzinertia.options` and :mod:`gzinertia.vocabulary` only: it
knows no link, no SDF tag and no physics, so that every floor above may read and write through
it (``tests/test_io_package.py``). Import a name from its module (the standard library's
:mod:`io` is never shadowed: every import in the package is absolute).

This face loads nothing heavy: trimesh and xarray (an optional extra) are imported at the top of
the modules that use them (:mod:`~gzinertia.io.mesh_trimesh`, :mod:`~gzinertia.io.mesh_submeshes`,
:mod:`~gzinertia.io.capytaine_dataset`), which the rest of the package reaches through the names
below (``gzinertia.io.load_mesh_file``, ...) when a mesh or a dataset is read, so that reading a
model without meshes loads neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gzinertia.lazy_face import homes_getattr

if TYPE_CHECKING:
    from gzinertia.io.capytaine_dataset import read_capytaine_dataset
    from gzinertia.io.mesh_submeshes import gazebo_submeshes
    from gzinertia.io.mesh_trimesh import as_trimesh, load_mesh_file, read_scaled_mesh

__all__ = ["as_trimesh", "gazebo_submeshes", "load_mesh_file", "read_capytaine_dataset",
           "read_scaled_mesh"]

__getattr__ = homes_getattr(__name__, {
    "as_trimesh": "gzinertia.io.mesh_trimesh",
    "gazebo_submeshes": "gzinertia.io.mesh_submeshes",
    "load_mesh_file": "gzinertia.io.mesh_trimesh",
    "read_capytaine_dataset": "gzinertia.io.capytaine_dataset",
    "read_scaled_mesh": "gzinertia.io.mesh_trimesh",
})
