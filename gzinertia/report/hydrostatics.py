"""``gzinertia hydrostatics`` output: the JSON contract (docs/hydrostatics.md) and the text.

Every number is SI (kg, m, m³, N, N·m, kg/m³); points are in the world frame W unless their
name says otherwise (``p_MG``: model frame); non-finite numbers become ``null``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from gzinertia.physics.collision_volume import gazebo_volume_causes
from gzinertia.physics.flotation import Flotation
from gzinertia.physics.hydrostatics import LinkHydrostatics, ModelHydrostatics
from gzinertia.records import BuoyancyWorld
from gzinertia.report.hydrostatics_release import release_lines, release_summary
from gzinertia.wording import number

if TYPE_CHECKING:
    from gzinertia.hydrostatics_result import HydrostaticsResult

#: Relative difference between Gazebo's numbers and the exact geometry's worth reporting.
DIFFERENCE_TOLERANCE = 1e-6


def _vec(v: Any) -> list[float | None] | None:
    if v is None:
        return None
    return [float(x) if math.isfinite(float(x)) else None for x in np.asarray(v).reshape(3)]


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(float(x)) else None


def fluid_summary(fluid: BuoyancyWorld, origin: str, buoyancy_system: str,
                  caveat: str | None) -> dict[str, Any]:
    """The fluid as used: ``origin`` says where it came from (the plugin's file:line,
    ``--density``/``--fluid``, or the assumed 1000 kg/m³); ``buoyancy_system`` whether
    Gazebo's Buoyancy system acts (``loaded``, ``absent``: Gazebo applies no buoyancy,
    ``unknown``: a model file) and ``caveat`` what the numbers then mean."""
    return {
        "origin": origin,
        "buoyancy_system": buoyancy_system,
        "caveat": caveat,
        "kind": fluid.kind,
        "density": fluid.density,
        "layers": [{"above": h, "density": rho} for h, rho in fluid.layers],
        "enable": list(fluid.enabled),
        "g_W": list(fluid.g_W),
    }


def link_differences(link: LinkHydrostatics, scale: float) -> list[str]:
    """Where Gazebo's numbers for the link differ from the exact geometry's (called
    "approximate" where a collision's solid is one:
    :attr:`~gzinertia.physics.hydrostatics.LinkHydrostatics.volume_exact_kind`)."""
    out = []
    kind = link.volume_exact_kind
    if abs(link.volume - link.volume_exact) > DIFFERENCE_TOLERANCE * max(link.volume_exact,
                                                                        1e-300):
        out.append(f"{link.name}: Gazebo's volume {link.volume:.6g} m^3, {kind} "
                   f"{link.volume_exact:.6g} m^3")
    d = float(np.linalg.norm(link.p_WB - link.p_WB_exact))
    if d > DIFFERENCE_TOLERANCE * max(scale, 1e-3) and link.enabled:
        out.append(f"{link.name}: Gazebo's centre of buoyancy is {d:.4g} m from the exact one")
    f, fe = float(np.linalg.norm(link.f_W)), float(np.linalg.norm(link.f_W_exact))
    if abs(f - fe) > DIFFERENCE_TOLERANCE * max(fe, 1e-300):
        out.append(f"{link.name}: Gazebo's buoyancy {f:.6g} N, {kind} {fe:.6g} N")
    for cause in gazebo_volume_causes(link.collisions):
        out.append(f"{link.name}::{cause}")
    for c in link.collisions:
        if c.note:
            out.append(f"{link.name}::{c.name}: {c.note}")
    if link.volume_exact_note:
        out.append(f"{link.name}: {link.volume_exact_note}")
    return out


def _side_by_side(gazebo: float, exact: float) -> dict[str, float | None]:
    """Gazebo's value, the exact one, ``gazebo - exact`` and that relative to the exact one
    (``None`` when the exact one is zero)."""
    difference = gazebo - exact
    return {"gazebo": _num(gazebo), "exact": _num(exact), "difference": _num(difference),
            "relative": _num(difference / exact) if exact != 0 else None}


def gazebo_vs_exact(model: ModelHydrostatics) -> dict[str, dict[str, float | None]]:
    """The ``gazebo_vs_exact`` entry of a model or body (docs/hydrostatics.md): its displaced
    volume (m³, enabled links) and buoyancy (N, along up) as Gazebo's Buoyancy system computes
    them and by exact geometry, side by side with their difference."""
    return {"volume": _side_by_side(model.volume, model.volume_exact),
            "buoyancy": _side_by_side(model.buoyancy, model.buoyancy_exact)}


def link_summary(link: LinkHydrostatics, up: Any) -> dict[str, Any]:
    """A link's hydrostatics as JSON-ready values; ``up`` is the unit vector against gravity."""
    return {
        "name": link.name,
        "enabled": link.enabled,
        "mass": link.mass,
        "volume": link.volume,
        "volume_exact": link.volume_exact,
        "volume_exact_kind": link.volume_exact_kind,
        "volume_exact_note": link.volume_exact_note,
        "buoyancy": _num(float(link.f_W @ up)),
        "buoyancy_exact": _num(float(link.f_W_exact @ up)),
        "p_WG": _vec(link.p_WG),
        "p_WB": _vec(link.p_WB),
        "p_WB_exact": _vec(link.p_WB_exact),
        "p_BoBv_B": _vec(link.p_BoBv_B),
        "p_BoBv_B_exact": _vec(link.p_BoBv_B_exact),
        "collisions": [
            {"name": c.name, "kind": c.kind, "volume": c.volume_gz, "volume_exact": c.volume,
             "note": c.note}
            for c in link.collisions
        ],
    }


