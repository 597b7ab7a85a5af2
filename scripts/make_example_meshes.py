#!/usr/bin/env python3
"""Write the meshes used by ``sdf_examples/`` deterministically (standard library only).

``sdf_examples/spar_buoy/meshes/buoy_hull.stl`` (binary STL, millimetres):
a closed, watertight, outward-oriented surface of revolution about +z:

* a cone from the apex (0, 0, 0) to radius 250 mm at z = 300 mm,
* a cylinder of radius 250 mm from z = 300 mm to z = 1200 mm (three bands of quads),
* a flat top cap at z = 1200 mm (fan around a centre vertex).

64 segments around: 64 (cone) + 3 * 128 (wall) + 64 (cap) = 512 triangles, 25,684 bytes.
The model scales it by 0.001 to metres. Run from anywhere:

    python scripts/make_example_meshes.py
"""

from __future__ import annotations

import itertools
import math
import struct
from pathlib import Path

Vertex = tuple[float, float, float]
Triangle = tuple[Vertex, Vertex, Vertex]

SEGMENTS = 64
RADIUS_MM = 250.0
CONE_TOP_MM = 300.0
TOP_MM = 1200.0
WALL_BANDS = 3

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "sdf_examples" / "spar_buoy" / "meshes" / "buoy_hull.stl"


def ring(z: float) -> list[Vertex]:
    """Vertices of one circle of the hull at height z (counter-clockwise seen from +z)."""
    pts = []
    for k in range(SEGMENTS):
        a = 2.0 * math.pi * k / SEGMENTS
        pts.append((RADIUS_MM * math.cos(a), RADIUS_MM * math.sin(a), z))
    return pts


def buoy_triangles() -> list[Triangle]:
    """Triangles with counter-clockwise winding seen from outside (outward normals)."""
    tris: list[Triangle] = []
    apex: Vertex = (0.0, 0.0, 0.0)
    top: Vertex = (0.0, 0.0, TOP_MM)
    heights = [CONE_TOP_MM + (TOP_MM - CONE_TOP_MM) * b / WALL_BANDS for b in range(WALL_BANDS + 1)]
    rings = [ring(z) for z in heights]
    n = SEGMENTS
    # Cone: normal points down and out, so seen from below the order apex, next, current.
    lowest = rings[0]
    for k in range(n):
        tris.append((apex, lowest[(k + 1) % n], lowest[k]))
    # Cylinder wall: quad (lower k, lower k+1, upper k+1, upper k), outward normal.
    for lo, up in itertools.pairwise(rings):
        for k in range(n):
            k1 = (k + 1) % n
            tris.append((lo[k], lo[k1], up[k1]))
            tris.append((lo[k], up[k1], up[k]))
    # Top cap: normal +z, counter-clockwise seen from above.
    highest = rings[-1]
    for k in range(n):
        tris.append((top, highest[k], highest[(k + 1) % n]))
    return tris


def normal(t: Triangle) -> Vertex:
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = t
    ux, uy, uz = bx - ax, by - ay, bz - az
    vx, vy, vz = cx - ax, cy - ay, cz - az
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    length = math.sqrt(nx * nx + ny * ny + nz * nz)
    return (nx / length, ny / length, nz / length)


def write_binary_stl(path: Path, tris: list[Triangle], header: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        f.write(header.ljust(80, b" ")[:80])
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", *normal(t)))
            for v in t:
                f.write(struct.pack("<3f", *v))
            f.write(struct.pack("<H", 0))


def main() -> None:
    tris = buoy_triangles()
    write_binary_stl(
        OUT, tris, b"gzinertia example spar buoy hull, units mm, +z up, apex at origin"
    )
    print(f"wrote {OUT} ({len(tris)} triangles, {OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
