"""``gzinertia convert``: move added mass between Gazebo's Hydrodynamics plugin (``<iDotJ>``
Fossen derivatives) and the SDF ``<fluid_added_mass>`` element, without counting it twice.

* ``--hydro-to-sdf``: ``A = -sym(D)`` (Fossen's negative derivatives) or ``A = sym(D)`` (values
  written positive); the plugin gets ``<disable_added_mass>true</disable_added_mass>`` or loses
  its ``<iDotJ>`` terms.
* ``--sdf-to-hydro``: the reverse for engines without native added mass (only DART reads
  ``<fluid_added_mass>``): the plugin gets the 36 terms and the link loses the element.

Both matrices are about the link origin in link axes, linear-first (the plugin's state vector is
``[u v w p q r]`` of the link frame), so no change of point is involved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import numpy as np

from gzinertia.checks.explicit_added_mass import too_large_for_the_plugin
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.links import (
    ascii_comment,
    format_value,
    link_element,
    plugin_element,
    remove_fluid_added_mass,
    same_file,
    write_fluid_added_mass,
)
from gzinertia.edit.sdf_version import check_version_for_added_mass
from gzinertia.edit.session import FileEdit
from gzinertia.edit.verify import WRITE_RTOL
from gzinertia.errors import GzInertiaError
from gzinertia.gazebo.hydro_coriolis import sdf_to_hydro_warnings
from gzinertia.hydrodynamics_terms import (
    FORCE_AXES,
    VELOCITY_AXES,
    added_mass_term,
    added_mass_terms,
)
from gzinertia.options import option
from gzinertia.physics.negligible import entry_scales
from gzinertia.record_base import ValueRecord
from gzinertia.records import HydroPlugin, LinkRecord
from gzinertia.sdf.xml import child
from gzinertia.selection import link_matches
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.choices import ConvertSign as Sign

__all__ = [
    "ASYMMETRY_TOLERANCE",
    "SIGNS",
    "ConvertResult",
    "ConvertedLink",
    "Sign",
    "already_written",
    "decide_sign",
    "hydro_to_sdf",
    "sdf_to_hydro",
]

SIGNS: tuple[Sign, ...] = get_args(Sign)
#: Relative asymmetry below which symmetrising is not worth a warning.
ASYMMETRY_TOLERANCE = 1e-9


def decide_sign(D: np.ndarray, sign: Sign, where: str) -> Literal["fossen", "physical"]:
    """``auto``: Fossen when the non-zero diagonal is all negative, physical when all positive;
    a mix (or no diagonal) is refused."""
    if sign != "auto":
        return sign
    diag = np.diag(D)
    nonzero = diag[diag != 0.0]
    if nonzero.size and np.all(nonzero < 0.0):
        return "fossen"
    if nonzero.size and np.all(nonzero > 0.0):
        return "physical"
    shown = ", ".join(f"{n}={v:g}" for n, v in zip(("xDotU", "yDotV", "zDotW", "kDotP",
                                                     "mDotQ", "nDotR"), diag, strict=True))
    raise GzInertiaError(
        f"{where}: cannot tell the sign convention of the <iDotJ> terms from their diagonal "
        f"({shown}): pass {option('sign_fossen_negative_or_physical')}"
    )


@dataclass(frozen=True, repr=False, eq=False)
class ConvertedLink(ValueRecord):
    """One converted link: its plugin, the sign convention read (``fossen``: ``A = -sym(D)``),
    the written ``A_BBo_B`` (about Bo in B axes; linear-first through its accessors) and the
    asymmetry of the terms as written (``max|D - Dᵀ|``)."""

    link: LinkRecord
    plugin: HydroPlugin
    sign: Literal["fossen", "physical"]
    A_BBo_B: AddedMass
    asymmetry: float


#: What ``convert`` made: per link, what was moved between the plugin and the SDF element.
ConvertResult = Edit[ConvertedLink]


def _selected(links: Sequence[LinkRecord], pattern: str | None) -> list[LinkRecord]:
    return [lk for lk in links if pattern is None or link_matches(lk.name, pattern)]


def _begin(
    path: Path, model_paths: Sequence[str | Path], data: bytes | None = None
) -> tuple[FileEdit, list[ConvertedLink], list[str], dict[str, AddedMass | None]]:
    """A conversion's start, shared by both directions: the opened file, and the empty lists of
    converted links and warnings and map of what each link's ``<fluid_added_mass>`` becomes."""
    return FileEdit.open(path, model_paths, data), [], [], {}


