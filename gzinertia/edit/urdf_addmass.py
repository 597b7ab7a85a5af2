"""Added mass for URDF/xacro links: what Gazebo reads from a URDF.

URDF cannot carry ``<fluid_added_mass>`` (gazebosim/sdformat#1467), so each selected link gets a
``<gazebo>`` block with gz-sim's Hydrodynamics system holding the matrix as its ``<iDotJ>``
terms, Fossen's sign (``D = -A``, the sign today's gz-sim needs: docs/added_mass.md, GZI208),
about the link origin in link axes (the plugin's point and axes). The block is inserted before
the file's closing ``</robot>``; nothing else changes. Gazebo applies plugin added mass
explicitly, from the differenced acceleration (less stable than DART's native added mass,
gz-sim#1462): the output says so.

A xacro file is edited only where the block can be written literally: its ``</robot>`` and
the link's name are in the file as written; otherwise the block is printed with where to put
it. Links whose Hydrodynamics plugin already applies added mass are skipped (counting twice).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.addmass import (
    AddMassResult,
    FitChooser,
    LinkAddedMass,
    negligible_geometry,
    provenance,
)
from gzinertia.edit.addmass_bem import (
    BemRunProgress,
    BemSettings,
    LinkBem,
    bem_drafts,
    displacing_shapes,
    error_warnings,
    solve_link,
    solve_outcome,
)
from gzinertia.edit.bem_import import (
    ImportedLink,
    import_comment,
    import_pattern,
    imported_in_link,
)
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.links import format_value
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import FILENAME, NAME, added_mass_active, added_mass_term
from gzinertia.io.result_files import ResultFile, read_result
from gzinertia.physics.fits import EllipsoidFit, FitError
from gzinertia.physics.negligible import entry_scales
from gzinertia.records import LinkRecord, SdfDocument
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.selection import select_links
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.vocabulary.model_suffixes import XACRO_SUFFIX, is_xacro_path
from gzinertia.vocabulary.scoped_names import within_top

if TYPE_CHECKING:
    from gzinertia.edit.floating_draft import FloatingDraft
    from gzinertia.urdf.xacro_policy import XacroPolicy

EXPLICIT_NOTE = (
    "the Hydrodynamics plugin applies this added mass explicitly (a force from the differenced "
    "acceleration), which is less stable than DART's native <fluid_added_mass> (gz-sim#1462); "
    "for DART, convert the URDF (gz sdf -p) and run `gzinertia addmass` on the SDF"
)


def hydrodynamics_block(link: str, A_BBo_B: AddedMass, comment: str, indent: str = "  ") -> str:
    """The ``<gazebo>`` block carrying ``D = -A`` (36 terms, zeros left out, linear-first
    ``[x y z p q r]`` rows/columns as ``xyzkmn``/``UVWPQR``) for URDF link ``link``; ``A_BBo_B``
    is about the link origin in link axes, where the Hydrodynamics plugin applies it. The
    provenance ``comment`` goes inside the block, before the plugin: the URDF reader records it
    as the link's added-mass comment (the audit's GZI204/GZI212 read it), and a block pasted by
    hand carries it along."""
    A = A_BBo_B.symmetric().linear_first()
    scales = entry_scales(A)  # round-off judged within units, as every writer does
    lines = [f"{indent}<gazebo>", f"{indent * 2}<!-- {comment} -->",
             f'{indent * 2}<plugin filename="{FILENAME}" name="{NAME}">',
             f"{indent * 3}<link_name>{link}</link_name>"]
    for i in range(6):
        for j in range(6):
            value, term = format_value(float(-A[i, j]), scales[i, j]), added_mass_term(i, j)
            if value != "0":
                lines.append(f"{indent * 3}<{term}>{value}</{term}>")
    lines += [f"{indent * 2}</plugin>", f"{indent}</gazebo>"]
    return "\n".join(lines) + "\n"


#: A link's added mass and the provenance comment written with it: ``(A_BBo_B, comment)``,
#: about the link origin Bo in link axes. It raises :class:`LinkSkippedError` for a link it has no
#: matrix for (the link is then listed as skipped with the reason).
MatrixFor = Callable[[LinkRecord], tuple[AddedMass, str]]


class LinkSkippedError(Exception):
    """A link :data:`MatrixFor` has no matrix for; the message says why."""


def add_mass_urdf(
    request: AddedMassRequest, fit_for: FitChooser, density: float
) -> Edit[LinkAddedMass]:
    """Computes each selected link's ellipsoid added mass and inserts its Hydrodynamics block
    (in memory: ``new``). A xacro file whose blocks cannot be placed literally is left as is
    and the blocks are in the warnings. Without a pattern, a link with no collision is
    skipped with why (as for SDF); a link whose fit fails (the input) raises
    :class:`~gzinertia.physics.fits.FitError`: nothing is written."""
    pattern = request.pattern
    fits: dict[str, EllipsoidFit] = {}

    def ellipsoid(link: LinkRecord) -> tuple[AddedMass, str]:
        if not link.collisions and pattern is None:  # as for SDF: nothing asked of it
            raise LinkSkippedError("no collision geometry to fit")
        if (negligible := negligible_geometry(link, pattern)) is not None:
            raise LinkSkippedError(negligible)
        try:
            fit = fit_for(link)
            A_BBo_B = fit.added_mass(density)
        except FitError as exc:  # the input: an error (exit 2), never a link skipped
            raise FitError(f"{exc}; nothing written") from None
        fits[link.name] = fit
        return A_BBo_B, provenance(fit, density)

    result, written = _add_requested(request, ellipsoid)
    links = tuple(LinkAddedMass(link, fits[link.name], density, A) for link, A in written)
    return replace(result, links=links)


def add_mass_bem_urdf(
    request: AddedMassRequest, settings: BemSettings, progress: BemRunProgress | None = None
) -> Edit[LinkBem]:
    """``addmass --bem`` on a URDF/xacro file: each selected link's BEM added mass (about the
    link origin Bo in link axes), written as a ``<gazebo>`` Hydrodynamics block with the BEM
    provenance comment inside it (:func:`add_matrix_urdf`; URDF has no
    ``<fluid_added_mass>``). The geometry is the link as Gazebo builds it: libsdformat's
    fixed-joint lumping moves a lumped link's collisions and visuals into the link that holds
    it, so the solve meshes what the SDF conversion of the file would give. ``--together`` is
    refused (one problem over several links is not wired for URDF yet). Every solve is among
    the :class:`Edit`'s links, also those whose block is printed to paste (a xacro macro link)."""
    from gzinertia.physics.bem import require_bem

    require_bem()
    if settings.together:
        raise GzInertiaError(
            f"{request.path}: --together is for SDF models; on URDF/xacro each link is solved "
            "alone"
        )
    element, pattern = settings.element, request.pattern
    solved: list[LinkBem] = []
    warnings: list[str] = []
    reached = [0]
    drafts: dict[str, FloatingDraft] = {}
    if settings.waterline == "auto":  # the robot as Gazebo builds it, floating
        doc = _read(request)
        drafts = bem_drafts(doc, select_links(doc.links, pattern, str(request.path)), settings)

    def solve(link: LinkRecord) -> tuple[AddedMass, str]:
        if progress is not None:
            progress.link(link.name, reached[0], reached[0] + 1)
        reached[0] += 1
        shapes = displacing_shapes(link, settings)
        if not shapes:
            raise LinkSkippedError(f"no {element} geometry to mesh")
        if (negligible := negligible_geometry(link, pattern, element)) is not None:
            raise LinkSkippedError(negligible)
        draft = drafts.get(link.name)
        result = solve_link(link, shapes, settings, progress, draft)
        item, written = solve_outcome(link, shapes, result, settings, draft)
        solved.append(item)
        warnings.extend(error_warnings(link.name, result))
        return written

    result, _ = _add_requested(request, solve)
    return Edit(result.path, result.old, result.new, tuple(solved), result.skipped,
                (*result.warnings, *warnings), result.notes)


