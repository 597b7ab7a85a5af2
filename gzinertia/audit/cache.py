"""The audit's result cache: a file whose inputs have not changed is not checked again.

A file's findings depend on its bytes, on the bytes of every file its reading pulled in
(included models, meshes), on where each include and mesh URI resolves, on the settings that
shape the checks (selected rules, fluid density, inertia tolerance, model path) and on the code
that checks. An entry stores the findings together with:

* the BLAKE2b digest of the audited file and of every file its includes and meshes resolved to
  (:attr:`gzinertia.records.SdfDocument.dependencies`), compared by content, not by modification
  time, so a fresh checkout (CI, ``actions/cache``) still hits;
* each URI looked up, with the file it resolved to (or that it did not): on a hit the URI is
  resolved again, by the rules that resolved it (SDF includes and meshes through the model
  path; URDF meshes, ``package://``, ``file://`` or relative, through the package paths), so a
  model folder that appears earlier in the model path, a changed ``model.config`` or a mesh
  that has appeared all invalidate the entry;
* for a xacro file, what its expansion read (:mod:`gzinertia.urdf.xacro_inputs`): every file
  (includes, ``load_yaml`` files, the ``package.xml`` of each package ``$(find)`` found),
  digested as above; each ``$(find)`` with the folder it found, looked up again; each xacro
  argument it looked up, with the value given to this file (``xacro-args`` per glob,
  ``--xacro-arg``); each include pattern, with its matches. A change to one of these re-checks
  the files that used it and no other: another argument for one package's files, or an edited
  fragment, leaves every other entry served.

A file the audit skips for what it holds (a xacro file of macros only) is cached with the
reason, as a checked file is.

Each entry carries a keyed BLAKE2b digest (a MAC) of its content and the file it is for, keyed
by the code fingerprint below; an entry that does not verify is treated as absent, so the file
is checked again. What this protects against, and what it does not: an entry damaged on disk,
edited by hand or by a naive script (a finding deleted, a digest replaced to make a failing file
pass), copied to another file's key, or written by another version of gzinertia is never
trusted. It is not a secret: anyone who can run this code can recompute the key and forge an
entry, so a cache restored from an untrusted source (a pull request's CI cache) is only as
trustworthy as whoever could write it; use ``--no-cache`` or a cache key per branch there.

The cache file is read like every other input (:mod:`gzinertia.io.safe_read`): a regular file of
at most :data:`MAX_CACHE_BYTES`, checked before it is opened; one that is not, that is not
JSON, or that is nested too deeply to parse is ignored.

Everything else goes into the key of the cache file: a fingerprint of the installed gzinertia
sources (path, size and modification time of each module) and of NumPy, SciPy, lxml and trimesh
(their ``__init__.py``), the Python version, the selected rule codes, density and tolerance,
the model path (explicit and from the environment), the working directory, and what else
shapes every xacro expansion (the environment variables ``$(env)`` may read, their values, the
package roots from the environment, the expansion limits). Files that could
not be read are never cached; nor are suppressions outside the file (``ignore`` per path is
applied after the cache, every run).

The cache lives in ``.gzinertia_cache/`` in the working directory (``--cache-dir``,
``GZINERTIA_CACHE_DIR``; ``--no-cache`` switches it off). It is written atomically at the end of
a run; a cache that cannot be read or written is ignored (the audit then simply checks every
file). The folder holds a ``.gitignore`` and a ``CACHEDIR.TAG`` so that it is neither committed
nor backed up.

Nothing in it is reached through a symbolic link (:mod:`gzinertia.io.confined`): below the
working directory (or, for a cache folder elsewhere, below that folder) every folder on the way,
the markers and the cache files are opened without following a link, so a link a pull request
commits (``.gzinertia_cache/audit`` to a folder elsewhere, a dangling ``.gitignore``), or one
an ``actions/cache`` archive restores, makes the cache unused (with a note), never written,
read or pruned through. Pruning deletes only regular ``*.json`` files, by name in the folder.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import hmac
import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import gzinertia.urdf
from gzinertia.audit.cache_file import (
    FILE_HEAD,
    FILE_TAIL,
    SCHEMA,
    entries_by_line,
    finding_from_json,
    finding_to_json,
)
from gzinertia.audit.findings import Finding, JsonValue
from gzinertia.dependency import FILE_KINDS
from gzinertia.io.cache_folder import (
    DEFAULT_DIR,
    ENV_DIR,
    MAX_CACHE_BYTES,
    cache_root,
    default_cache_dir,
    load_cache_file,
    prepare_cache_folder,
    store_cache_file,
)
from gzinertia.io.confined import open_folder
from gzinertia.io.limits import ENV_XACRO_MEMORY, ENV_XACRO_SECONDS, MeshLimits, ReadLimits
from gzinertia.io.safe_read import digest_regular_file
from gzinertia.io.safe_write import write_atomically
from gzinertia.record_base import Record
from gzinertia.sdf.includes import (
    UnresolvedIncludeError,
    model_search_path,
    resolve_resource,
    resolve_uri,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    import gzinertia.urdf.ros_packages
    from gzinertia.audit.findings import FileStatus
    from gzinertia.io.limits import ReadLimits
    from gzinertia.records import Dependency

__all__ = [
    "DEFAULT_DIR",
    "ENV_DIR",
    "MAX_CACHE_BYTES",
    "MAX_DIGEST_BYTES",
    "MAX_KEYS",
    "SCHEMA",
    "AuditCache",
    "CachedResult",
    "default_cache_dir",
    "entry_mac",
    "file_digest",
    "load_cache_file",
    "prepare_cache_folder",
    "run_key",
    "store_cache_file",
]

#: Largest file digested (the audited files and what they pull in: SDF files are capped at
#: 64 MiB, meshes at 256 MiB by default; a file over this is treated as unreadable).
MAX_DIGEST_BYTES = 1024 * 1024 * 1024
#: Cache files (one per key) kept in the folder; the least recently written go first.
MAX_KEYS = 8
def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def file_digest(path: str) -> str | None:
    """The BLAKE2b digest of a regular file's bytes (``None`` when it cannot be read, or is not
    a regular file: a FIFO or device is never opened, see :mod:`gzinertia.io.safe_read`)."""
    try:
        return digest_regular_file(path, MAX_DIGEST_BYTES)
    except OSError:
        return None


#: Packages whose numbers the checks depend on, besides gzinertia itself.
_DEPENDENCIES = ("numpy", "scipy", "lxml", "trimesh")


def _entry_mac_key(fingerprint: str) -> bytes:
    """The key of the entries' MACs: derived from the code fingerprint and the schema."""
    return hashlib.blake2b(
        f"gzinertia audit cache entry\0{SCHEMA}\0{fingerprint}".encode(), digest_size=32
    ).digest()


