"""Caps on how much one input may make gzinertia read or build (hostile-input limits).

A few kilobytes of SDF can describe an unbounded amount of work: ten levels of models each
including the next ten times name 10⁹ links; a 785-byte ``.stl.bz2`` inflates to gigabytes.
Every command reads through these caps; going over one is an error naming the file and line
(exit status 2), never a hang or a memory blow-up.

=============================  =========================  =====================================
cap                            default                    set with
=============================  =========================  =====================================
included models, per file      10,000                     ``GZINERTIA_MAX_INCLUDED_MODELS``;
                                                          ``audit --max-included-models``
links, per file (with          500,000                    ``GZINERTIA_MAX_LINKS``;
included ones)                                            ``audit --max-links``
mesh file size                 256 MiB                    ``GZINERTIA_MAX_MESH_BYTES``
mesh vertices                  2,000,000                  ``GZINERTIA_MAX_MESH_VERTICES``
mesh triangles                 2,000,000                  ``GZINERTIA_MAX_MESH_FACES``
=============================  =========================  =====================================

SDF files (the audited one, includes, ``model.config``) are capped at 64 MiB
(:data:`gzinertia.sdf.xml.MAX_FILE_BYTES`), checked before they are read.

The BEM's native meshing runs in a child process (:mod:`gzinertia.physics.mesh_sandbox`) limited
to ``GZINERTIA_MESH_SECONDS`` of CPU time (default 60; three times that plus 5 s of wall-clock
time) and ``GZINERTIA_MESH_MAX_MEMORY`` MiB of memory beyond what the process has (default
2048): :class:`MesherLimits`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import ClassVar, TypeVar

from gzinertia.errors import GzInertiaError
from gzinertia.numbers import NumberError, read_integer
from gzinertia.record_base import ValueRecord

__all__ = [
    "ENV_MAX_INCLUDED_MODELS",
    "ENV_MAX_LINKS",
    "ENV_MAX_MESH_BYTES",
    "ENV_MAX_MESH_FACES",
    "ENV_MAX_MESH_VERTICES",
    "ENV_MESH_MEMORY",
    "ENV_MESH_SECONDS",
    "ENV_XACRO_MEMORY",
    "ENV_XACRO_SECONDS",
    "MAX_CHILD_MEMORY_MIB",
    "MAX_CHILD_SECONDS",
    "ChildLimits",
    "MeshLimits",
    "MesherLimits",
    "ReadLimits",
]

ENV_MAX_INCLUDED_MODELS = "GZINERTIA_MAX_INCLUDED_MODELS"
ENV_MAX_LINKS = "GZINERTIA_MAX_LINKS"
ENV_MAX_MESH_BYTES = "GZINERTIA_MAX_MESH_BYTES"
ENV_MAX_MESH_VERTICES = "GZINERTIA_MAX_MESH_VERTICES"
ENV_MAX_MESH_FACES = "GZINERTIA_MAX_MESH_FACES"
#: A xacro expansion's CPU seconds and memory (MiB): :mod:`gzinertia.urdf.xacro_sandbox` reads
#: them; named here so that the audit cache's key reads them without importing the URDF package.
ENV_XACRO_SECONDS = "GZINERTIA_XACRO_SECONDS"
ENV_XACRO_MEMORY = "GZINERTIA_XACRO_MAX_MEMORY"


#: The largest value any limit takes from the environment (2**53: exact as a float too).
MAX_LIMIT = 2**53


def _from_env(name: str, default: int, maximum: int = MAX_LIMIT) -> int:
    """A whole number from 1 to ``maximum`` from the environment variable ``name``
    (``default`` when unset), in ASCII digits (``int()`` took ``1_000`` and ``１０``); anything
    else is an error naming the variable."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = read_integer(raw)
    except NumberError:
        value = 0
    if not 1 <= value <= maximum:
        raise GzInertiaError(f"{name} must be a whole number from 1 to {maximum}, not "
                             f"{raw[:40]!r}")
    return value


