"""Rules about Gazebo's Hydrodynamics system plugin: GZI205, GZI208, GZI209, GZI211.

The plugin's added-mass terms ``<iDotJ>`` form ``D[i, j]`` (rows force/moment ``x y z k m n``,
columns velocity ``U V W P Q R``, link frame, about the link origin;
:attr:`gzinertia.records.HydroPlugin.D_BBo_B`). What gz-sim does with them is documented,
with the source versions it was read from, in ``docs/rules/GZI208.md``: since gz-sim 6.12 /
7.0 the applied wrench is ``+D·ν̇`` (``kAmassVec = -Ma·ν̇``, then the whole wrench is negated),
so the effective added mass is ``-D``: right for Fossen's negative derivatives, negative added
mass for positive values. Before, it applied ``-D·ν̇`` (diagonal only).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from gzinertia.audit.emit import document_rule, finding, fmt, fmt_vec, link_rule
from gzinertia.audit.findings import Finding
from gzinertia.checks.context import DocumentContext, LinkContext
from gzinertia.hydrodynamics_terms import (
    FORCE_AXES,
    TERM_PARTS,
    VELOCITY_AXES,
    added_mass_active,
)
from gzinertia.records import HydroPlugin, SourceRef
from gzinertia.shell import command_line
from gzinertia.spatial.added_mass import AddedMass

__all__ = [
    "DIAGONAL_NAMES",
    "added_mass_sign",
    "added_mass_sign_in_unresolved_includes",
    "counted_twice",
    "cross_term_typo",
    "cross_term_typo_in_unresolved_includes",
    "diagonal_twins",
    "plugin_link_missing",
]

DIAGONAL_NAMES = ("xDotU", "yDotV", "zDotW", "kDotP", "mDotQ", "nDotR")


def _first_term_source(plugin: HydroPlugin) -> SourceRef:
    dot = sorted(
        (src for name, src in plugin.term_sources.items() if "Dot" in name and plugin.terms[name]),
        key=lambda s: s.line,
    )
    return dot[0] if dot else plugin.source


@link_rule("GZI205")
def counted_twice(ctx: LinkContext) -> Iterator[Finding]:
    """GZI205 added-mass-counted-twice: ``<iDotJ>`` and ``<fluid_added_mass>`` both active
    (the latter only where the target engine applies it: else GZI601)."""
    A = ctx.added_mass
    if A is None or not ctx.document.target.applies_fluid_added_mass:
        return
    for plugin in ctx.link.hydrodynamics:
        if not added_mass_active(plugin):
            continue
        D = plugin.D_BBo_B
        message = (
            "added mass counted twice: the link's <fluid_added_mass> (diagonal "
            f"{fmt_vec(np.diag(A))}) goes into DART's inertia, and the Hydrodynamics plugin "
            f"(line {plugin.source.line}) also applies its <iDotJ> terms (diagonal "
            f"{fmt_vec(np.diag(D))}) "
            "as a force, without <disable_added_mass>true</disable_added_mass> (newer gz-sim "
            "reports this as an error); keep one: add <disable_added_mass>true"
            "</disable_added_mass> to the plugin, or replace the element by the plugin's terms "
            f"with `{command_line('convert', ctx.link.source.file, '--hydro-to-sdf', '--force')}`"
        )
        values = {"A_diagonal": np.diag(A), "D_diagonal": np.diag(D)}
        yield finding("GZI205", _first_term_source(plugin), ctx.name, message, values)


@link_rule("GZI208")
def added_mass_sign(ctx: LinkContext) -> Iterator[Finding]:
    """GZI208 hydrodynamics-added-mass-sign: ``<iDotJ>`` signs that give negative added mass."""
    known = ctx.written_inertia and ctx.mass_is_positive
    for plugin in ctx.link.hydrodynamics:
        found = _sign_finding(plugin, ctx.name, ctx.link.inertial.mass, known)
        if found is not None:
            yield found


@document_rule("GZI208")
def added_mass_sign_in_unresolved_includes(doc: DocumentContext) -> Iterator[Finding]:
    """The plugins whose link was not read (an ``<include>`` did not resolve): the sign is in
    the text; the link's mass is not."""
    for link, plugin in doc.doc.unattached_plugins:
        found = _sign_finding(plugin, link, None, False)
        if found is not None:
            yield found