def already_written(link: LinkRecord, A_BBo_B: AddedMass) -> bool:
    """Whether the link's ``<fluid_added_mass>`` already holds ``A_BBo_B`` (to the written
    precision): converting again would change nothing."""
    current = link.inertial.A_BBo_B
    if current is None:
        return False
    want = A_BBo_B.symmetric().linear_first()
    scale = max(float(np.max(np.abs(want))), 1e-300)
    return float(np.max(np.abs(current.linear_first() - want))) <= WRITE_RTOL * scale


def hydro_to_sdf(
    path: Path,
    *,
    pattern: str | None,
    sign: Sign,
    remove_plugin_terms: bool,
    force: bool,
    model_paths: Sequence[str | Path],
    upgrade_version: bool = True,
    data: bytes | None = None,
) -> ConvertResult:
    """Writes each selected link's plugin added mass as ``<fluid_added_mass>`` (declaring SDF
    1.10 as :func:`~gzinertia.edit.sdf_version.check_version_for_added_mass` does);
    ``data``: the file's bytes when they do not come from ``path`` (standard input, named
    ``<stdin>``: relative URIs resolve against the working directory)."""
    edit, converted, warnings, written = _begin(path, model_paths, data)
    doc, editor = edit.doc, edit.editor
    for link in _selected(doc.links, pattern):
        for plugin in link.hydrodynamics:
            D_BBo_B = plugin.D_BBo_B
            if not np.any(D_BBo_B):
                continue
            where = str(plugin.source)
            if not (same_file(link.source.file, path) and same_file(plugin.source.file, path)):
                warnings.append(f"{where}: link {link.name!r} or its plugin is in another file")
                continue
            chosen = decide_sign(D_BBo_B, sign, where)
            as_written = AddedMass(-D_BBo_B if chosen == "fossen" else D_BBo_B,
                                   ordering="linear-first")
            asym = as_written.asymmetry
            scale = max(float(np.max(np.abs(as_written.linear_first()))), 1e-300)
            if asym > ASYMMETRY_TOLERANCE * scale:
                i, j = divmod(int(np.argmax(np.abs(D_BBo_B - D_BBo_B.T))), 6)
                warnings.append(
                    f"{where}: the <iDotJ> terms are not symmetric (largest difference {asym:g} "
                    f"between {added_mass_term(i, j)} and "
                    f"{added_mass_term(j, i)}); written the symmetric part"
                )
            A_BBo_B = as_written.symmetric()
            if plugin.disable_added_mass:
                if not already_written(link, A_BBo_B):
                    warnings.append(
                        f"{where}: the plugin's added mass is off (<disable_added_mass>true"
                        "</disable_added_mass>), so Gazebo applies none of its <iDotJ> terms; "
                        "not converted (converting would add added mass the model does not have)"
                    )
                continue
            comment = ascii_comment(
                f"gzinertia convert: from the Hydrodynamics plugin's iDotJ terms "
                f"({chosen} sign: A = {'-' if chosen == 'fossen' else '+'}sym(D)); "
                "about the link origin in link axes"
            )
            done = already_written(link, A_BBo_B)
            if link.inertial.A_BBo_B is not None and not done and not force:
                raise GzInertiaError(
                    f"{link.source}: link {link.name!r} already has <fluid_added_mass>; "
                    f"pass {option('force')} to replace it with the plugin's terms"
                )
            if not done:  # a re-run that would write the same values leaves the element
                write_fluid_added_mass(editor, link_element(editor, link), A_BBo_B, comment)
            plugin_elem = plugin_element(editor, plugin)
            if remove_plugin_terms:
                for name in added_mass_terms():
                    elem = child(plugin_elem, name)
                    if elem is not None:
                        editor.remove_element(elem)
            else:
                editor.set_children_text(plugin_elem, {"disable_added_mass": "true"})
            converted.append(ConvertedLink(link, plugin, chosen, A_BBo_B, asym))
            written[link.name] = A_BBo_B
    notes: list[str] = []
    if written:
        said = check_version_for_added_mass(editor, doc.sdf_version, keep=not upgrade_version)
        if said:
            (notes if upgrade_version else warnings).append(said)
    new = edit.finish(written)
    return ConvertResult(path, edit.old, new, tuple(converted), warnings=tuple(warnings),
                         notes=tuple(notes))


