"""TOML, the format of the settings files and of the catalogue's data: Python's ``tomllib``
(``tomli`` before Python 3.11), one home for the choice. Reached through :mod:`gzinertia.io`'s
face (``gzinertia.io.toml_text.loads(...)``), so that a run without a settings file does
without it (about 6 ms). Callers bound what they parse first (:mod:`gzinertia.audit.toml_limits`).
"""

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 (pyproject needs tomli; python_version < "3.11")
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = ["TOMLDecodeError", "loads"]

#: Parses TOML text into a dict.
loads = tomllib.loads
#: What :func:`loads` raises for text that is not TOML.
TOMLDecodeError = tomllib.TOMLDecodeError