def model_summary(model: ModelHydrostatics) -> dict[str, Any]:
    """One entry of the ``models`` list (docs/hydrostatics.md)."""
    up = model._up()
    scale = max(model.volume_exact, 0.0) ** (1.0 / 3.0)
    differences = [d for link in model.links for d in link_differences(link, scale)]
    return {
        "name": model.name,
        "static": all(link.static for link in model.links),
        "mass": model.mass,
        "volume": model.volume,
        "volume_exact": model.volume_exact,
        "fluid_density": _num(model.fluid_density),
        "buoyancy": model.buoyancy,
        "buoyancy_exact": model.buoyancy_exact,
        "weight": model.weight,
        "net": model.net,
        "net_percent": _num(model.net_percent),
        "p_WG": _vec(model.p_WG),
        "p_WB": _vec(model.p_WB),
        "p_WB_exact": _vec(model.p_WB_exact),
        "p_MG": _vec(model.in_model_frame(model.p_WG)),
        "p_MB": _vec(model.in_model_frame(model.p_WB)),
        "p_BG_W": _vec(model.p_BG_W),
        "righting_moment_W": _vec(model.righting_moment_W),
        "restoring_stiffness": _num(model.restoring_stiffness),
        "links": [link_summary(link, up) for link in model.links],
        "differences": differences,
        "gazebo_vs_exact": gazebo_vs_exact(model),
        "bodies": [body_summary(body) for body in model.bodies],
    }


def body_summary(body: ModelHydrostatics) -> dict[str, Any]:
    """One entry of a model's ``bodies`` list (docs/hydrostatics.md): a free body's totals,
    the same keys as the model's, its links by name, and whether a joint anchors it."""
    return {
        "name": body.name,
        "links": [link.name for link in body.links],
        "anchored": body.anchored,
        "static": all(link.static for link in body.links),
        "mass": body.mass,
        "volume": body.volume,
        "volume_exact": body.volume_exact,
        "fluid_density": _num(body.fluid_density),
        "buoyancy": body.buoyancy,
        "buoyancy_exact": body.buoyancy_exact,
        "weight": body.weight,
        "net": body.net,
        "net_percent": _num(body.net_percent),
        "p_WG": _vec(body.p_WG),
        "p_WB": _vec(body.p_WB),
        "p_WB_exact": _vec(body.p_WB_exact),
        "p_BG_W": _vec(body.p_BG_W),
        "righting_moment_W": _vec(body.righting_moment_W),
        "restoring_stiffness": _num(body.restoring_stiffness),
        "gazebo_vs_exact": gazebo_vs_exact(body),
    }


def flotation_summary(f: Flotation | None) -> dict[str, Any] | None:
    """The ``flotation`` entry of a model (docs/hydrostatics.md), ``None`` when not solved."""
    if f is None:
        return None
    return {
        "floats": f.floats, "converged": f.converged, "z_surface": f.z_surface,
        "heave": f.heave, "roll": f.roll, "pitch": f.pitch, "volume": f.volume,
        "draft": f.draft, "waterplane_area": f.waterplane_area, "p_WF": _vec(f.p_WF),
        "p_WB": _vec(f.p_WB), "p_WG": _vec(f.p_WG), "I_T": _num(f.I_T), "I_L": _num(f.I_L),
        "KB": _num(f.KB), "KG": _num(f.KG), "BM_T": _num(f.BM_T), "BM_L": _num(f.BM_L),
        "GM_T": _num(f.GM_T), "GM_L": _num(f.GM_L),
        "stiffness_G": None if f.K_G_W is None else [
            [_num(float(x)) for x in row] for row in np.asarray(f.K_G_W)],
        "tolerance": f.tolerance, "tolerance_note": f.tolerance_note,
    }


