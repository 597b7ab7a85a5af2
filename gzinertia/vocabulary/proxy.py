"""The buoyancy proxy's name: the collision ``migrate --buoyancy proxy`` writes
(:mod:`gzinertia.edit.migrate_buoyancy`) and the audit's buoyancy rules recognise. NumPy-free."""

from __future__ import annotations

__all__ = ["PROXY_NAME", "is_buoyancy_proxy"]

#: The name of the proxy collision ``migrate --buoyancy proxy`` writes.
PROXY_NAME = "gzinertia_buoyancy_proxy"


def is_buoyancy_proxy(collision_name: str | None) -> bool:
    """Whether a collision is the buoyancy proxy ``migrate --buoyancy proxy`` wrote."""
    return collision_name == PROXY_NAME
