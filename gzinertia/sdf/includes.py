"""Finding the file an ``<include><uri>`` names, by the rules Gazebo and libsdformat use.

* ``model://name[/sub/path]``: the folder ``name`` under each directory of the model path, in
  order: the explicit ``--model-path`` entries, then ``GZ_SIM_RESOURCE_PATH``, ``SDF_PATH``,
  ``IGN_GAZEBO_RESOURCE_PATH`` (each a ``:``-separated list).
* ``file://`` URIs and absolute paths as they are; other URIs relative to the including file's
  folder.
* Fuel URLs (``https://fuel.gazebosim.org/1.0/<owner>/models/<name>[/<version>]``) from the
  local Fuel cache only, never the network, as gz-fuel-tools' ``LocalCache`` finds them:
  ``<cache>/<server host>/<owner>/models/<name>/<version>/`` with owner and name compared
  case-insensitively (Fuel lowercases them) and percent-decoded, the newest numbered version
  folder holding a ``model.config`` when the URL names none (or ``tip``). The caches tried, in
  order: ``GZ_FUEL_CACHE_PATH`` (else ``~/.gz/fuel``), then ``IGN_FUEL_CACHE_PATH`` (else
  ``~/.ignition/fuel``, Fortress and older). Model file URLs (``.../<version>/files/meshes/x.dae``)
  resolve the same way.
* A scheme libsdformat does not know (``models://``, a typo for ``model://``) is resolved as
  gz-sim resolves it (gz-common's ``SystemPaths::FindFileURI`` tries the rest of the URI on
  every resource path, whatever the scheme); ``gz sdf``, Gazebo classic and Drake do not.
  :func:`unknown_scheme_message` says so and names the near known scheme; the reader turns
  it into a note whether the file is found or not (:class:`UnknownSchemeError` when not).
* A folder is opened through its ``model.config`` (the ``<sdf>`` entry with the highest
  ``version``), else ``model.sdf``.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

from gzinertia.numbers import dotted_integers
from gzinertia.options import option

if TYPE_CHECKING:  # lxml loads when a model.config is read (a cached audit may need none)
    from lxml import etree

__all__ = [
    "KNOWN_SCHEMES",
    "MODEL_PATH_VARIABLES",
    "Resolved",
    "UnknownSchemeError",
    "UnresolvedIncludeError",
    "fuel_cache_roots",
    "model_search_path",
    "resolve_resource",
    "resolve_uri",
    "sdf_file_in_folder",
    "unknown_scheme_message",
]

MODEL_PATH_VARIABLES = ("GZ_SIM_RESOURCE_PATH", "SDF_PATH", "IGN_GAZEBO_RESOURCE_PATH")


class Resolved(NamedTuple):
    """An include target: the SDF file, and which rule found it (an immutable named tuple:
    one is built per include, and a class of them costs start-up less than a dataclass)."""

    path: Path
    rule: str


class UnresolvedIncludeError(Exception):
    """The URI could not be resolved; the message says what was tried. ``not_downloaded``: a
    remote (Fuel) model that is not in the local cache, the message saying gzinertia never
    downloads."""

    def __init__(self, message: str, *, not_downloaded: bool = False) -> None:
        super().__init__(message)
        self.not_downloaded = not_downloaded


#: URI schemes libsdformat and Gazebo resolve (``package://`` through ROS tooling).
KNOWN_SCHEMES = ("model", "file", "http", "https", "package")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


class UnknownSchemeError(UnresolvedIncludeError):
    """The URI's scheme is none that libsdformat or Gazebo resolves (e.g. ``models://``)."""


def unknown_scheme_message(uri: str) -> str | None:
    """What is wrong with ``uri``'s scheme, naming the near known one; ``None`` when the
    scheme is known or the URI has none."""
    match = _SCHEME.match(uri.strip())
    if match is None or match.group(1).lower() in KNOWN_SCHEMES:
        return None

    scheme = match.group(1)
    near = difflib.get_close_matches(scheme.lower(), KNOWN_SCHEMES, n=1, cutoff=0.5)
    hint = f" (did you mean {near[0]}://?)" if near else ""
    return (
        f"{uri.strip()!r}: {scheme}:// is no URI scheme libsdformat resolves (model://, "
        f"file://, https:// for Fuel, package:// through ROS){hint}; gz-sim still finds the "
        "file when the path after the scheme lies on its resource path (gz-common tries it "
        "whatever the scheme), `gz sdf`, Gazebo classic and Drake do not"
    )