def result_summary(result: HydrostaticsResult, file: str) -> dict[str, Any]:
    """The whole ``hydrostatics --json`` object of ``result`` (docs/hydrostatics.md): ``file``,
    ``fluid`` and per model its summary with each free body's ``flotation`` (the model's own
    for a model of one body, ``None`` for several, which float apart). Non-finite numbers are
    left for the writer (:func:`gzinertia.report.json_text.json_safe`)."""
    entries = []
    for m in result.models:
        entry = model_summary(m)
        for body, body_entry in zip(m.bodies, entry["bodies"], strict=True):
            body_entry["flotation"] = flotation_summary(result.flotation[body.name])
        entry["flotation"] = entry["bodies"][0]["flotation"] if len(m.bodies) == 1 else None
        entries.append(entry)
    summary: dict[str, Any] = {
        "file": file,
        "fluid": fluid_summary(result.fluid, result.fluid_origin, result.buoyancy_system,
                               result.caveat),
        "models": entries,
    }
    if result.release is not None:  # a target named: its release beside the exact geometry
        summary["target"] = result.release.target.as_json()
        summary["release"] = release_summary(result)
    return summary


def _fmt(v: Any, unit: str = "m", why: str = "undefined") -> str:
    """A point or vector with its unit; ``why`` in place of one with an undefined entry
    (``null`` in the JSON): the text never prints ``nan``."""
    if v is None:
        return "-"
    if any(x is None for x in v):
        return why
    return "(" + ", ".join(number(x) for x in v) + f") {unit}"


def _scalar(x: float | None, why: str = "-", unit: str = "") -> str:
    return why if x is None else f"{number(x)}{unit}"


def _undefined(m: dict[str, Any]) -> tuple[str, str]:
    """Why the centre of mass and the centre of buoyancy of a model or body are undefined."""
    no_g = "undefined: zero mass"
    if m["volume"] == 0.0:
        return no_g, "undefined: zero volume"
    return no_g, "undefined: no buoyancy acts"


def _centres_line(m: dict[str, Any], indent: str) -> str:
    """``G ..., B ... (world)``; an undefined centre says why."""
    why_g, why_b = _undefined(m)
    return (f"{indent}G {_fmt(m['p_WG'], 'm', why_g)}, B {_fmt(m['p_WB'], 'm', why_b)} "
            "(world)")


def _stiffness(m: dict[str, Any]) -> str:
    """The restoring stiffness, or why it is undefined."""
    _, why_b = _undefined(m)
    why = (f"undefined: {why_b.removeprefix('undefined: ')}, no centre of buoyancy"
           if any(x is None for x in m["p_WB"]) else "undefined: zero mass, no centre of mass")
    return _scalar(m["restoring_stiffness"], why, " N m/rad")


def _state(m: dict[str, Any]) -> str:
    neutral = abs(m["net"]) <= 1e-9 * max(m["weight"], m["buoyancy"])
    return "hovers" if neutral else "rises" if m["net"] > 0 else "sinks"


def _body_lines(b: dict[str, Any], when: str) -> list[str]:
    """A free body of a model of several (docs/hydrostatics.md); ``when``: the condition its
    state holds under (no Buoyancy system, or an assumed one)."""
    net_pct = b["net_percent"]
    state = ("held by a joint to the world (the joint takes the net force)"
             if b["anchored"] and not b["static"]
             else "static: does not move" if b["static"] else _state(b))
    links = "" if b["links"] == [b["name"]] else f" ({', '.join(b['links'])})"
    lines = [
        f"  body {b['name']}{links}: mass {b['mass']:.6g} kg, volume "
        f"{b['volume']:.6g} m^3, buoyancy {b['buoyancy']:.6g} N, weight {b['weight']:.6g} N, "
        f"net {b['net']:+.6g} N ({'-' if net_pct is None else f'{net_pct:+.3g}'} % of weight): "
        f"{state}{when}",
        f"{_centres_line(b, '    ')}; restoring stiffness {_stiffness(b)}",
    ]
    lines.extend(_flotation_lines(b.get("flotation"), "    "))
    return lines


