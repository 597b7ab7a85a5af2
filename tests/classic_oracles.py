"""Force laws of the classic marine plugins, re-implemented from their source for the tests.

Independent of :mod:`gzinertia.classic`: the blocks are parsed with the standard library and
every term is written out as the C++ computes it.

* UUV Simulator @ bfb40cb153684a0703173117b6bbf4258e8e71c5,
  ``uuv_gazebo_plugins/uuv_gazebo_plugins/src/HydrodynamicModel.cc``: HMFossen::HMFossen
  (lines 223-357), ApplyHydrodynamicForces (360-446), ComputeAddedCoriolisMatrix (449-460),
  ComputeDampingMatrix (463-487), ComputeAcc (102-125), ToNED (128-134), HMSphere (697-750),
  HMCylinder (789-925), HMSpheroid (961-1033); ``BuoyantObject.cc`` GetBuoyancyForce (82-163),
  SetNeutrallyBuoyant (66-79).
* VRX @ c9b9388308f8976c724da4af6685f69c9c378983 (branch gazebo_classic),
  ``usv_gazebo_plugins/src/usv_gazebo_dynamics_plugin.cc``: Load (90-112, 163-170),
  Update (228-289).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np

RHO_AT_CONSTRUCTION = 1028.0  # BuoyantObject's constructor, before SetFluidDensity


def _vec(text: str | None) -> list[float]:
    return [float(w) for w in (text or "").split()]


def uuv_link_matrices(link: ET.Element, mass: float) -> dict[str, np.ndarray]:
    """``Ma``, ``DLin``, ``DLinForwardSpeed``, ``DNonLin`` (6x6) as the plugin builds them."""
    hm = link.find("hydrodynamic_model")
    assert hm is not None
    Ma = np.zeros((6, 6))
    DLin = np.zeros((6, 6))
    DFwd = np.zeros((6, 6))
    DNonLin = np.zeros((6, 6))
    tags = {"added_mass": Ma, "linear_damping": DLin,
            "linear_damping_forward_speed": DFwd, "quadratic_damping": DNonLin}
    for tag, M in tags.items():
        e = hm.find(tag)
        if e is None:
            continue
        v = _vec(e.text)
        for row in range(6):
            for col in range(6):
                if len(v) == 36:
                    M[row, col] = v[6 * row + col]
                elif row == col:
                    M[row, col] = v[row]
    kind = (hm.findtext("type") or "").strip()
    rho = RHO_AT_CONSTRUCTION
    box = link.find("box")
    dims = None
    if box is not None:
        dims = [float(box.findtext(t) or 0) for t in ("width", "length", "height")]
    radius = float(hm.findtext("radius")) if hm.find("radius") is not None else (
        min(dims) if dims else math.nan)
    length = float(hm.findtext("length")) if hm.find("length") is not None else (
        max(dims) if dims else math.nan)
    if kind == "sphere":
        for i in range(3):
            Ma[i, i] = -(-2.0 / 3.0 * rho * math.pi * radius**3)
            DNonLin[i, i] = -0.5 * rho * 0.5 * (math.pi * radius**2)
    elif kind == "cylinder":
        ratio = length / (2 * radius)
        cd_circ = math.nan
        if ratio <= 1:
            cd_circ = 0.91
        elif ratio <= 2:
            cd_circ = 0.85
        elif ratio <= 4:
            cd_circ = 0.87
        elif ratio <= 7:
            cd_circ = 0.99
        if ratio <= 1:
            cd_len = 0.63
        elif ratio <= 2:
            cd_len = 0.68
        elif ratio <= 5:
            cd_len = 0.74
        elif ratio <= 10:
            cd_len = 0.82
        else:
            cd_len = 0.98
        axis = (hm.findtext("axis") or "").strip()
        MaLength = -rho * math.pi * radius**2 * length
        MaCirc = -rho * math.pi * radius**2
        MaTorque = (-1.0 / 12.0) * rho * math.pi * radius**2 * length**3
        DCirc = -0.5 * cd_circ * math.pi * radius**2 * rho
        DLength = -0.5 * cd_len * radius * length * rho
        if axis == "i":
            Ma[0, 0], Ma[1, 1], Ma[2, 2] = -MaCirc, -MaLength, -MaLength
            Ma[4, 4] = Ma[5, 5] = -MaTorque
            DNonLin[0, 0], DNonLin[1, 1], DNonLin[2, 2] = DCirc, DLength, DLength
        elif axis == "j":
            Ma[0, 0], Ma[1, 1], Ma[2, 2] = -MaLength, -MaCirc, -MaLength
            Ma[3, 3] = Ma[5, 5] = -MaTorque
            DNonLin[0, 0], DNonLin[1, 1], DNonLin[2, 2] = DLength, DCirc, DLength
        else:
            Ma[0, 0], Ma[1, 1], Ma[2, 2] = -MaLength, -MaLength, -MaCirc
            Ma[3, 3] = Ma[4, 4] = -MaTorque
            DNonLin[0, 0], DNonLin[1, 1], DNonLin[2, 2] = DLength, DLength, DCirc
    elif kind == "spheroid":
        ecc = math.sqrt(1 - (radius / length) ** 2)
        ln = math.log((1 + ecc) / (1 - ecc))
        alpha = 2 * (1 - ecc**2) / ecc**3
        alpha *= 0.5 * ln - ecc
        beta = 1 / ecc**2 - (1 - ecc**2 / (2 * ecc**3)) * ln
        Ma[0, 0] = mass * alpha / (2 - alpha)
        Ma[1, 1] = mass * beta / (2 - beta)
        Ma[2, 2] = Ma[1, 1]
        Ma[3, 3] = 0
        bm = radius**2 - length**2
        bp = radius**2 + length**2
        Ma[4, 4] = -0.2 * mass * bm**2 * (alpha - beta)
        Ma[4, 4] /= 2 * bm - bp * (alpha - beta)
        Ma[5, 5] = Ma[4, 4]
    return {"Ma": Ma, "DLin": DLin, "DFwd": DFwd, "DNonLin": DNonLin}


def _cross_op(a: np.ndarray) -> np.ndarray:
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]], dtype=float)


def _to_ned(v: np.ndarray) -> np.ndarray:
    return np.array([v[0], -v[1], -v[2]])


def uuv_tau(mats: dict[str, np.ndarray], lin_vel: np.ndarray, ang_vel: np.ndarray,
            filtered_acc: np.ndarray, R_WB: np.ndarray, flow_W: np.ndarray,
            ) -> tuple[np.ndarray, np.ndarray]:
    """(hydForce, hydTorque) in link axes as ApplyHydrodynamicForces passes them to
    AddRelativeForce / AddRelativeTorque."""
    flow_B = R_WB.T @ flow_W  # RotateVectorReverse
    vel = np.concatenate([_to_ned(lin_vel - flow_B), _to_ned(ang_vel)])
    Ma = mats["Ma"]
    ab = Ma @ vel
    Sa = -1 * _cross_op(ab[:3])
    Ca = np.block([[np.zeros((3, 3)), Sa], [Sa, -1 * _cross_op(ab[3:])]])
    D = -1 * mats["DLin"] - vel[0] * mats["DFwd"]
    for i in range(6):
        D[i, i] += -1 * mats["DNonLin"][i, i] * abs(vel[i])
    tau = -D @ vel + (-Ma @ filtered_acc) + (-Ca @ vel)
    return _to_ned(tau[:3]), _to_ned(tau[3:])


def uuv_filtered_acc(filtered: np.ndarray, vel: np.ndarray, last: np.ndarray, dt: float,
                     alpha: float = 0.3) -> np.ndarray:
    """ComputeAcc's filter (NED velocities)."""
    if dt <= 0:
        return filtered
    return (1 - alpha) * filtered + alpha * (vel - last) / dt


