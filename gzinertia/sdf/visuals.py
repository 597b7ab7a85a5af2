"""A link's ``<visual>`` geometry: what the buoyancy-proxy rule (GZI304), ``addmass``'s proxy
warning, ``addmass --bem --geometry visual`` with its GZI212, and ``fix --geometry visual`` use.

The SDF reader (:mod:`gzinertia.sdf.reader`) reads every link's visuals in the same pass as its
collisions, into :attr:`~gzinertia.records.LinkRecord.visuals`: posed in the link frame with
``relative_to`` resolved through the file's frame graph as libsdformat does (another link, a
frame, a joint, a nested model, ``__model__``; no attribute: the link), mesh URIs resolved as
the collisions' are. Visuals that cannot be read are in
:attr:`~gzinertia.records.LinkRecord.unread_visuals` with the reason; callers then refuse or
stay silent rather than compute with a part missing.
"""

from __future__ import annotations

from gzinertia.records import Collision, LinkRecord

__all__ = ["link_visuals"]


def link_visuals(link: LinkRecord) -> tuple[list[Collision], int]:
    """``(visuals, skipped)``: the link's visuals as :class:`~gzinertia.records.Collision`
    records (``X_BC`` is the visual's pose ``X_BV`` in the link frame B), and how many could
    not be read (:attr:`~gzinertia.records.LinkRecord.unread_visuals` says which and why).

    The visuals are those the reading of the link's file recorded (the reading's model paths
    resolved their meshes): no second parse. A link the SDF reader did not read (URDF) has
    none: ``([], 0)``."""
    return list(link.visuals), len(link.unread_visuals)