def entry_mac(mac_key: bytes, entry_key: str, entry: dict[str, JsonValue]) -> str:
    """The keyed BLAKE2b digest of ``entry`` (without its ``mac``) stored under ``entry_key``:
    of ``[entry_key, body]`` as compact JSON in the entry's own key order (the order
    :func:`json.loads` gives back: the order in the cache file), so an entry read back from the
    cache file gives the same and an entry whose keys were reordered does not verify."""
    body = {k: v for k, v in entry.items() if k != "mac"}
    return _text_mac(mac_key, entry_key, _compact(body))


def _text_mac(mac_key: bytes, entry_key: str, body: str) -> str:
    """:func:`entry_mac` of the entry whose body (without ``mac``) is the compact JSON
    ``body``."""
    text = "[" + json.dumps(entry_key) + "," + body + "]"
    return hashlib.blake2b(text.encode(), key=mac_key, digest_size=16).hexdigest()


def _compact(entry: dict[str, JsonValue]) -> str:
    """An entry as :meth:`AuditCache.save` writes it (and :func:`entry_mac` digests it):
    compact JSON, keys in their order (``mac`` is added last, so the text before it is the text
    its MAC was computed over)."""
    return json.dumps(entry, separators=(",", ":"))


@functools.cache
def _code_fingerprint() -> str:
    """Size and modification time of every gzinertia module and of each dependency's
    ``__init__.py`` (an edited checkout, a new release or an upgraded package gets a new key),
    and the Python version; computed once per process (the run key and the entries' MAC key
    both need it). Located without importing anything: importing NumPy, or reading
    package metadata (about 28 ms), costs more than a cached run's checks."""
    package = Path(__file__).resolve().parent.parent
    stamped: list[tuple[str, Path | None]] = [
        (relative, package / relative) for relative in _modules_under(str(package))
    ]
    for name in _DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        origin = None if spec is None else spec.origin
        stamped.append((name, Path(origin) if origin else None))
    h = hashlib.blake2b(digest_size=16)
    h.update(sys.version.encode())
    for label, path in stamped:
        try:
            st = path.stat() if path is not None else None
        except OSError:
            st = None
        stamp = "absent" if st is None else f"{st.st_size}:{st.st_mtime_ns}"
        h.update(f"{label}:{stamp}\n".encode())
    return h.hexdigest()


