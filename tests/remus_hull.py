"""REMUS 100's hull as Prestero (2001) published it (a Myring profile), meshed for the damping
tests (tests/test_damping_strip.py, tests/test_damping_fins.py)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

#: Prestero (2001), MIT/WHOI MS thesis, Table 2.1: REMUS 100's Myring hull (m, rad): nose
#: a (offset a_off), mid-body b, tail c (offset c_off), exponent n, tail angle θ, diameter d.
MYRING = {"a": 0.191, "a_off": 0.0165, "b": 0.654, "c": 0.541, "c_off": 0.0368, "n": 2.0,
          "theta": 0.436, "d": 0.191}


def myring_radius(x: np.ndarray) -> np.ndarray:
    """Prestero (2001) eqs. 2.1-2.2: the Myring profile from the (truncated) nose tip."""
    m = MYRING
    d, a, c = m["d"], m["a"], m["c"]
    nose_end = a - m["a_off"]
    lf = nose_end + m["b"]
    r = np.full_like(x, d / 2)
    nose = x < nose_end
    r[nose] = 0.5 * d * (1 - ((x[nose] + m["a_off"] - a) / a) ** 2) ** (1 / m["n"])
    tail = x > lf
    t = x[tail] - lf
    tan = math.tan(m["theta"])
    r[tail] = 0.5 * d - (3 * d / (2 * c * c) - tan / c) * t**2 + (d / c**3 - tan / c**2) * t**3
    return r


def myring_stl(path: Path, stations: int = 200, around: int = 128) -> float:
    """The Myring hull as a closed binary STL, its nose towards +x (Prestero's body axes) and
    its centre of volume at the origin (the centre of buoyancy his coefficients are about);
    returns its length."""
    m = MYRING
    length = m["a"] - m["a_off"] + m["b"] + m["c"] - m["c_off"]
    x = np.linspace(0.0, length, stations)
    r = myring_radius(x)
    dx = np.diff(x)
    mid_r2 = 0.5 * (r[1:] ** 2 + r[:-1] ** 2)
    centre = float(np.sum(mid_r2 * 0.5 * (x[1:] + x[:-1]) * dx) / np.sum(mid_r2 * dx))
    phi = np.linspace(0.0, 2 * math.pi, around, endpoint=False)
    ring = np.stack([np.broadcast_to((centre - x)[:, None], (stations, around)),
                     r[:, None] * np.sin(phi), r[:, None] * np.cos(phi)], axis=-1)
    nxt = np.roll(ring, -1, axis=1)  # the next vertex around
    a0, a1, b0, b1 = ring[:-1], nxt[:-1], ring[1:], nxt[1:]
    side = np.concatenate([np.stack([a0, b1, b0], axis=-2).reshape(-1, 3, 3),
                           np.stack([a0, a1, b1], axis=-2).reshape(-1, 3, 3)])
    caps = []
    for i, sign in ((0, 1), (stations - 1, -1)):
        hub = np.broadcast_to([centre - x[i], 0.0, 0.0], (around, 3))
        pair = (nxt[i], ring[i]) if sign > 0 else (ring[i], nxt[i])
        caps.append(np.stack([hub, *pair], axis=-2))
    triangles = np.concatenate([side, *caps])
    record = np.zeros(len(triangles), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)),
                                             ("attr", "<u2")])
    record["v"] = triangles
    path.write_bytes(b"\0" * 80 + np.uint32(len(triangles)).tobytes() + record.tobytes())
    return length
