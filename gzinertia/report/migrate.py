"""What ``gzinertia migrate`` says about each link it migrated: one line per link (stderr) and
the machine-readable report (``--json``). Imports no NumPy: the command line loads it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gzinertia.report.json_text import dumps_indented, json_safe

if TYPE_CHECKING:
    from gzinertia.edit.migrate import MigratedLink, MigrateResult

__all__ = ["migrate_json", "migrated_line"]


def migrated_line(item: MigratedLink) -> str:
    """``NAME: from PLUGIN: what was written; net buoyancy before -> after``."""
    eq = item.equivalent
    back = item.to != "gz-sim"  # to the classic plugin: its block's damping, not gz-sim terms
    damping = "damping" if back else f"{len(eq.terms)} Hydrodynamics terms"
    written = [what for what, done in (("added mass", item.added_mass_written),
                                       (damping, item.terms_written)) if done]
    way = f"to {item.to}" if back else f"from {item.plugin}"
    line = f"{item.link.name}: {way}: " + (" and ".join(written) or "nothing")
    if item.buoyancy is not None:
        b = item.buoyancy
        line += f"; net buoyancy {b.net_plugin:+.1%} -> {b.net_gz:+.1%} of the weight"
    return line


def _link(item: MigratedLink) -> dict[str, Any]:
    eq = item.equivalent
    b = item.buoyancy
    return {
        "name": item.link.name,
        "plugin": item.plugin,
        "to": item.to,
        "added_mass_written": item.added_mass_written,
        "terms_written": item.terms_written,
        "A_BBo_B": eq.A_BBo_B.linear_first().tolist(),
        "added_mass_gap": eq.added_mass_gap,
        "damping": dict(eq.damping),
        "forward_speed": dict(eq.forward_speed),
        "buoyancy": None if b is None else {
            "plugin_volume": b.plugin_volume, "collision_volume": b.collision_volume,
            "net_plugin": b.net_plugin, "net_gz": b.net_gz},
    }


def migrate_json(edit: MigrateResult) -> str:
    """The report of one migration (``gzinertia migrate --json``): the file written, whether it
    changes, per link migrated what was written (``A_BBo_B``: 6x6 linear-first about the link
    origin in link axes; ``damping``: the Hydrodynamics terms, gz-sim's sign) and its net
    buoyancy before and after (fractions of the weight), the blocks skipped, the warnings, the
    notes and the blocks not written with what to write by hand (``not_written``)."""
    return dumps_indented(json_safe({
        "file": str(edit.path),
        "changed": edit.changed,
        "links": [_link(item) for item in edit.links],
        "skipped": list(edit.skipped),
        "warnings": list(edit.warnings),
        "notes": list(edit.notes),
        "not_written": list(edit.pending),
    }))