def add_mass_from_urdf(request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
    """:func:`gzinertia.edit.bem_import.add_mass_from` for a URDF/xacro file: the imported
    matrix, moved to the link origin Bo in link axes, written as a ``<gazebo>`` Hydrodynamics
    block (:func:`add_matrix_urdf`) with the import's provenance comment inside it (geometry
    and dataset digests: GZI212 watches the link as Gazebo builds it). The :class:`Edit`'s one
    :class:`ImportedLink` names the link written (the pattern when none was: a xacro link made
    by a macro, whose block is in the warnings to paste)."""
    pattern = import_pattern(request)
    imported = read_result(result)
    A_BBo_B, text = imported_in_link(imported, result.about, result.axes_rpy, result.density)

    def matrix_for(link: LinkRecord) -> tuple[AddedMass, str]:
        return A_BBo_B, import_comment(link, text, result, imported)

    edit, written = _add_requested(request, matrix_for, single=True)
    name = written[0][0].name if written else pattern
    return Edit(edit.path, edit.old, edit.new, (ImportedLink(name, A_BBo_B),), edit.skipped,
                edit.warnings, edit.notes)


def _read(request: AddedMassRequest) -> SdfDocument:
    """The robot of ``request`` as Gazebo builds it (libsdformat's conversion, xacro
    expanded with the request's settings)."""
    from gzinertia.model_reader import read_model_file

    source = request.source
    return read_model_file(request.path, source.search_paths, xacro_args=source.xacro_mapping,
                           xacro_policy=source.xacro_policy)


def _add_requested(
    request: AddedMassRequest, matrix_for: MatrixFor, single: bool = False
) -> tuple[AddMassResult, tuple[tuple[LinkRecord, AddedMass], ...]]:
    """:func:`add_matrix_urdf` of the file, links and xacro settings of ``request``."""
    source = request.source
    return add_matrix_urdf(
        request.path, matrix_for=matrix_for, pattern=request.pattern,
        package_paths=source.search_paths, xacro_args=source.xacro_mapping, single=single,
        xacro_policy=source.xacro_policy,
    )


def add_matrix_urdf(
    path: Path,
    *,
    matrix_for: MatrixFor,
    pattern: str | None,
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
    single: bool = False,
    xacro_policy: XacroPolicy | None = None,
    names: Collection[str] | None = None,
) -> tuple[AddMassResult, tuple[tuple[LinkRecord, AddedMass], ...]]:
    """Inserts a Hydrodynamics block for each selected link of the URDF/xacro ``path`` with the
    matrix ``matrix_for`` gives (an ellipsoid fit, a BEM solve, an imported result), in memory:
    ``(result, ((link, A_BBo_B), ...))`` for the links written, ``A_BBo_B`` about the link
    origin Bo in link axes. The links are those Gazebo builds (libsdformat's fixed-joint
    lumping: the records :func:`gzinertia.urdf.reader.read_urdf_file` gives). ``single``: the
    pattern must select exactly one link (``--from``). A xacro file whose blocks cannot be
    placed literally is left as is and the blocks are in the warnings; the edit is read back
    (each block must give ``A`` again) before it is returned. ``names``: the scoped names of
    the links to write instead of ``pattern`` (each named link: a plugin conflict is an
    error, as with ``single``)."""
    from gzinertia.urdf.fragments import refuse_fragment
    from gzinertia.urdf.reader import read_urdf_file

    refuse_fragment(path)
    doc = read_urdf_file(path, package_paths, xacro_args=xacro_args, xacro_policy=xacro_policy)
    old = read_file_bytes(path)
    text = old.decode("utf-8")
    skipped: list[str] = []
    warnings: list[str] = []
    results: list[tuple[LinkRecord, AddedMass]] = []
    blocks: list[str] = []
    if names is None:
        selected = select_links(doc.links, pattern, str(path))
    else:
        selected = [link for link in doc.links if link.name in names]
    literal = _LiteralLinks(text)
    if single and len(selected) != 1:
        _refuse_several(path, pattern, selected)
    for link in selected:
        short = within_top(link.name)
        if any(added_mass_active(p) for p in link.hydrodynamics):
            if single or names is not None:  # named: say so rather than write nothing
                raise GzInertiaError(
                    f"{link.source}: link {link.name!r} already has a Hydrodynamics plugin that "
                    "applies added mass (<iDotJ>); a second one would count it twice: remove its "
                    "<gazebo> block first"
                )
            skipped.append(f"{link.name}: its Hydrodynamics plugin already applies added mass "
                           "(<iDotJ>); a second one would count it twice (remove its <gazebo> "
                           "block to write a new one)")
            continue
        try:
            A_BBo_B, comment = matrix_for(link)
        except LinkSkippedError as exc:
            skipped.append(f"{link.name}: {exc}")
            continue
        block = hydrodynamics_block(short, A_BBo_B, comment + "; " + _ascii(
            "applied explicitly by the plugin, gz-sim#1462"))
        if is_xacro_path(path) and short not in literal:
            warnings.append(
                f"{link.source}: link {short!r} is not written literally in {path} (made by a "
                "macro): put this block inside the <robot> that defines it:\n" + block
            )
            continue
        results.append((link, A_BBo_B))
        blocks.append(block)
    new = old
    if blocks:
        end = text.rfind("</robot>")
        if end < 0:
            raise GzInertiaError(f"{path}: no literal </robot> to insert the <gazebo> blocks "
                                 "before; add them by hand:\n" + "".join(blocks))
        new = (text[:end] + "".join(blocks) + text[end:]).encode("utf-8")
        _verify(path, new, results, package_paths, xacro_args, xacro_policy)
    notes = (EXPLICIT_NOTE,) if results else ()
    return (
        AddMassResult(path, old, new, (), tuple(skipped), tuple(warnings), notes),
        tuple(results),
    )


def _refuse_several(path: Path, pattern: str | None, selected: Sequence[LinkRecord]) -> None:
    """``--from`` selecting other than one link: refused, naming those selected."""
    from gzinertia.wording import bounded

    names = bounded(link.name for link in selected)
    raise GzInertiaError(
        f"{path}: --link {pattern!r} selects {len(selected)} links ({names}); the result "
        "belongs to one"
    )


def _ascii(text: str) -> str:
    return text.replace("--", "-")


def _literal_link(text: str, name: str) -> bool:
    """Whether ``<link`` and a space start a tag holding ``name="NAME"`` (an attribute whose
    name ends in ``name``, either quote, ``>`` not in between) in ``text``."""
    return re.search(r"<link\s[^>]*name\s*=\s*[\"']" + re.escape(name) + r"[\"']", text) is not None


#: The marks :class:`_LiteralLinks` reads in one pass: ``>`` (no match spans it), ``<link`` and a
#: space (a link's tag starts), ``name="`` (a value that may be a link's name starts).
_LINK_MARKS = r"(>)|(<link\s)|name\s*=\s*[\"']"


class _LiteralLinks:
    """The link names :func:`_literal_link` finds in ``text``, for any number of names in one
    pass over it (searching the whole text once per link made ``addmass`` on a xacro file
    quadratic in its links). A name holding a quote is searched as before: its value does not
    end at the first quote."""

    def __init__(self, text: str) -> None:
        self.text = text
        quotes = [m.start() for m in re.finditer(r"[\"']", text)]
        self.values: set[str] = set()
        in_link = False
        for m in re.finditer(_LINK_MARKS, text):
            if m.group(1) is not None:
                in_link = False
            elif m.group(2) is not None:
                in_link = True
            elif in_link:
                k = bisect.bisect_left(quotes, m.end())
                if k < len(quotes):
                    self.values.add(text[m.end() : quotes[k]])

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if '"' in name or "'" in name:
            return _literal_link(self.text, name)
        return name in self.values


def _verify(
    path: Path,
    new: bytes,
    results: Sequence[tuple[LinkRecord, AddedMass]],
    package_paths: Sequence[str | Path],
    xacro_args: Mapping[str, str] | None,
    xacro_policy: XacroPolicy | None = None,
) -> None:
    """Reads the edited bytes back: each link's plugin must give ``-sym(D) = A`` to the ten
    digits written."""
    from gzinertia.urdf.reader import read_urdf_bytes, read_urdf_file

    if is_xacro_path(path):  # expanding needs the file beside its relative includes
        from gzinertia.io.safe_write import temporary_copy

        why = "reading the edited xacro back needs one, as its includes are relative"
        with temporary_copy(path, new, suffix=XACRO_SUFFIX, why=why) as tmp:
            after = read_urdf_file(tmp, package_paths, xacro_args=xacro_args,
                                   xacro_policy=xacro_policy)
    else:
        after = read_urdf_bytes(new, str(path), package_paths)
    by_name = {r.name: r for r in after.links}
    for link, A_BBo_B in results:
        rec: LinkRecord | None = by_name.get(link.name)
        plugins = [] if rec is None else [p for p in rec.hydrodynamics if p.link_name]
        if not plugins:
            raise GzInertiaError(f"{path}: the written block for {link.name!r} does not read "
                                 "back as its Hydrodynamics plugin; nothing written")
        D = plugins[-1].D_BBo_B
        A = A_BBo_B.symmetric().linear_first()
        if np.max(np.abs(-(D + D.T) / 2 - A)) > 1e-9 * max(float(np.max(np.abs(A))), 1e-300):
            raise GzInertiaError(f"{path}: the written added mass of {link.name!r} does not "
                                 "read back as computed; nothing written")