def sdf_to_hydro(
    path: Path,
    *,
    pattern: str | None,
    sign: Sign,
    model_paths: Sequence[str | Path],
    data: bytes | None = None,
) -> ConvertResult:
    """Writes each selected link's ``<fluid_added_mass>`` into its Hydrodynamics plugin as
    ``<iDotJ>`` terms (``D = -A`` for ``fossen``, ``D = A`` for ``physical``), removes the
    element, and turns the plugin's added mass on. The link needs a Hydrodynamics plugin, and
    an added mass within the bound of the plugin's explicit scheme (no diagonal element above
    the rigid body's: :func:`~gzinertia.checks.explicit_added_mass.too_large_for_the_plugin`):
    a link beyond it is in the result's ``skipped`` (``"name: why (file:line)"``), or refused
    with a :class:`~gzinertia.errors.GzInertiaError` when ``pattern`` names it; links without a
    plugin are left as they are, said in the warnings.
    ``data``: the file's bytes when they do not come from ``path`` (standard input, named
    ``<stdin>``: relative URIs resolve against the working directory)."""
    if sign == "auto":
        raise GzInertiaError(
            f"{option('sdf_to_hydro')} needs {option('sign_fossen_or_physical')}"
        )
    edit, converted, warnings, written = _begin(path, model_paths, data)
    doc, editor = edit.doc, edit.editor
    skipped: list[str] = []
    for link in _selected(doc.links, pattern):
        if link.inertial.A_BBo_B is None:
            continue
        if not link.hydrodynamics:
            warnings.append(
                f"{link.source}: link {link.name!r} has no Hydrodynamics plugin to take its "
                "added mass; add one (with its damping terms) first"
            )
            continue
        plugin = link.hydrodynamics[0]
        if not (same_file(link.source.file, path) and same_file(plugin.source.file, path)):
            warnings.append(f"{plugin.source}: link {link.name!r} or its plugin is in another file")
            continue
        A_BBo_B = link.inertial.A_BBo_B.symmetric()
        A_lf = A_BBo_B.linear_first()
        unstable = too_large_for_the_plugin(A_lf, link)
        if unstable is not None:
            why = (f"{unstable}; its <fluid_added_mass> is left as it is (only DART applies "
                   "it: run the model with dartsim, or lower the added mass below the rigid "
                   "values)")
            if pattern is not None:  # a link asked for by name: refused, not skipped
                raise GzInertiaError(f"{link.source}: link {link.name!r} not converted: {why}")
            skipped.append(f"{link.name}: {why} ({link.source})")
            continue
        D_BBo_B = -A_lf if sign == "fossen" else A_lf
        # What the plugin's Coriolis term does not preserve (issue 12.8).
        warnings.extend(sdf_to_hydro_warnings(
            str(link.source), link.name, A_lf, link.M_BBo_B.linear_first(), sign
        ))
        scales = entry_scales(D_BBo_B)  # round-off judged within units (physics.negligible)
        plugin_elem = plugin_element(editor, plugin)
        # Every term the plugin already has, and the non-zero ones it lacks.
        values = {}
        for i, row in enumerate(FORCE_AXES):
            for j, col in enumerate(VELOCITY_AXES):
                name, value = f"{row}Dot{col}", format_value(float(D_BBo_B[i, j]), scales[i, j])
                if value != "0" or child(plugin_elem, name) is not None:
                    values[name] = value
        if child(plugin_elem, "disable_added_mass") is not None:
            values["disable_added_mass"] = "false"
        editor.set_children_text(plugin_elem, values)
        remove_fluid_added_mass(editor, link_element(editor, link))
        converted.append(ConvertedLink(link, plugin, sign, A_BBo_B, 0.0))
        written[link.name] = None
    new = edit.finish(written)
    return ConvertResult(path, edit.old, new, tuple(converted), skipped=tuple(skipped),
                         warnings=tuple(warnings))
