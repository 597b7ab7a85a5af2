"""The audit rules, grouped by subject; importing this package registers them all.

* :mod:`~gzinertia.audit.rules.inertia`: GZI101–GZI113 (rigid inertia)
* :mod:`~gzinertia.audit.rules.added_mass`: GZI201–GZI204, GZI206, GZI207 (``<fluid_added_mass>``)
* :mod:`~gzinertia.audit.rules.hydrodynamics`: GZI205, GZI208, GZI209, GZI211 (the plugin)
* :mod:`~gzinertia.audit.rules.model`: GZI001, GZI002, GZI210 (files and models)
* :mod:`~gzinertia.audit.rules.geometry`: GZI003 (collision meshes that could not be used)
* :mod:`~gzinertia.audit.rules.bem`: GZI212 (added mass from ``addmass --bem``)
* :mod:`~gzinertia.audit.rules.hydrostatics`: GZI301–GZI305 (buoyancy)
* :mod:`~gzinertia.audit.rules.urdf`: GZI401–GZI405 (URDF conversion, xacro, ROS packages)
"""

from __future__ import annotations

from collections.abc import Mapping

from gzinertia.audit.rules import (  # noqa: F401 (importing registers the rules)
    added_mass,
    bem,
    geometry,
    hydrodynamics,
    hydrostatics,
    inertia,
    model,
    urdf,
)
from gzinertia.audit.rules.registry import Rule, registered_rules

RULES: Mapping[str, Rule] = registered_rules()


__all__ = ["RULES", "Rule"]
