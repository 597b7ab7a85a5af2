"""The project's words, one home each: the SDF version as a value, whether a Hydrodynamics
plugin applies added mass, the fluids and their densities, scoped link names, the geometry
element a shape is read from and the fallbacks for a mesh that is not closed.

One module a word: :mod:`~gzinertia.vocabulary.sdf_version`,
:mod:`~gzinertia.vocabulary.added_mass`, :mod:`~gzinertia.vocabulary.fluids`,
:mod:`~gzinertia.vocabulary.scoped_names`, :mod:`~gzinertia.vocabulary.geometry`,
:mod:`~gzinertia.vocabulary.hull`; import a word from its module.

Floor: the bottom, beside the spatial core. Standard library and :mod:`gzinertia.numbers` only
(no NumPy), so that every floor may import it and the CLI can use it in ``--help`` without
importing the numeric core.
"""
