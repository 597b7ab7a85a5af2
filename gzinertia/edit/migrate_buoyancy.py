"""``migrate --buoyancy proxy``: gz-sim's Buoyancy system made to float the volume UUV
Simulator's plugin declared, at its centre of buoyancy.

gz-sim's Buoyancy system floats the sum of a link's collisions, each at its centre
(``src/systems/buoyancy/Buoyancy.cc``; DESIGN.md); a declared ``<volume>`` has no element in
gz-sim. An added collision can only add volume, so the proxy is the difference: a sphere of
volume ``V_p = V_declared − V_collisions`` centred where the sum's centre lands on the declared
centre, ``p_p = (V_declared·p_declared − V_collisions·p_collisions) / V_p`` (link frame), which
collides with nothing (``<collide_bitmask>0``: contacts stay the hull's). Fully submerged, the
force and its point are then the plugin's exactly; near the surface the sphere wets differently
from the declared volume (said). Where the collisions already float more than the declared
volume no proxy can lower it: refused, with the way out.

The proxy is the collision named :data:`PROXY_NAME`, preceded by a provenance comment of
``key=value`` data (:func:`proxy_comment`); the audit's buoyancy rules leave it out of their
comparisons with the visuals (:func:`gzinertia.vocabulary.proxy.is_buoyancy_proxy`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gzinertia.classic.uuv import CONSTRUCTION_DENSITY, UuvLink
from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.links import link_element
from gzinertia.errors import GzInertiaError
from gzinertia.record_base import ValueRecord
from gzinertia.records import LinkRecord
from gzinertia.spatial.rotation import Vec3
from gzinertia.vocabulary.proxy import PROXY_NAME

__all__ = ["BUOYANCY_CHOICES", "BuoyancyProxy", "plan_proxy", "proxy_comment", "write_proxy"]

#: ``migrate --buoyancy``: keep the collisions (the net-buoyancy change said), or add a proxy.
BUOYANCY_CHOICES = ("keep", "proxy")
#: The smallest proxy written, as a fraction of the declared volume: below it the collisions
#: float the declared volume already (to the written precision).
_NEGLIGIBLE = 1e-9


@dataclass(frozen=True, repr=False, eq=False)
class BuoyancyProxy(ValueRecord):
    """The proxy of one link: its ``volume`` (m³), centre ``p_BoP_B`` and sphere ``radius``
    (m, link frame), and what it makes up: the plugin's ``declared`` volume at
    ``p_BoC_B`` and the collisions' ``collisions`` volume at ``p_BoV_B``."""

    volume: float
    p_BoP_B: tuple[float, float, float]
    radius: float
    declared: float
    p_BoC_B: tuple[float, float, float]
    collisions: float
    p_BoV_B: tuple[float, float, float]


def plan_proxy(block: UuvLink, link: LinkRecord, gazebo_volume: tuple[float, Vec3]
               ) -> BuoyancyProxy | None:
    """The proxy that makes ``link``'s collisions (``gazebo_volume``: what gz-sim's Buoyancy
    floats, volume and centre in the link frame) float what ``block`` declared: ``<volume>``
    (or mass/1028 with ``<neutrally_buoyant>``) at ``<center_of_buoyancy>`` (from the centre of
    mass); ``None`` where they float it already (a proxy written before). Raises
    :class:`~gzinertia.errors.GzInertiaError` where the collisions float more."""
    declared = (link.inertial.mass / CONSTRUCTION_DENSITY if block.neutrally_buoyant
                else block.volume)
    p_C = np.asarray(link.inertial.p_BoBcm_B, dtype=float) + np.asarray(block.p_BcmC_B)
    volume, centre = gazebo_volume
    p_V = np.asarray(centre, dtype=float)
    extra = declared - volume
    if abs(extra) <= _NEGLIGIBLE * max(declared, 1e-300):
        return None
    if extra < 0.0:
        raise GzInertiaError(
            f"{block.source}: --buoyancy proxy: link {link.name!r}'s collisions float "
            f"{volume:.6g} m^3, the plugin declared {declared:.6g} m^3: an added collision "
            "can only add volume to what gz-sim's Buoyancy system floats; keep the collisions "
            "(--buoyancy keep: the change is said) or make them the declared volume")
    p_P = (declared * p_C - volume * p_V) / extra
    radius = (3.0 * extra / (4.0 * math.pi)) ** (1.0 / 3.0)
    return BuoyancyProxy(extra, _vec(p_P), radius, declared, _vec(p_C), volume, _vec(p_V))


def proxy_comment(proxy: BuoyancyProxy) -> str:
    """The provenance comment before the proxy: ``key=value`` data, one home for its words."""
    return ("gzinertia migrate: buoyancy proxy; "
            f"volume={proxy.volume:.10g}; declared={proxy.declared:.10g}; "
            f"collisions={proxy.collisions:.10g}; center={_text(proxy.p_BoC_B)}")


def write_proxy(editor: XmlEditor, link: LinkRecord, proxy: BuoyancyProxy) -> None:
    """Appends the proxy collision to ``link``'s element (module docstring)."""
    unit = editor.indent_unit.decode()
    editor.append_child_lines(link_element(editor, link), [
        f"<!-- {proxy_comment(proxy)} -->",
        f'<collision name="{PROXY_NAME}">',
        f"{unit}<pose>{_text(proxy.p_BoP_B)} 0 0 0</pose>",
        f"{unit}<geometry><sphere><radius>{proxy.radius:.10g}</radius></sphere></geometry>",
        f"{unit}<surface><contact><collide_bitmask>0</collide_bitmask></contact></surface>",
        "</collision>",
    ])


def _vec(p: np.ndarray) -> tuple[float, float, float]:
    return (float(p[0]), float(p[1]), float(p[2]))


def _text(p: tuple[float, float, float]) -> str:
    return " ".join(f"{v:.10g}" for v in p)
