"""Finding the file an ``<include><uri>`` names, by the rules Gazebo and libsdformat use.

* ``model://name[/sub/path]``: the folder ``name`` under each directory of the model path, in
  order: the explicit ``--model-path`` entries, then ``GZ_SIM_RESOURCE_PATH``, ``SDF_PATH``,
  ``IGN_GAZEBO_RESOURCE_PATH`` (each a ``:``-separated list).
* ``file://`` URIs and absolute paths as they are; other URIs relative to the including file's
  folder.
* A folder is opened through its ``model.config`` (the ``<sdf>`` entry with the highest
  ``version``), else ``model.sdf``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from gzinertia.sdf.xml import children, parse_xml_file_shared

MODEL_PATH_VARIABLES = ("GZ_SIM_RESOURCE_PATH", "SDF_PATH", "IGN_GAZEBO_RESOURCE_PATH")


@dataclass(frozen=True)
class Resolved:
    """An include target: the SDF file, and which rule found it."""

    path: Path
    rule: str


class UnresolvedIncludeError(Exception):
    """The URI could not be resolved; the message says what was tried."""


def model_search_path(explicit: Sequence[str | Path] = ()) -> list[tuple[Path, str]]:
    """The model path in search order, each entry with the rule that contributed it."""
    entries: list[tuple[Path, str]] = [(Path(p), "--model-path") for p in explicit]
    for var in MODEL_PATH_VARIABLES:
        for part in os.environ.get(var, "").split(os.pathsep):
            if part:
                entries.append((Path(part), var))
    return entries


def _version_key(v: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (0,)


def sdf_file_in_folder(folder: Path) -> Path | None:
    """The SDF file a model folder designates (``model.config``, else ``model.sdf``)."""
    config = folder / "model.config"
    if config.is_file():
        try:
            root = parse_xml_file_shared(config)
        except Exception:
            root = None
        if root is not None:
            entries: list[etree._Element] = children(root, "sdf")
            best = max(entries, key=lambda e: _version_key(e.get("version") or "0"), default=None)
            if best is not None and (best.text or "").strip():
                candidate = folder / (best.text or "").strip()
                if candidate.is_file():
                    return candidate
    fallback = folder / "model.sdf"
    return fallback if fallback.is_file() else None


def _open_target(target: Path) -> Path | None:
    try:
        if target.is_dir():
            return sdf_file_in_folder(target)
        return target if target.is_file() else None
    except OSError as exc:  # a name the system cannot look up (too long, a symlink loop, ...)
        name = str(target) if len(str(target)) <= 80 else str(target)[:77] + "..."
        raise UnresolvedIncludeError(f"cannot look up {name!r}: {exc.strerror or exc}") from None


def resolve_uri(uri: str, including_file: Path, model_paths: Sequence[str | Path] = ()) -> Resolved:
    """The SDF file ``uri`` names, seen from ``including_file``."""
    uri = uri.strip()
    if uri.startswith("model://"):
        rest = uri[len("model://") :].strip("/")
        if not rest:
            raise UnresolvedIncludeError(f"empty model URI {uri!r}")
        tried: list[str] = []
        for base, rule in model_search_path(model_paths):
            found = _open_target(base / rest)
            if found is not None:
                return Resolved(found, f"{rule} ({base})")
            tried.append(str(base))
        where = ", ".join(tried) if tried else "no model path set"
        raise UnresolvedIncludeError(
            f"cannot find {uri!r} (searched: {where}; "
            "set GZ_SIM_RESOURCE_PATH or pass --model-path)"
        )
    if "://" in uri and not uri.startswith("file://"):
        scheme = uri.split("://", 1)[0]
        raise UnresolvedIncludeError(
            f"cannot resolve {uri!r}: {scheme}:// URIs are not read (no network, no ROS package "
            "lookup); use model:// with --model-path"
        )
    raw = uri[len("file://") :] if uri.startswith("file://") else uri
    candidate = Path(raw)
    rule = "absolute path"
    if not candidate.is_absolute():
        candidate = including_file.parent / candidate
        rule = "relative to the including file"
    found = _open_target(candidate)
    if found is not None:
        return Resolved(found, rule)
    if not Path(raw).is_absolute():  # libsdformat's findFile also searches the model path
        for base, path_rule in model_search_path(model_paths):
            found = _open_target(base / raw)
            if found is not None:
                return Resolved(found, f"{path_rule} ({base})")
    raise UnresolvedIncludeError(f"cannot find {uri!r} (looked at {candidate} and the model path)")


def resolve_resource(
    uri: str, including_file: Path, model_paths: Sequence[str | Path] = ()
) -> Path | None:
    """A resource file (e.g. a mesh) named by ``uri``, or ``None`` when it cannot be found
    (including a name the system cannot look up: too long, a symlink loop)."""
    try:
        return _resolve_resource(uri, including_file, model_paths)
    except OSError:
        return None


def _resolve_resource(
    uri: str, including_file: Path, model_paths: Sequence[str | Path]
) -> Path | None:
    uri = uri.strip()
    if uri.startswith("model://"):
        rest = uri[len("model://") :].strip("/")
        for base, _rule in model_search_path(model_paths):
            if (base / rest).is_file():
                return base / rest
        # libsdformat also tries the model folder itself: model://<this model>/meshes/...
        parts = rest.split("/", 1)
        for folder in (including_file.parent, *including_file.parents):
            if folder.name == parts[0] and len(parts) == 2 and (folder / parts[1]).is_file():
                return folder / parts[1]
        return None
    if "://" in uri and not uri.startswith("file://"):
        return None
    raw = Path(uri[len("file://") :] if uri.startswith("file://") else uri)
    candidate = raw if raw.is_absolute() else including_file.parent / raw
    return candidate if candidate.is_file() else None
