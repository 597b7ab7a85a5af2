"""Rules about what the target Gazebo release and engine do with the file: GZI601-GZI603.

The target (:class:`~gzinertia.gazebo.target.Target`, the document's
:attr:`~gzinertia.checks.context.DocumentContext.target`) is chosen on the command line, in the
settings, by a world's Physics system or by default; what each release and engine does is the
table :mod:`gzinertia.gazebo.releases`, each row with its source. Every message names the
target and where it came from.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from gzinertia.audit.emit import finding, fmt, link_rule
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import LinkContext
from gzinertia.gazebo.releases import CHANGES
from gzinertia.gazebo.target import Target
from gzinertia.hydrodynamics_terms import FORCE_AXES, VELOCITY_AXES, added_mass_active
from gzinertia.shell import command_line
from gzinertia.vocabulary.model_suffixes import is_urdf_path

__all__ = [
    "OLD_QUADRATIC_NAMES",
    "fluid_added_mass_ignored",
    "ignored_because",
    "plugin_added_mass_deprecated",
    "quadratic_old_meaning",
]

#: The six quadratic terms the plugin read before gazebosim/gz-sim#1784 (as ``|u|·u``).
OLD_QUADRATIC_NAMES = tuple(f"{FORCE_AXES[i]}{VELOCITY_AXES[i]}{VELOCITY_AXES[i]}"
                            for i in range(6))


def ignored_because(target: Target) -> str:
    """Why ``target`` does not apply ``<fluid_added_mass>`` (its release, else its engine)."""
    if not target.has("fluid-added-mass-read"):
        row = CHANGES["fluid-added-mass-read"]
        return (f"{target.info.gz_sim} does not pass it to the physics engine ({row.source} "
                "came in gz-sim7 7.3.0)")
    return (f"only dartsim reads it (gz-physics: FluidAddedMass is read in dartsim/ only), "
            f"not {target.engine}")


@link_rule("GZI601")
def fluid_added_mass_ignored(ctx: LinkContext) -> Iterator[Finding]:
    """GZI601 fluid-added-mass-ignored: ``<fluid_added_mass>`` the target never applies."""
    A = ctx.added_mass
    target = ctx.document.target
    if A is None or target.applies_fluid_added_mass:
        return
    diag = np.diag(A)
    m = ctx.link.inertial.mass
    lost = float(np.max(diag[:3]))
    share = f" ({fmt(100.0 * lost / m)} % of its {fmt(m)} kg rigid mass)" if m > 0 else ""
    message = (
        "the link's <fluid_added_mass> is ignored under " + target.words() + ": "
        + ignored_because(target) + f"; the link moves without {fmt(lost)} kg of added mass"
        + share + f" and {fmt(float(np.max(diag[3:])))} kg·m² of added rotational inertia; "
        "with this engine write it as the Hydrodynamics plugin's <iDotJ> terms (`"
        + command_line("convert", ctx.link.source.file, "--sdf-to-hydro", "--sign", "fossen",
                       "--engine", target.engine, "--gazebo", target.release) + "`)"
    )
    where = ctx.link.inertial.added_mass_source or ctx.where
    yield finding("GZI601", where, ctx.name, message,
                  {"A_diagonal": diag, "lost_kg": lost, "target": target.as_json()})


@link_rule("GZI602")
def plugin_added_mass_deprecated(ctx: LinkContext) -> Iterator[Finding]:
    """GZI602 hydrodynamics-added-mass-deprecated: plugin added mass where the target release
    deprecates it and its engine applies ``<fluid_added_mass>`` instead (not in URDF or xacro,
    which cannot carry the element)."""
    target = ctx.document.target
    if (ctx.added_mass is not None or not target.has("hydro-added-mass-deprecated")
            or not target.applies_fluid_added_mass):
        return  # both: GZI205; another engine has only the plugin's added mass
    row = CHANGES["hydro-added-mass-deprecated"]
    for plugin in ctx.link.hydrodynamics:
        if not added_mass_active(plugin) or is_urdf_path(plugin.source.file):
            continue  # URDF cannot carry <fluid_added_mass> (sdformat#1467): the plugin is all
        diag = -np.diag(plugin.D_BBo_B) + 0.0
        message = (
            "the Hydrodynamics plugin (line " + str(plugin.source.line) + ") applies the link's "
            f"added mass (diagonal -<iDotJ> = ({', '.join(fmt(v) for v in diag)})) as an "
            f"explicit force, deprecated under {target.words()} ({row.source}: the explicit "
            "scheme diverges when the added mass is large, gazebosim/gz-sim#1923); let DART "
            "apply it implicitly as <fluid_added_mass>: `"
            + command_line("convert", ctx.link.source.file, "--hydro-to-sdf") + "`"
        )
        yield finding("GZI602", plugin.source, ctx.name, message,
                      {"added_mass_diagonal": diag, "target": target.as_json()})


@link_rule("GZI603")
def quadratic_old_meaning(ctx: LinkContext) -> Iterator[Finding]:
    """GZI603 hydrodynamics-quadratic-old-meaning: ``<xUU>`` (one of the six diagonal signed
    terms) written for the meaning it had before gazebosim/gz-sim#1784 (``|u|·u``)."""
    target = ctx.document.target
    if not target.has("hydro-signed-quadratic"):
        return
    row = CHANGES["hydro-signed-quadratic"]
    for plugin in ctx.link.hydrodynamics:
        old = [n for n in OLD_QUADRATIC_NAMES if plugin.signed_quadratic.get(n, 0.0) != 0.0]
        if not old or any("abs" in n for n in plugin.terms) or any(
            v != 0.0 and n not in OLD_QUADRATIC_NAMES for n, v in plugin.signed_quadratic.items()
        ):
            continue  # <iJabsK>, or a signed <iJK> the old vocabulary lacks: the new names
        name = old[0]
        value = plugin.signed_quadratic[name]
        new = f"{name[:2]}abs{name[2]}"
        message = (
            f"<{name}> = {fmt(value)} reads as |{name[1].lower()}|·"
            f"{name[1].lower()} only before {row.source}; under {target.words()} it multiplies "
            f"{name[1].lower()}·{name[1].lower()}, a force of one sign whichever way the link "
            f"moves (it drives the motion one way); for quadratic drag rename it <{new}>"
            + (f" (and likewise {', '.join(f'<{n}>' for n in old[1:])})" if old[1:] else "")
        )
        yield finding("GZI603", plugin.term_sources.get(name, plugin.source), ctx.name,
                      message,
                      {"terms": {n: plugin.signed_quadratic[n] for n in old},
                       "target": target.as_json()})
