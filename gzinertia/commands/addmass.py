"""``gzinertia addmass``: Tuckerman ellipsoid added mass for links, written to
``<fluid_added_mass>`` about the link origin in link axes (the spec's point and axes).

For each selected link: fit the ellipsoid(s) (:mod:`gzinertia.fits`), compute ``A_EEo_E`` about
each centre in its axes, rotate to link axes and move to the link origin, sum, and write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gzinertia.added_mass import AddedMass
from gzinertia.commands.sdf_version import check_version_for_added_mass
from gzinertia.edit.links import (
    NotEditableError,
    ascii_comment,
    link_element,
    same_file,
    write_fluid_added_mass,
)
from gzinertia.edit.session import FileEdit
from gzinertia.errors import GzInertiaError
from gzinertia.fits import EllipsoidFit, FitError, FitMethod, fit_link
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.selection import select_links


@dataclass(frozen=True)
class LinkAddedMass:
    """The added mass computed for one link and how."""

    link: LinkRecord
    fit: EllipsoidFit
    density: float
    A_BBo_B: AddedMass


@dataclass(frozen=True)
class AddMassResult:
    """The file's old and new bytes, what was computed, and what was skipped and why."""

    path: Path
    old: bytes
    new: bytes
    links: tuple[LinkAddedMass, ...]
    skipped: tuple[str, ...]
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class FitChooser:
    """How each link's ellipsoid is obtained: a fit method, or one explicit ellipsoid."""

    method: FitMethod = "volume"
    fixed: EllipsoidFit | None = None

    @property
    def explicit(self) -> bool:
        return self.fixed is not None

    def __call__(self, link: LinkRecord) -> EllipsoidFit:
        return self.fixed if self.fixed is not None else fit_link(link, self.method)


def provenance(fit: EllipsoidFit, density: float) -> str:
    """The comment written before ``<fluid_added_mass>`` (no ``--`` inside)."""
    text = (
        f"gzinertia addmass: Tuckerman ellipsoid added mass, {fit.description}, "
        f"fluid density {density:g} kg/m^3; about the link origin in link axes"
    )
    return ascii_comment(text)


def _editable_links(
    doc: SdfDocument, path: Path, pattern: str | None, explicit: bool
) -> tuple[list[LinkRecord], list[str]]:
    chosen = select_links(doc.links, pattern, str(path))
    links, skipped = [], []
    for link in chosen:
        if not same_file(link.source.file, path):
            skipped.append(f"{link.name}: defined in {link.source.file} (edit that file)")
        elif link.static:
            skipped.append(f"{link.name}: static (does not move through the fluid)")
        elif not explicit and not link.collisions and pattern is None:
            skipped.append(f"{link.name}: no collision geometry to fit")
        else:
            links.append(link)
    if explicit and len(links) != 1:
        raise GzInertiaError(
            f"{path}: an explicit ellipsoid needs --link to select exactly one editable link "
            f"({len(links)} selected)"
        )
    return links, skipped


def add_mass(
    path: Path,
    *,
    fit_for: FitChooser,
    density: float,
    pattern: str | None,
    upgrade_version: bool,
    model_paths: Sequence[str | Path],
) -> AddMassResult:
    """Computes and writes (in memory) the added mass of the selected links of ``path``."""
    edit = FileEdit.open(path, model_paths)
    doc, editor = edit.doc, edit.editor
    links, skipped = _editable_links(doc, path, pattern, fit_for.explicit)
    warnings = []
    results = []
    for link in links:
        try:
            fit = fit_for(link)
        except FitError as exc:
            if pattern is not None:
                raise
            skipped.append(f"{link.name}: {exc}")
            continue
        try:
            A_BBo_B = fit.added_mass(density)
        except FitError as exc:  # overflow: an error, never a skipped link or a zero written
            message = f"{link.source}: link {link.name!r}: {exc}; nothing written"
            raise GzInertiaError(message) from None
        comment = provenance(fit, density)
        try:
            write_fluid_added_mass(editor, link_element(editor, link), A_BBo_B, comment)
        except NotEditableError as exc:
            if pattern is not None:
                raise
            skipped.append(f"{link.name}: {exc.message}")
            continue
        results.append(LinkAddedMass(link, fit, density, A_BBo_B))
        if fit.approximation:
            warnings.append(f"{link.name}: {fit.approximation}")
    if results:
        warning = check_version_for_added_mass(editor, doc.sdf_version, upgrade_version)
        if warning:
            warnings.append(warning)
    new = edit.finish({r.link.name: r.A_BBo_B for r in results})
    return AddMassResult(path, edit.old, new, tuple(results), tuple(skipped), tuple(warnings))
