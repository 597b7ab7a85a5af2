"""Where a finding is, as the formats that need portable paths write it: forward slashes,
relative to the working directory when under it (JUnit, GitHub), and SARIF's artifact URIs
relative to ``%SRCROOT%`` or absolute ``file://`` URIs."""

from __future__ import annotations

from pathlib import Path, PurePath
from urllib.parse import quote

__all__ = ["SRCROOT", "artifact_uri", "portable_path"]

SRCROOT = "%SRCROOT%"


def portable_path(path: str, cwd: PurePath | None = None) -> tuple[str, bool]:
    """``path`` with forward slashes, relative to ``cwd`` (default: the working directory) when
    it is absolute and under it. Returns ``(path, is_relative)``; ``cwd``'s type decides how
    ``path`` is parsed (pass a ``PureWindowsPath`` to read Windows paths anywhere)."""
    root = Path.cwd() if cwd is None else cwd
    pure = type(root)(path)
    if pure.is_absolute():
        try:
            pure = pure.relative_to(root)
        except ValueError:
            return pure.as_posix(), False
    return pure.as_posix(), True


def artifact_uri(path: str, cwd: PurePath | None = None) -> tuple[str, str | None]:
    """SARIF ``(uri, uriBaseId)`` of a file: a percent-encoded relative reference with base
    ``%SRCROOT%``, or an absolute ``file://`` URI (base ``None``) for files outside ``cwd``.
    A name's undecodable bytes (surrogateescape) are percent-encoded as the bytes they were."""
    posix, relative = portable_path(path, cwd)
    if relative:
        return quote(posix.encode("utf-8", "surrogateescape"), safe="/"), SRCROOT
    root = Path.cwd() if cwd is None else cwd
    return type(root)(path).as_uri(), None

