"""The buoyancy proxy's words: the collision ``migrate --buoyancy proxy`` writes
(:mod:`gzinertia.edit.migrate_buoyancy`), recognised by its name and by colliding with nothing
(the SDF reader sets :attr:`gzinertia.records.Collision.buoyancy_proxy` from them). NumPy-free."""

from __future__ import annotations

__all__ = ["PROXY_NAME", "is_buoyancy_proxy"]

#: The name of the proxy collision ``migrate --buoyancy proxy`` writes.
PROXY_NAME = "gzinertia_buoyancy_proxy"


def is_buoyancy_proxy(collision_name: str | None, collide_bitmask: str | None) -> bool:
    """Whether a collision is the buoyancy proxy ``migrate --buoyancy proxy`` wrote: named
    :data:`PROXY_NAME` and colliding with nothing (``collide_bitmask``, the text of its
    ``<surface><contact><collide_bitmask>``, is 0; ``None`` when absent). A collision of that
    name that collides is a body part. The reader sets the record's flag from this
    (:attr:`gzinertia.records.Collision.buoyancy_proxy`); its users read the flag."""
    if collision_name != PROXY_NAME or collide_bitmask is None:
        return False
    try:
        return int(collide_bitmask.strip(), 0) == 0
    except ValueError:
        return False