@dataclass(frozen=True, repr=False, eq=False)
class ReadLimits(ValueRecord):
    """Caps on what reading one SDF file may pull in: ``max_included_models`` ``<include>``
    elements resolved (at any depth, each inclusion counted), ``max_links`` links (the file's
    own and those of the models it includes)."""

    max_included_models: int = 10_000
    max_links: int = 500_000

    @classmethod
    def from_environment(cls) -> ReadLimits:
        """The defaults, replaced by ``GZINERTIA_MAX_INCLUDED_MODELS`` and
        ``GZINERTIA_MAX_LINKS`` where set."""
        return cls(
            max_included_models=_from_env(ENV_MAX_INCLUDED_MODELS, cls.max_included_models),
            max_links=_from_env(ENV_MAX_LINKS, cls.max_links),
        )


@dataclass(frozen=True, repr=False, eq=False)
class MeshLimits(ValueRecord):
    """Caps on one mesh file: its size in bytes (checked before it is read), its vertices and
    its triangles (checked from the file's header where the format declares them, else after
    loading)."""

    max_bytes: int = 256 * 1024 * 1024
    max_vertices: int = 2_000_000
    max_faces: int = 2_000_000

    @classmethod
    def from_environment(cls) -> MeshLimits:
        """The defaults, replaced by ``GZINERTIA_MAX_MESH_BYTES``, ``..._VERTICES`` and
        ``..._FACES`` where set."""
        return cls(
            max_bytes=_from_env(ENV_MAX_MESH_BYTES, cls.max_bytes),
            max_vertices=_from_env(ENV_MAX_MESH_VERTICES, cls.max_vertices),
            max_faces=_from_env(ENV_MAX_MESH_FACES, cls.max_faces),
        )


#: The largest limits the environment may set for a limited child process: a day of CPU time,
#: 4 TiB of memory (larger ones overflow the clocks and resource limits the child sets).
MAX_CHILD_SECONDS = 86_400
MAX_CHILD_MEMORY_MIB = 1 << 22


_Limits = TypeVar("_Limits", bound="ChildLimits")


@dataclass(frozen=True, repr=False, eq=False)
class ChildLimits(ValueRecord):
    """CPU seconds and memory (MiB of address space beyond what the process already has) one
    limited child process may use (:mod:`gzinertia.sandbox`); the parent waits
    :attr:`wall_seconds` of wall-clock time. Each kind of child is a subclass that names its
    environment variables (:attr:`ENV_SECONDS`, :attr:`ENV_MEMORY`) and defaults."""

    seconds: int
    memory_mib: int

    ENV_SECONDS: ClassVar[str] = ""
    ENV_MEMORY: ClassVar[str] = ""

    @property
    def wall_seconds(self) -> float:
        """Three times the CPU limit, plus 5 s: the machine may be busy."""
        return 3.0 * self.seconds + 5.0

    @classmethod
    def from_environment(cls: type[_Limits]) -> _Limits:
        """The defaults, replaced by :attr:`ENV_SECONDS` and :attr:`ENV_MEMORY` where set (at
        most :data:`MAX_CHILD_SECONDS` and :data:`MAX_CHILD_MEMORY_MIB`)."""
        defaults = {f.name: f.default for f in fields(cls)}
        seconds, memory_mib = defaults["seconds"], defaults["memory_mib"]
        assert isinstance(seconds, int) and isinstance(memory_mib, int), cls  # a subclass's
        return cls(
            _from_env(cls.ENV_SECONDS, seconds, MAX_CHILD_SECONDS),
            _from_env(cls.ENV_MEMORY, memory_mib, MAX_CHILD_MEMORY_MIB),
        )


#: CPU seconds and memory (MiB) of the BEM's native meshing child (:class:`MesherLimits`).
ENV_MESH_SECONDS = "GZINERTIA_MESH_SECONDS"
ENV_MESH_MEMORY = "GZINERTIA_MESH_MAX_MEMORY"


@dataclass(frozen=True, repr=False, eq=False)
class MesherLimits(ChildLimits):
    """The limits of the BEM's native meshing child (:mod:`gzinertia.physics.mesh_sandbox`,
    ``GZINERTIA_MESH_SECONDS``, ``GZINERTIA_MESH_MAX_MEMORY``): a link's meshing takes
    milliseconds to a few seconds (a finely faceted mesh file decimated)."""

    seconds: int = 60
    memory_mib: int = 2048

    ENV_SECONDS: ClassVar[str] = ENV_MESH_SECONDS
    ENV_MEMORY: ClassVar[str] = ENV_MESH_MEMORY
