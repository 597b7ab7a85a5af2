"""Where a model's files are found and how a xacro file is expanded: one record for every
command and library call that reads a model.

The command line's options ``-m/--model-path``, ``--package-path``, ``--xacro-arg``,
``--xacro-env`` and ``--trust-xacro`` (declared once: :func:`gzinertia.cli.options.
model_input_options`) make one :class:`ModelInput`; the library takes its parts as the keyword
arguments of :func:`gzinertia.read` (``model_paths``, ``package_paths``, ``xacro_args``,
``xacro_env``, ``trust_xacro``).

Nothing here imports NumPy or the URDF package (CLI start-up).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = ["ModelInput"]


@dataclass(frozen=True, repr=False, eq=False)
class ModelInput(ValueRecord):
    """How to read a model file and what it names.

    ``model_paths`` are searched for ``model://`` URIs (before ``GZ_SIM_RESOURCE_PATH``,
    ``SDF_PATH`` and ``IGN_GAZEBO_RESOURCE_PATH``); ``package_paths`` for ROS packages
    (``$(find pkg)``, ``package://``) in URDF and xacro files (before ``ROS_PACKAGE_PATH`` and
    ``AMENT_PREFIX_PATH``; the model paths are searched for packages too). ``xacro_args``:
    xacro's ``name:=value`` arguments, in the order given; ``xacro_env``: the environment
    variables ``$(env)``/``$(optenv)`` may read; ``trust_xacro``: evaluate expressions with
    Python (docs/security.md).
    """

    model_paths: tuple[Path, ...] = ()
    package_paths: tuple[Path, ...] = ()
    xacro_args: tuple[tuple[str, str], ...] = field(default=())
    xacro_env: frozenset[str] = frozenset()
    trust_xacro: bool = False

    @classmethod
    def of(
        cls,
        model_paths: Sequence[Path] = (),
        package_paths: Sequence[Path] = (),
        xacro_args: Mapping[str, str] | None = None,
        xacro_env: Sequence[str] = (),
        trust_xacro: bool = False,
    ) -> ModelInput:
        """The record of these values (sequences and mappings as given, ``None`` as none)."""
        return cls(tuple(model_paths), tuple(package_paths),
                   tuple((xacro_args or {}).items()), frozenset(xacro_env), trust_xacro)

    @property
    def search_paths(self) -> list[Path]:
        """The folders a reader searches first, model paths then package paths (a URDF or
        xacro reader takes them all as package paths, an SDFormat reader as model paths)."""
        return [*self.model_paths, *self.package_paths]

    @property
    def xacro_mapping(self) -> dict[str, str] | None:
        """``xacro_args`` as a mapping; ``None`` when none was given."""
        return dict(self.xacro_args) if self.xacro_args else None

    @property
    def xacro_policy(self) -> XacroPolicy | None:
        """What a xacro expansion may do (``None``: the defaults, without importing the URDF
        package)."""
        if not self.xacro_env and not self.trust_xacro:
            return None
        # not at the top: the URDF package (yaml, lxml) stays out of the CLI's start-up and of
        # an SDF audit; XacroPolicy is reached only when a xacro setting is given
        from gzinertia.urdf.xacro_policy import XacroPolicy  # noqa: PLC0415 (see above)

        return XacroPolicy(env=self.xacro_env, trust=self.trust_xacro)