def _sign_finding(
    plugin: HydroPlugin, link: str, m: float | None, mass_known: bool
) -> Finding | None:
    """GZI208 for one plugin on ``link`` (``m``: its mass when ``mass_known``)."""
    if not added_mass_active(plugin):
        return None
    D = plugin.D_BBo_B
    # what gz-sim >= 6.12 / 7 applies
    effective = AddedMass(-D, ordering="linear-first").symmetric()
    if effective.is_positive_semidefinite():
        return None
    eig = effective.eigenvalues() + 0.0  # no "-0" in messages
    diag = np.diag(D) + 0.0
    positive = [(n, v) for n, v in zip(DIAGONAL_NAMES, diag, strict=True) if v > 0.0]
    shown = ", ".join(f"{n} = {fmt(v)}" for n, v in positive) or "the cross terms"
    worst = ""
    linear = [(n, v) for n, v in positive if n in DIAGONAL_NAMES[:3]]
    if linear and mass_known and m is not None:
        name, value = max(linear, key=lambda item: item[1])
        left = m - value
        worst = (
            f"; along {name[0]} the link's effective mass is {fmt(m)} - {fmt(value)} = "
            f"{fmt(left)} kg" + (" (negative: the motion runs away)" if left < 0 else "")
        )
    message = (
        f"Hydrodynamics plugin added-mass sign: gz-sim 6.12+ and 7+ apply the force +D·ν̇ "
        f"with D the <iDotJ> values as written, i.e. an added mass of -D; with {shown} that "
        f"is negative added mass (eigenvalues of -D: {fmt_vec(eig)}): the plugin pushes the "
        f"link along its acceleration{worst}. Fossen's convention, which the plugin follows, "
        "writes the derivatives negative (xDotU < 0); gz-sim before 6.12 applied -D·ν̇ "
        "(diagonal only), so these values were right there. "
        + (
            "Negate them, or move them to <fluid_added_mass> (DART only) with "
            f"`{command_line('convert', plugin.source.file, '--hydro-to-sdf', '--sign', 'physical')}`"  # noqa: E501
            if m is not None
            else "Negate them (the link's model was not read: the mass it acts on is unknown)"
        )
        + " (docs/rules/GZI208.md)"
    )
    values = {
        "D_diagonal": diag,
        "effective_added_mass_eigenvalues": eig,
        "mass": m,
        "positive_terms": dict(positive),
    }
    return finding("GZI208", _first_term_source(plugin), link, message, values)


def _parse(name: str) -> tuple[str, bool, str, str | None] | None:
    match = TERM_PARTS.match(name)
    if match is None:
        return None
    return match.group(1), match.group(2) is not None, match.group(3), match.group(4)


def _describe(name: str) -> str:
    """``yUabsU`` → ``"force y from |U|·U"``."""
    parsed = _parse(name)
    assert parsed is not None
    row, dot, velocity, absolute = parsed
    what = "moment" if row in "kmn" else "force"
    if dot:
        return f"{what} {row} from the rate of {velocity}"
    if absolute is None:
        return f"{what} {row} from {velocity}"
    return f"{what} {row} from |{absolute}|·{velocity}"


def _is_diagonal(row: str, velocity: str, absolute: str | None) -> bool:
    same = FORCE_AXES.index(row) == VELOCITY_AXES.index(velocity)
    return same and (absolute is None or absolute == velocity)


def diagonal_twins(name: str) -> list[str]:
    """Diagonal terms of the same kind one letter away from ``name`` (empty for a diagonal
    term): ``yUabsU`` → ``[xUabsU]``, ``yDotU`` → ``[xDotU, yDotV]``."""
    parsed = _parse(name)
    if parsed is None:
        return []
    row, dot, velocity, absolute = parsed
    if _is_diagonal(row, velocity, absolute):
        return []
    candidates = []
    for r in FORCE_AXES:
        for v in VELOCITY_AXES:
            for a in ([None] if absolute is None else list(VELOCITY_AXES)):
                if not _is_diagonal(r, v, a):
                    continue
                changed = (r != row) + (v != velocity) + (a != absolute)
                if changed == 1:
                    suffix = "" if a is None else "abs" + a
                    candidates.append(f"{r}{'Dot' if dot else ''}{v}{suffix}")
    return candidates


@link_rule("GZI209")
def cross_term_typo(ctx: LinkContext) -> Iterator[Finding]:
    """GZI209 hydrodynamics-cross-term-typo: a cross term whose diagonal twin is missing."""
    for plugin in ctx.link.hydrodynamics:
        yield from _typo_findings(plugin, ctx.name)


@document_rule("GZI209")
def cross_term_typo_in_unresolved_includes(doc: DocumentContext) -> Iterator[Finding]:
    """The plugins whose link was not read (an ``<include>`` did not resolve): all in the
    text."""
    for link, plugin in doc.doc.unattached_plugins:
        yield from _typo_findings(plugin, link)


def _typo_findings(plugin: HydroPlugin, link: str) -> Iterator[Finding]:
    for name in sorted(plugin.terms, key=lambda n: plugin.term_sources[n].line):
        if plugin.terms[name] == 0.0:
            continue
        twins = diagonal_twins(name)
        missing = [t for t in twins if t not in plugin.terms]
        if not twins or not missing:
            continue
        message = (
            f"<{name}> = {fmt(plugin.terms[name])} is a legal but unusual cross term "
            f"({_describe(name)}) while <{'> or <'.join(missing)}> is absent: a typo for "
            f"<{missing[0]}>? The plugin applies cross terms as written"
        )
        values = {"term": name, "value": plugin.terms[name], "missing": missing}
        yield finding("GZI209", plugin.term_sources[name], link, message, values)


@document_rule("GZI211")
def plugin_link_missing(doc: DocumentContext) -> Iterator[Finding]:
    """GZI211 hydrodynamics-link-missing: the plugin names a link its model does not have."""
    for note in doc.notes("hydrodynamics-link"):
        yield finding("GZI211", note.source, None, note.message + "; fix <link_name>", {})