def _modules_under(root: str) -> list[str]:
    """Every ``*.py`` under ``root`` (symlinked folders not entered), relative to it, in the
    order ``sorted(Path(root).rglob("*.py"))`` gives (by path component): the same
    fingerprint, without a ``Path`` per file."""
    found: list[tuple[str, ...]] = []
    for folder, dirnames, filenames in os.walk(root):
        relative = os.path.relpath(folder, root)
        parts = () if relative == os.curdir else tuple(relative.split(os.sep))
        found += [(*parts, name) for name in (*dirnames, *filenames) if name.endswith(".py")]
    return [os.path.join(*parts) for parts in sorted(found)]


def run_key(selected: Iterable[str], density: float | None, tolerance: str,
            search: Sequence[str], limits: ReadLimits | None = None, *,
            net_buoyancy: float = 0.05,
            xacro_env: Sequence[str] = (), trust_xacro: bool = False,
            hull: str = "none", target: Mapping[str, str] | None = None) -> str:
    """The key of one cache file: code, settings (the mesh ``hull`` fallback too, the target
    release and engine with their origins: messages name them), read and
    mesh limits (``limits``, default from the environment), model path and working directory;
    for xacro files, the environment variables ``$(env)`` may read and their values
    (``xacro_env``; only their digest is kept), whether expressions run as Python
    (``trust_xacro``), the package roots from the environment and the expansion limits. The
    xacro arguments are not in it: each entry records the arguments its expansion looked up
    (:class:`AuditCache`)."""
    read_limits = limits or ReadLimits.from_environment()
    mesh_limits = MeshLimits.from_environment()

    settings: list[JsonValue] = [
        SCHEMA,
        _code_fingerprint(),
        sorted(selected),
        density,
        tolerance,
        [[str(base), rule] for base, rule in model_search_path(search)],
        os.getcwd(),
        [read_limits.max_included_models, read_limits.max_links],
        [mesh_limits.max_bytes, mesh_limits.max_vertices, mesh_limits.max_faces],
        net_buoyancy,
        _xacro_settings(),
        [[name, os.environ.get(name)] for name in sorted(set(xacro_env))],
        trust_xacro,
        hull,
        dict(target or {}),
    ]
    return _digest(json.dumps(settings).encode())


def _xacro_settings() -> JsonValue:
    """What else decides every xacro file's expansion: where ``$(find)`` looks (beyond the
    model path) and the expansion's limits (a lower one can turn a result into an error)."""
    env = ("ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH", ENV_XACRO_SECONDS, ENV_XACRO_MEMORY)
    return [os.environ.get(name, "") for name in env]


@dataclass(repr=False)
class _Digests(Record):
    """File digests computed at most once per run (``None``: the file cannot be read)."""

    known: dict[str, str | None] = field(default_factory=dict)

    def of(self, path: str) -> str | None:
        if path not in self.known:
            self.known[path] = file_digest(path)
        return self.known[path]


def _resolves_to(kind: str, uri: str, base: str, search: Sequence[str]) -> str | None:
    """Where the dependency ``uri`` of kind ``kind`` (:class:`~gzinertia.records.Dependency`,
    written in ``base``) resolves now, by the reader's own rules (which look at ``base``'s
    folder, never at ``base`` itself); ``search``: the model path, which is also the package
    path of URDF and xacro files. Not for ``xacro-arg`` (:meth:`AuditCache.lookup`)."""
    if kind == "file":
        return uri if os.path.isfile(uri) else None
    if kind in ("urdf-resource", "package"):
        packages = gzinertia.urdf.ros_packages
        if kind == "package":
            folder = packages.find_package(uri, search)
            return None if folder is None else str(folder)
        return packages.resolve_package_uri(uri, search, os.path.dirname(base))
    if kind == "glob":
        return json.dumps(sorted(glob.glob(uri)))
    if kind == "include":
        try:
            return str(resolve_uri(uri, Path(base), search).path)
        except UnresolvedIncludeError:
            return None
    found = resolve_resource(uri, Path(base), search)
    return None if found is None else str(found)


