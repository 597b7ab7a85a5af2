"""File access, one home each: opening a file a model names without blocking or reading past a cap
(:mod:`~gzinertia.io.safe_read`), writing a file atomically (:mod:`~gzinertia.io.safe_write`),
folders below a root reached through no symbolic link (:mod:`~gzinertia.io.confined`), the cache
folder (:mod:`~gzinertia.io.cache_folder`), the caps on what one input may make gzinertia read
or build (:mod:`~gzinertia.io.limits`), mesh files (:mod:`~gzinertia.io.mesh_files`, COLLADA in
:mod:`~gzinertia.io.mesh_collada`, the text formats' checks in :mod:`~gzinertia.io.mesh_text`,
gz-common's submeshes in :mod:`~gzinertia.io.mesh_submeshes`), the default mesh source that
physics reads meshes through (:mod:`~gzinertia.io.mesh_source`) and the added-mass results
computed elsewhere (Capytaine datasets and WAMIT ``.1`` files:
:mod:`~gzinertia.io.result_files`, NetCDF classic sized before it is read:
:mod:`~gzinertia.io.netcdf_classic`).

Floor: the bottom, beside the words, below the records. The standard library, NumPy, lxml,
trimesh (loaded when a mesh is read), :mod:`gzinertia.errors`, :mod:`gzinertia.record_base`,
:mod:`gzinertia.numbers`, :mod:`gzinertia.options` and :mod:`gzinertia.vocabulary` only: it
knows no link, no SDF tag and no physics, so that every floor above may read and write through
it (``tests/test_io_package.py``). Import a name from its module; this face imports nothing (the
standard library's :mod:`io` is never shadowed: every import in the package is absolute).
"""