def _after_scheme(uri: str, model_paths: Sequence[str | Path]) -> Path | None:
    """What gz-common finds for a URI of any scheme: the path after ``scheme://`` on the
    model path (a folder is opened through its ``model.config``)."""
    rest = uri.strip().split("://", 1)[1].strip("/")
    if not rest:
        return None
    for base, _rule in model_search_path(model_paths):
        found = _open_target(base / rest)
        if found is not None:
            return found
    return None


# Fuel URLs are rare: their patterns are kept as text, compiled on first use by re's cache.
_FUEL_MODEL = (
    r"^https?://([^/\s]+)/+(?:[0-9]+\.[0-9]+/+)?([^/\s]+)/+models/+([^/]+)"
    r"(?:/+([0-9]+|tip))?/*$"
)
_FUEL_FILE = (
    r"^https?://([^/\s]+)/+(?:[0-9]+\.[0-9]+/+)?([^/\s]+)/+models/+([^/]+)/+([0-9]+|tip)"
    r"/+files/+(.+)$"
)
#: The Fuel server's two names: a cache may hold a model under either.
_FUEL_HOSTS = ("fuel.gazebosim.org", "fuel.ignitionrobotics.org")


def fuel_cache_roots() -> list[tuple[Path, str]]:
    """The local Fuel caches, in search order, each with the rule that names it: gz-fuel-tools'
    (``GZ_FUEL_CACHE_PATH``, else ``~/.gz/fuel``), then ignition-fuel-tools' of Fortress and
    older (``IGN_FUEL_CACHE_PATH``, else ``~/.ignition/fuel``). A variable replaces its
    default, as in gz-fuel-tools' ``ClientConfig``."""
    home = Path(os.environ.get("HOME") or Path.home())
    roots: list[tuple[Path, str]] = []
    for var, default, label in (
        ("GZ_FUEL_CACHE_PATH", home / ".gz" / "fuel", "~/.gz/fuel"),
        ("IGN_FUEL_CACHE_PATH", home / ".ignition" / "fuel", "~/.ignition/fuel"),
    ):
        value = os.environ.get(var, "")
        roots.append((Path(value), var) if value else (default, label))
    return roots


def _folded(name: str) -> str:
    return unquote(name).casefold()


def _plain_segment(name: str) -> bool:
    """A path segment that stays where it is (no ``..``, no separator once percent-decoded)."""
    decoded = unquote(name)
    return decoded not in ("", ".", "..") and "/" not in decoded and "\\" not in decoded


def _child_folder(folder: Path, name: str) -> Path | None:
    """``folder/name`` compared as Fuel does (case-insensitive, percent-decoded)."""
    if not _plain_segment(name):
        return None
    exact = folder / unquote(name)
    if exact.is_dir():
        return exact
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return None
    wanted = _folded(name)
    for entry in entries:
        if _folded(entry.name) == wanted and entry.is_dir():
            return Path(entry.path)
    return None


def _fuel_version_folder(
    host: str, owner: str, name: str, version: str | None
) -> tuple[Path | None, list[str]]:
    """The cached version folder of a Fuel model (newest numbered one holding a
    ``model.config`` unless ``version`` names one), and the caches looked in."""
    looked: list[str] = []
    hosts = [host, *(h for h in _FUEL_HOSTS if host.casefold() in _FUEL_HOSTS and h != host)]
    for root, rule in fuel_cache_roots():
        looked.append(f"{root} ({rule})")
        for server in hosts:
            server_dir = _child_folder(root, server.replace(":", "%3A").replace("@", "%40"))
            owner_dir = None if server_dir is None else _child_folder(server_dir, owner)
            models = None if owner_dir is None else owner_dir / "models"
            model_dir = None if models is None else _child_folder(models, name)
            if model_dir is None:
                continue
            if version and version != "tip":
                pinned = model_dir / (version.lstrip("0") or "0")
                if pinned.is_dir():
                    return pinned, looked
                continue
            try:
                numbered = [
                    int(e.name) for e in os.scandir(model_dir)
                    if e.name.isascii() and e.name.isdigit() and len(e.name) < 10
                    and (Path(e.path) / "model.config").is_file()
                ]
            except OSError:
                numbered = []
            if numbered:
                return model_dir / str(max(numbered)), looked
    return None, looked


