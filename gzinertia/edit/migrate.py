"""``gzinertia migrate``: the classic marine plugins of an SDFormat or URDF file (UUV Simulator's
underwater-object plugin, VRX's USV dynamics) written as their gz-sim equivalent, over the
:class:`~gzinertia.edit.model_file.ModelFile` backend.

Per link (the mathematics: :mod:`gzinertia.classic.migrate`): the added mass as
``<fluid_added_mass>`` about the link origin in link axes (its symmetric part; the skew part's
size, and how DART's Coriolis wrench differs from the plugin's, in the outcome, the warnings and
the comment written with it), the damping as gz-sim Hydrodynamics terms (gz-sim's sign), and the
buoyancy left to gz-sim's Buoyancy system, which floats the collisions: the net buoyancy
before and after is reported, never changed silently. The classic block is removed (gz-sim does
not load it, and numbers left in two places drift apart) unless ``keep_classic``. A URDF file
takes the added mass in the Hydrodynamics plugin instead (:mod:`gzinertia.edit.migrate_urdf`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.edit.backends import model_format
from gzinertia.edit.migrate_buoyancy import BUOYANCY_CHOICES
from gzinertia.edit.migrate_request import (
    TARGETS,
    BuoyancyChange,
    MigratedLink,
    MigrateRequest,
    MigrateResult,
)
from gzinertia.errors import SettingError
from gzinertia.gazebo.target import DEFAULT_TARGET, Target

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = ["TARGETS", "BuoyancyChange", "MigrateRequest", "MigrateResult", "MigratedLink",
           "migrate"]


def migrate(
    path: str | Path,
    *,
    to: str = "gz-sim",
    keep_classic: bool = False,
    force: bool = False,
    upgrade_version: bool = True,
    model_paths: Sequence[str | Path] = (),
    data: bytes | None = None,
    xacro_args: Mapping[str, str] | None = None,
    xacro_policy: XacroPolicy | None = None,
    target: Target = DEFAULT_TARGET,
    buoyancy: str = "keep",
) -> MigrateResult:
    """The classic marine plugin blocks of the SDFormat or URDF file ``path`` as gz-sim
    ``<fluid_added_mass>`` and Hydrodynamics terms (module docstring). ``force`` replaces a
    ``<fluid_added_mass>`` or plugin terms the link has already; ``upgrade_version``: raise a
    file older than SDF 1.10 to 1.10 (``<fluid_added_mass>``'s version) when its meaning
    allows; ``data``: the file's bytes when they do not come from ``path`` (standard input);
    ``xacro_args`` and ``xacro_policy``: a xacro file's arguments and what its expansion may
    do (:mod:`gzinertia.edit.migrate_xacro`); ``target``: the Gazebo release and engine the
    file is for (an SDFormat file's ``<fluid_added_mass>`` is refused where the target ignores
    it, GZI601); ``buoyancy``: ``"keep"`` the collisions (the net-buoyancy change said) or add
    a ``"proxy"`` (:mod:`gzinertia.edit.migrate_buoyancy`). Writes nothing: see
    :meth:`Edit.write`."""
    if buoyancy not in BUOYANCY_CHOICES:
        raise SettingError("buoyancy", "{buoyancy} must be one of "
                           + ", ".join(BUOYANCY_CHOICES) + ", not {value}", value=buoyancy)
    if to not in TARGETS:
        raise SettingError("to", "{to} must be one of " + ", ".join(TARGETS) + ", not {value}",
                           value=to)
    if to == "uuv-simulator" and buoyancy == "proxy":
        raise SettingError("buoyancy", "{buoyancy} proxy goes with a migration to gz-sim: UUV "
                           "Simulator's plugin floats a declared volume itself")
    if to == "uuv-simulator" and (keep_classic or force):
        raise SettingError("to", "{to} uuv-simulator writes a classic block for each link "
                           "with gz-sim hydrodynamics (none is replaced) and removes what it "
                           "converts: keep_classic and force go with gz-sim")
    request = MigrateRequest(Path(path), keep_classic, force, upgrade_version, model_paths, data,
                             xacro_args, xacro_policy, to, target, buoyancy)
    return model_format(request.path).migrate_edit(request)  # URDF refuses standard input
