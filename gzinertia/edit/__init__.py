"""Editing users' SDF files: the editing commands (:mod:`~gzinertia.edit.addmass`,
:mod:`~gzinertia.edit.shift`, :mod:`~gzinertia.edit.convert`, :mod:`~gzinertia.edit.hydro`),
the minimal-diff writer they share (:mod:`~gzinertia.edit.editor`, :mod:`~gzinertia.edit.spans`,
:mod:`~gzinertia.edit.links`), the read-back check (:mod:`~gzinertia.edit.verify`) and the safe
delivery of the result (:mod:`~gzinertia.edit.output`, :mod:`~gzinertia.edit.safe_write`).
"""

__all__: list[str] = []