@dataclass(frozen=True, repr=False, eq=False)
class CachedResult(Record):
    """A file's stored result: its findings, and ``skipped``, the reason the audit skipped it
    as read alone (``None``: it was checked)."""

    findings: list[Finding]
    skipped: str | None = None
    #: For a skipped fragment: why it is one (the run says what includes it).
    fragment: str | None = None


class AuditCache:
    """The cached results of one run key, loaded from and saved to ``folder``.

    :meth:`lookup` gives a file's findings when nothing it depends on has changed;
    :meth:`store` records a freshly checked file; :meth:`save` writes the cache back (atomically).
    A cache that cannot be read or written is ignored; :attr:`problems` says why, one line
    each. Entries are keyed by the file's absolute path and its spelling, joined by a NUL
    (which no path holds). ``xacro_args_for``: the xacro arguments given to a file (default:
    none), against which the arguments an entry's expansion looked up are checked."""

    def __init__(self, folder: Path, key: str, search: Sequence[str],
                 xacro_args_for: Callable[[str], Mapping[str, str]] | None = None) -> None:
        self.folder = folder
        self.path = folder / "audit" / f"{key}.json"
        self.search = list(search)
        self._args_for = xacro_args_for or (lambda path: {})
        self.problems: list[str] = []
        self._digests = _Digests()
        self._stored: dict[str, dict[str, JsonValue]] = {}  # this run's new entries
        self._resolutions: dict[tuple[str, str, str], str | None] = {}
        self._mac_key = _entry_mac_key(_code_fingerprint())
        self._entries, self._texts = self._load(report=True)

    def _load(
        self, report: bool
    ) -> tuple[dict[str, dict[str, JsonValue]], dict[str, str]]:
        """The entries on disk (none when there is no cache file or it cannot be read, is not a
        regular file, is larger than :data:`MAX_CACHE_BYTES` or nested too deeply to parse),
        and, for a file in :meth:`save`'s layout (one entry a line), each entry's text."""
        try:
            raw = load_cache_file(self.folder, self.path)
            by_line = entries_by_line(raw)
            if by_line is not None:
                return by_line
            data = json.loads(raw)
            if isinstance(data, dict) and data.get("schema") == SCHEMA:
                entries = data.get("entries", {})
                return (dict(entries) if isinstance(entries, dict) else {}), {}
        except (FileNotFoundError, NotADirectoryError):  # no cache yet (or no folder for one)
            pass
        except (OSError, ValueError) as exc:
            if report:
                self.problems.append(f"{self.path}: unreadable cache ignored ({exc})")
        except RecursionError:
            if report:
                self.problems.append(f"{self.path}: unreadable cache ignored (nested too deeply)")
        return {}, {}

    def _verified(self, key: str, entry: object) -> bool:
        """Whether ``entry`` carries the MAC this code gives it under ``key``."""
        if not isinstance(entry, dict):
            return False
        mac = entry.get("mac")
        if not isinstance(mac, str):
            return False
        # The entry as read from a line save() wrote: its MAC checked on that very text (the
        # entry is the object parsed from it), without encoding it again.
        text = self._texts.get(key) if self._entries.get(key) is entry else None
        tail = ',"mac":' + json.dumps(mac) + "}"
        if text is not None and text.endswith(tail):
            body = text[: -len(tail)] + "}"
            if hmac.compare_digest(mac, _text_mac(self._mac_key, key, body)):
                return True
        try:
            expected = entry_mac(self._mac_key, key, entry)
        except (TypeError, ValueError, RecursionError):  # not JSON-serialisable as stored
            return False
        return hmac.compare_digest(mac, expected)

    def _key(self, path: str) -> str:
        return f"{os.path.abspath(path)}\0{path}"

    def _resolution(self, kind: str, uri: str, base: str) -> str | None:
        """:func:`_resolves_to`, once per URI and folder in a run (many files of one folder
        include the same models); for ``xacro-arg``, the value given to ``base`` now."""
        if kind == "xacro-arg":
            return self._args_for(base).get(uri)
        key = (kind, uri, os.path.dirname(base))
        if key not in self._resolutions:
            self._resolutions[key] = _resolves_to(kind, uri, base, self.search)
        return self._resolutions[key]

    def lookup(self, path: str) -> CachedResult | None:
        """What is stored for ``path``, or ``None`` when absent or out of date."""
        key = self._key(path)
        entry = self._entries.get(key)
        if not isinstance(entry, dict) or not self._verified(key, entry):
            return None
        try:
            digests = entry["digests"]
            deps = entry["dependencies"]
            if not (isinstance(digests, dict) and isinstance(deps, list)):
                return None  # not an entry this code wrote
            for file, digest in digests.items():
                if self._digests.of(file) != digest:
                    return None
            for kind, uri, base, resolved in deps:
                if self._resolution(kind, uri, base) != resolved:
                    return None
            stored = entry["findings"]
            skipped, fragment = entry.get("skipped"), entry.get("fragment")
            if not isinstance(stored, list) or not isinstance(skipped, (str, type(None))) \
                    or not isinstance(fragment, (str, type(None))):
                return None
            findings = [finding_from_json(f) for f in stored]
        except (AttributeError, KeyError, TypeError, ValueError):  # a damaged entry
            return None
        return CachedResult(findings, skipped, fragment)

    def store(
        self, path: str, digest: str, findings: Sequence[Finding], deps: Sequence[Dependency],
        status: FileStatus | None = None, fragment: str | None = None,
    ) -> None:
        """Records ``path``'s findings and what they depend on (``status``: a file skipped for
        what it holds, with its reason, and ``fragment``, why it is a fragment; default:
        checked). ``digest`` is that of the bytes
        as they were before the check read them: if the file changed during the check, the
        entry no longer matches it. (Included files and meshes are digested here, after the
        check; one edited during that file's check may keep its stale entry until it changes
        again.) Skipped when a file it read can no longer be read."""
        files = [d.path for d in deps
                 if d.path is not None and d.path != path and d.kind in FILE_KINDS]
        digests: dict[str, str | None] = {path: digest}
        digests.update({f: self._digests.of(f) for f in dict.fromkeys(files)})
        if any(d is None for d in digests.values()):
            return
        key = self._key(path)
        entry: dict[str, JsonValue] = {
            "digests": digests,
            "dependencies": [[d.kind, d.uri, d.base, d.path] for d in deps],
            "findings": [finding_to_json(f) for f in findings],
        }
        if status is not None and status.status == "skipped":
            entry["skipped"] = status.message
            entry["fragment"] = fragment
        entry["mac"] = entry_mac(self._mac_key, key, entry)
        self._stored[key] = entry

    def save(self) -> None:
        """Writes the cache (atomically) when :meth:`store` recorded something: the entries on
        disk as they are now (another process with the same settings, e.g. pre-commit's parallel
        batches, may have added some since this one loaded them) updated with this run's,
        without the entries of files that no longer exist; keeps the newest :data:`MAX_KEYS`
        cache files."""
        if not self._stored:
            return

        try:
            self._prepare_folder()
            on_disk, texts = self._load(report=False)
            entries = {**on_disk, **self._stored}
            # Entries of files that are gone would only grow the file.
            live = [k for k in entries if os.path.exists(k.split("\0", 1)[0])]
            lines = [
                json.dumps(k) + ":" + (_compact(self._stored[k]) if k in self._stored
                                       else texts.get(k) or _compact(entries[k]))
                for k in live
            ]
            data = FILE_HEAD + "\n" + ",\n".join(lines) + ("\n" if lines else "") + FILE_TAIL
            write_atomically(self.path, data.encode("utf-8"), root=cache_root(self.folder))
            self._prune()
        except Exception as exc:  # a cache is an optimisation: never fail the audit for it
            self.problems.append(f"{self.path}: cache not written ({exc})")

    def _prepare_folder(self) -> None:
        prepare_cache_folder(self.folder, self.path.parent)

    def _prune(self) -> None:
        """Keeps the newest :data:`MAX_KEYS` cache files: regular ``*.json`` files only,
        deleted by name in the cache's own folder (never through a link)."""
        with open_folder(self.path.parent, cache_root(self.folder)) as folder:
            files = sorted(
                (entry.stat(follow_symlinks=False).st_mtime_ns, entry.name)
                for entry in os.scandir(folder.fd)
                if entry.name.endswith(".json") and not entry.name.startswith(".")
                and entry.is_file(follow_symlinks=False)
            )
            for _, name in files[:-MAX_KEYS]:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name, dir_fd=folder.fd)