def _resolve_fuel(uri: str) -> Resolved | None:
    """A Fuel model URL from the local cache; ``None`` when ``uri`` is no Fuel model URL.
    Raises :class:`UnresolvedIncludeError` when the model is not in any cache."""
    match = re.match(_FUEL_MODEL, uri)
    if match is None:
        return None
    host, owner, name, version = match.groups()
    folder, looked = _fuel_version_folder(host, owner, name, version)
    found = None if folder is None else sdf_file_in_folder(folder)
    if found is not None:
        return Resolved(found, f"local Fuel cache ({folder})")
    raise UnresolvedIncludeError(
        f"cannot find {uri!r} in the local Fuel cache (looked in: {'; '.join(looked)}); "
        "gzinertia never downloads: fetch it once with `gz fuel download -u URL` or by "
        "running the world in Gazebo",
        not_downloaded=True,
    )


def _fuel_file(uri: str) -> Path | None:
    """A file of a Fuel model (``.../<version>/files/<path>``) from the local cache."""
    match = re.match(_FUEL_FILE, uri)
    if match is None:
        return None
    host, owner, name, version, rest = match.groups()
    folder, _ = _fuel_version_folder(host, owner, name, version)
    if folder is None:
        return None
    parts = rest.split("/")
    if not all(_plain_segment(p) for p in parts if p):
        return None
    candidate = folder.joinpath(*(unquote(p) for p in parts if p))
    return candidate if candidate.is_file() else None


def model_search_path(explicit: Sequence[str | Path] = ()) -> list[tuple[Path, str]]:
    """The model path in search order, each entry with the rule that contributed it."""
    entries: list[tuple[Path, str]] = [(Path(p), option("model_path")) for p in explicit]
    for var in MODEL_PATH_VARIABLES:
        for part in os.environ.get(var, "").split(os.pathsep):
            if part:
                entries.append((Path(part), var))
    return entries


def _version_key(v: str) -> tuple[int, ...]:
    return dotted_integers(v) or (0,)


def sdf_file_in_folder(folder: Path) -> Path | None:
    """The SDF file a model folder designates (``model.config``, else ``model.sdf``)."""
    # lxml loads here, when a model.config is read (a cached audit resolves includes without
    # it); not through the package face, whose reader imports this module (a circle)
    from gzinertia.sdf.xml import children, parse_xml_file_shared  # noqa: PLC0415 (see above)

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
            f"set GZ_SIM_RESOURCE_PATH or pass {option('model_path')})"
        )
    problem = unknown_scheme_message(uri)
    if problem is not None:
        found = _after_scheme(uri, model_paths)
        if found is not None:
            return Resolved(found, "the path after the scheme on the model path, as gz-sim")
        raise UnknownSchemeError(
            f"{problem}; it is not on the model path either, so nothing it names was audited"
        )
    fuel = _resolve_fuel(uri)
    if fuel is not None:
        return fuel
    if "://" in uri and not uri.startswith("file://"):
        scheme = uri.split("://", 1)[0]
        raise UnresolvedIncludeError(
            f"cannot resolve {uri!r}: {scheme}:// URIs are not read (no network, no ROS package "
            f"lookup); use model:// with {option('model_path')}"
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
    if unknown_scheme_message(uri) is not None:
        return _after_scheme(uri, model_paths)
    if "://" in uri and not uri.startswith("file://"):
        return _fuel_file(uri)
    raw = Path(uri[len("file://") :] if uri.startswith("file://") else uri)
    candidate = raw if raw.is_absolute() else including_file.parent / raw
    return candidate if candidate.is_file() else None