def _flotation_lines(fl: dict[str, Any] | None, indent: str) -> list[str]:
    lines: list[str] = []
    if fl is not None and not fl["floats"]:
        lines.append(f"{indent}surface at z = {number(fl['z_surface'], 6)}: the hull cannot carry "
                     "the weight with any part dry (neutral or heavier): no waterline")
    elif fl is not None:
        heave, roll, pitch = (fl[k] + 0.0 for k in ("heave", "roll", "pitch"))  # never -0
        lines.append(
            f"{indent}floating at z = {number(fl['z_surface'], 6)}: heave {heave:+.4g} m, roll "
            f"{roll:+.4g} rad, pitch {pitch:+.4g} rad from the file's pose"
            f"{'' if fl['converged'] else ' (no trim found: level, heave only)'}; draft "
            f"{fl['draft']:.4g} m, "
            f"waterplane {fl['waterplane_area']:.4g} m^2"
        )
        lines.append(
            f"{indent}KB {_scalar(fl['KB'])} m, KG {_scalar(fl['KG'])} m, BM_T "
            f"{_scalar(fl['BM_T'])} m, BM_L {_scalar(fl['BM_L'])} m: GM_T "
            f"{_scalar(fl['GM_T'])} m, GM_L {_scalar(fl['GM_L'])} m"
            f"{' (negative: capsizes)' if min(fl['GM_T'] or 0, fl['GM_L'] or 0) < 0 else ''}"
        )
        lines.append(f"{indent}these figures within {fl['tolerance']:.2g} relative "
                     f"({fl['tolerance_note']})")
    return lines


def _side_by_side_lines(entry: dict[str, Any], indent: str) -> list[str]:
    """Gazebo's volume and buoyancy beside the exact ones, when they differ."""
    volume, buoyancy = entry["volume"], entry["buoyancy"]
    if volume["difference"] is None or abs(volume["difference"]) <= DIFFERENCE_TOLERANCE * max(
            abs(volume["exact"] or 0.0), 1e-300):
        return []
    relative = volume["relative"]
    percent = "" if relative is None else f" ({100 * relative:+.3g} %)"
    return [f"{indent}volume: Gazebo {volume['gazebo']:.6g} m^3, exact {volume['exact']:.6g} "
            f"m^3, difference {volume['difference']:+.6g} m^3{percent}; buoyancy: Gazebo "
            f"{_scalar(buoyancy['gazebo'])} N, exact {_scalar(buoyancy['exact'])} N"]


def render_text(summary: dict[str, Any]) -> str:
    """The summary as plain text, one block per model."""
    fluid = summary["fluid"]
    lines = []
    if fluid["kind"] == "uniform":
        lines.append(f"fluid: uniform {fluid['density']:g} kg/m^3 ({fluid['origin']})")
    else:
        layers = ", ".join(f"{x['density']:g} above z={x['above']:g}" for x in fluid["layers"])
        lines.append(f"fluid: graded, {fluid['density']:g} kg/m^3 below"
                     f"{', ' + layers if layers else ''} ({fluid['origin']})")
    if fluid.get("caveat"):
        lines.append(f"  {fluid['caveat']}")
    when = {"absent": " (if a Buoyancy system were added)",
            "unknown": " (in a world with that Buoyancy system)"}.get(
        fluid.get("buoyancy_system", "loaded"), "")
    for m in summary["models"]:
        lines.append("")
        net_pct = m["net_percent"]
        state = _state(m) if len(m["bodies"]) == 1 else "several free bodies (below)"
        if len(m["bodies"]) == 1 and m["bodies"][0]["anchored"]:
            state = "held by a joint to the world (the joint takes the net force)"
        if m["static"]:
            state = "static: does not move"
        lines.append(f"model {m['name']}: mass {m['mass']:.6g} kg, volume {m['volume']:.6g} m^3")
        lines.append(
            f"  buoyancy {m['buoyancy']:.6g} N, weight {m['weight']:.6g} N, net "
            f"{m['net']:+.6g} N ({'-' if net_pct is None else f'{net_pct:+.3g}'} % of weight): "
            f"{state}{when}"
        )
        lines.extend(_side_by_side_lines(m["gazebo_vs_exact"], "  "))
        lines.append(_centres_line(m, "  "))
        why_g, why_b = _undefined(m)
        if m["p_MG"] is not None:
            lines.append(f"  G {_fmt(m['p_MG'], 'm', why_g)}, B {_fmt(m['p_MB'], 'm', why_b)} "
                         "(model frame)")
        lines.append(f"  BG {_fmt(m['p_BG_W'])}; righting moment about G "
                     f"{_fmt(m['righting_moment_W'], 'N m')}; restoring stiffness "
                     f"{_stiffness(m)}")
        for link in m["links"]:
            off = "" if link["enabled"] else " (not enabled: no buoyancy)"
            lines.append(f"    {link['name']}: volume {link['volume']:.6g} m^3, B "
                         f"{_fmt(link['p_WB'])}{off}")
        lines.extend(_flotation_lines(m.get("flotation"), "  "))
        if len(m["bodies"]) > 1:
            for b in m["bodies"]:
                lines.extend(_body_lines(b, when))
        for d in m["differences"]:
            lines.append(f"  differs from exact geometry: {d}")
    lines.extend(release_lines(summary))
    return "\n".join(lines)
