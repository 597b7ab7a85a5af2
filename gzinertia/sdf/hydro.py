"""Recognising Gazebo's Hydrodynamics system and reading its per-link parameters.

Its vocabulary (names, recognition) is :mod:`gzinertia.hydrodynamics_terms`; this module walks
the XML. The system is recognised by its plugin file name (``gz-sim[N]-hydrodynamics-system``,
``ignition-gazebo[N]-hydrodynamics-system``, with or without ``lib``/``.so``), not by its
``name``: other packages ship systems whose names also say Hydrodynamics (asv_wave_sim's
``gz-waves1-hydrodynamics-system``) with other parameters and semantics.
"""

from __future__ import annotations

from lxml import etree

from gzinertia.hydrodynamics_terms import (
    SIGNED_QUADRATIC_TERM,
    TERM,
    is_hydrodynamics_filename,
)
from gzinertia.records import HydroPlugin, SourceRef
from gzinertia.sdf.values import parse_bool, parse_float, text_of
from gzinertia.sdf.xml import child, line_of

__all__ = ["is_gz_hydrodynamics", "read_hydrodynamics"]


def is_gz_hydrodynamics(plugin: etree._Element) -> bool:
    """Whether a ``<plugin>`` element is Gazebo's Hydrodynamics system (by its file name)."""
    return is_hydrodynamics_filename(plugin.get("filename") or "")


def read_hydrodynamics(plugin: etree._Element, file: str) -> HydroPlugin:
    """The link name (as written, scoped relative to the plugin's model) and its terms."""
    link_elem = child(plugin, "link_name")
    terms: dict[str, float] = {}
    signed: dict[str, float] = {}
    sources: dict[str, SourceRef] = {}
    for c in plugin:
        if not isinstance(c.tag, str):
            continue
        kept = (terms if TERM.match(c.tag)
                else signed if SIGNED_QUADRATIC_TERM.match(c.tag) else None)
        if kept is not None:
            kept[c.tag] = parse_float(c, file)
            sources[c.tag] = SourceRef(file, line_of(c))
    disable = child(plugin, "disable_added_mass")
    return HydroPlugin(
        filename=(plugin.get("filename") or "").strip(),
        name=(plugin.get("name") or "").strip(),
        link_name="" if link_elem is None else text_of(link_elem),
        terms=terms,
        disable_added_mass=False if disable is None else parse_bool(disable, file),
        source=SourceRef(file, line_of(plugin)),
        term_sources=sources,
        signed_quadratic=signed,
    )
