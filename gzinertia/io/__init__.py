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
:mod:`~gzinertia.io.capytaine_dataset`), submodules named in :data:`__all__` that are imported at
their first use (``gzinertia.io.mesh_trimesh.load_mesh_file(...)``), so that reading a model
without meshes loads neither (as :mod:`gzinertia.physics`' face).
"""

from __future__ import annotations

from gzinertia.lazy_face import lazy_submodules

__all__ = [
    "capytaine_dataset", "limits", "mesh_submeshes", "mesh_trimesh", "safe_write", "toml_text",
]

__getattr__ = lazy_submodules(__name__, __all__)
