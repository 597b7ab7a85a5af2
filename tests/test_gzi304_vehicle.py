"""GZI304 judges a proxy collision by what it changes in the free body's buoyancy (issue 25,
item 12), not link by link.

The ECA A9 case: 1 g sensor links whose 1e-18 m³ stub collisions sit against visuals of
1e-9 to 1e-4 m³ changed the vehicle's buoyancy by at most 0.1 N of its hundreds: six warnings,
none about the hull. The oracle is the closed form of the volumes (boxes and a cylinder):
ρ·ΔV of each link against the body's weight (its mass).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import sdf_builders as sdf
from audit_helpers import findings_of

from gzinertia.audit.rules.proxy_collisions import PROXY_BUOYANCY_FRACTION

HULL_RADIUS, HULL_LENGTH = 0.1, 1.6
HULL_VOLUME = math.pi * HULL_RADIUS**2 * HULL_LENGTH  # the closed form, m³
ALONG_X = (0.0, 0.0, 0.0, 0.0, math.pi / 2, 0.0)
#: Visual edges of the sensor links (m): volumes 1e-9 to 1e-4 m³ as on the ECA A9.
SENSOR_EDGES = (1e-3, 4e-3, 1e-2, 2e-2, 3e-2, 0.0464)
STUB_EDGE = 1e-6  # a 1e-18 m³ stub collision


def _hull(collision_radius: float = HULL_RADIUS) -> str:
    mass = 1000.0 * HULL_VOLUME  # neutral: a submerged vehicle (the rule's scope)
    I = np.diag([0.5 * mass * HULL_RADIUS**2] + [mass * HULL_LENGTH**2 / 12] * 2)
    return sdf.link(
        "hull", sdf.inertial(mass, I),
        sdf.visual(sdf.cylinder_geometry(HULL_RADIUS, HULL_LENGTH), ALONG_X),
        sdf.collision(sdf.cylinder_geometry(collision_radius, HULL_LENGTH), ALONG_X),
    )


def _sensors() -> list[str]:
    parts = []
    for k, edge in enumerate(SENSOR_EDGES):
        name = f"sensor{k}"
        parts.append(sdf.link(
            name, sdf.inertial(1e-3, np.eye(3) * 1e-9),
            sdf.visual(sdf.box_geometry((edge,) * 3)),
            sdf.box((STUB_EDGE,) * 3),
            pose=(0.1 * k - 0.3, 0.0, HULL_RADIUS, 0.0, 0.0, 0.0),
        ))
        parts.append(sdf.joint(f"{name}_joint", "hull", name))
    return parts


def test_stub_collisions_of_sensor_links_change_nothing_that_matters(tmp_path: Path) -> None:
    # the oracle: the sensors' missing volume against the vehicle's weight
    missing = sum(edge**3 - STUB_EDGE**3 for edge in SENSOR_EDGES)
    assert 1000.0 * missing < PROXY_BUOYANCY_FRACTION * 1000.0 * HULL_VOLUME
    found = findings_of(tmp_path, sdf.model(_hull(), *_sensors(), name="auv"), "GZI304")
    assert found == [], [f.message for f in found]


def test_a_hull_collision_much_smaller_than_its_visual_is_reported(tmp_path: Path) -> None:
    r = 0.3 * HULL_RADIUS  # 9 % of the hull's volume: 91 % of its buoyancy is missing
    found = findings_of(tmp_path, sdf.model(_hull(r), *_sensors(), name="auv"), "GZI304")
    assert [f.link for f in found] == ["auv::hull"], [f.message for f in found]
    (f,) = found
    missing = HULL_VOLUME - math.pi * r * r * HULL_LENGTH
    weight = 1000.0 * HULL_VOLUME + 1e-3 * len(SENSOR_EDGES)  # the body's mass, kg
    assert np.isclose(f.values["buoyancy_change"], -1000.0 * missing / weight, rtol=1e-9)
    assert "of the body's" in f.message and "auv::hull" not in f.values.get("negligible", [])


def test_many_small_proxies_that_add_up_get_one_summary_finding(tmp_path: Path) -> None:
    # twelve links, each missing 0.5 % of the vehicle's buoyancy: none alone, 6 % together
    each = 0.005 * HULL_VOLUME
    edge = each ** (1.0 / 3.0)
    parts = []
    for k in range(12):
        parts.append(sdf.link(
            f"pod{k}", sdf.inertial(0.5, np.eye(3) * 1e-3),
            sdf.visual(sdf.box_geometry((edge,) * 3)), sdf.box((STUB_EDGE,) * 3),
            pose=(0.1 * k - 0.6, 0.0, -HULL_RADIUS, 0.0, 0.0, 0.0),
        ))
        parts.append(sdf.joint(f"pod{k}_joint", "hull", f"pod{k}"))
    found = findings_of(tmp_path, sdf.model(_hull(), *parts, name="auv"), "GZI304")
    assert len(found) == 1, [f.message for f in found]
    (f,) = found
    assert sorted(f.values["links"]) == sorted(f"auv::pod{k}" for k in range(12))
    weight = 1000.0 * HULL_VOLUME + 12 * 0.5
    assert "12 links" in f.message and np.isclose(
        f.values["buoyancy_change"], -12_000.0 * (each - STUB_EDGE**3) / weight, rtol=1e-9
    )