def uuv_buoyancy(link: ET.Element, z: float, mass: float, g: float, rho: float,
                 height: float) -> float:
    """GetBuoyancyForce's vertical force for an underwater link (not a surface vessel)."""
    volume_decl = float(link.findtext("volume") or 0.0)
    neutral = (link.findtext("neutrally_buoyant") or "0").strip() in ("1", "true")
    this_volume = mass / RHO_AT_CONSTRUCTION if neutral else volume_decl
    get_volume = max(0.0, 1.0 * (this_volume + 0.0))
    volume = 0.0
    if z + height / 2 > 0 and z < 0:
        volume = get_volume * (abs(z) + height / 2) / height
    elif z + height / 2 < 0:
        volume = get_volume
    if not neutral or volume != this_volume:
        return volume * rho * g
    return mass * g


VRX_DEFAULTS = {"xDotU": 5, "yDotV": 5, "zDotW": 0.1, "kDotP": 0.1, "mDotQ": 0.1,
                "nDotR": 1, "xU": 20, "xUU": 0, "yV": 20, "yVV": 0, "zW": 20, "zWW": 0,
                "kP": 20, "kPP": 0, "mQ": 20, "mQQ": 0, "nR": 20, "nRR": 0}


def vrx_force(plugin: ET.Element, lin: np.ndarray, ang: np.ndarray, lin_acc: np.ndarray,
              ang_acc: np.ndarray) -> np.ndarray:
    """kForceSum of UsvDynamicsPlugin::Update (force then torque, link axes, at Bcm)."""
    p = {k: float(plugin.findtext(k)) if plugin.find(k) is not None else float(v)
         for k, v in VRX_DEFAULTS.items()}
    Ma = np.diag([p["xDotU"], p["yDotV"], p["zDotW"], p["kDotP"], p["mDotQ"], p["nDotR"]])
    state_dot = np.concatenate([lin_acc, ang_acc])
    state = np.concatenate([lin, ang])
    amass = -1.0 * Ma @ state_dot
    Dmat = np.zeros((6, 6))
    Dmat[0, 0] = p["xU"] + p["xUU"] * abs(lin[0])
    Dmat[1, 1] = p["yV"] + p["yVV"] * abs(lin[1])
    Dmat[2, 2] = p["zW"] + p["zWW"] * abs(lin[2])
    Dmat[3, 3] = p["kP"] + p["kPP"] * abs(ang[0])
    Dmat[4, 4] = p["mQ"] + p["mQQ"] * abs(ang[1])
    Dmat[5, 5] = p["nR"] + p["nRR"] * abs(ang[2])
    return amass + (-1.0 * Dmat @ state)
