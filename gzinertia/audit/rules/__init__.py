"""The audit rules, one module per family; :mod:`~gzinertia.audit.rules.registry` collects them.

* :mod:`~gzinertia.audit.rules.inertia`: GZI101–GZI113 (rigid inertia)
* :mod:`~gzinertia.audit.rules.added_mass`: GZI201–GZI204, GZI206, GZI207 (``<fluid_added_mass>``)
* :mod:`~gzinertia.audit.rules.hydrodynamics`: GZI205, GZI208, GZI209, GZI211 (the plugin)
* :mod:`~gzinertia.audit.rules.model`: GZI001, GZI002, GZI210 (files and models)
* :mod:`~gzinertia.audit.rules.geometry`: GZI003 (collision meshes that could not be used)
* :mod:`~gzinertia.audit.rules.bem`: GZI212 (added mass from ``addmass --bem``)
* :mod:`~gzinertia.audit.rules.stability`: GZI301, GZI303 (hydrostatic stability)
* :mod:`~gzinertia.audit.rules.buoyancy`: GZI302, GZI305 (buoyancy against weight, geometry)
* :mod:`~gzinertia.audit.rules.proxy_collisions`: GZI304 (buoyancy-proxy collisions)
* :mod:`~gzinertia.audit.rules.urdf`: GZI401–GZI405 (URDF conversion, xacro, ROS packages)
* :mod:`~gzinertia.audit.rules.classic`: GZI501–GZI508 (classic marine plugins)
* :mod:`~gzinertia.audit.rules.releases`: GZI601–GZI603 (what the target Gazebo release and
  engine do)
* :mod:`~gzinertia.audit.rules.buoyancy_release`: GZI604 (buoyancy as the target release
  computes it)

Each rule is a check (marked with its code by :mod:`gzinertia.audit.emit`) that asks the
predicates of :mod:`gzinertia.checks` and turns their answers into findings; a family imports
no other family (the hydrostatics rules share their scope through
:mod:`gzinertia.audit.hydrostatics_scope`). Its code, name, severity, summary and page are in
:data:`~gzinertia.audit.catalogue.RULE_INFOS`.
"""

from __future__ import annotations

from gzinertia.audit.rules.registry import RULES, Rule

__all__ = ["RULES", "Rule"]
