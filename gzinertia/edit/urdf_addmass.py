"""Added mass for URDF/xacro links: what Gazebo reads from a URDF.

URDF cannot carry ``<fluid_added_mass>`` (gazebosim/sdformat#1467), so each selected link gets a
``<gazebo>`` block with gz-sim's Hydrodynamics system holding the matrix as its ``<iDotJ>``
terms, Fossen's sign (``D = -A``, the sign today's gz-sim needs: docs/added_mass.md, GZI208),
about the link origin in link axes (the plugin's point and axes). The block is inserted before
the file's closing ``</robot>``; nothing else changes. Gazebo applies plugin added mass
explicitly, from the differenced acceleration (less stable than DART's native added mass,
gz-sim#1462): the output says so, and a link whose added mass exceeds its rigid body's on some
axis, where that scheme diverges (gz-sim#1923, the audit's GZI506), is skipped with why.

A xacro file is edited only where the block can be written literally: its ``</robot>`` and
the link's name are in the file as written; otherwise the block is printed with where to put
it. Links whose Hydrodynamics plugin already applies added mass are skipped (counting twice).

The edits themselves (which links, the fits or solves, the skips, warnings and the overlap
guard) are those every format runs (:mod:`gzinertia.edit.added_mass_run`); this module is where
URDF puts the matrix (:class:`UrdfAddedMassWriter`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from gzinertia.checks.explicit_added_mass import too_large_for_the_plugin
from gzinertia.edit.added_mass_request import AddedMassRequest
from gzinertia.edit.added_mass_run import (
    RunOutput,
    WritePolicy,
    WrittenFile,
    plugins_applying_added_mass,
)
from gzinertia.edit.addmass import FitChooser, LinkAddedMass, ellipsoid_links
from gzinertia.edit.addmass_bem import BemRunProgress, BemSettings, LinkBem, bem_links
from gzinertia.edit.bem_import import ImportedLink, import_links
from gzinertia.edit.edit_result import Edit
from gzinertia.edit.links import format_value, refuse_unwritable
from gzinertia.errors import GzInertiaError
from gzinertia.hydrodynamics_terms import FILENAME, NAME, added_mass_term
from gzinertia.io.result_files import ResultFile
from gzinertia.io.safe_write import temporary_copy
from gzinertia.physics.negligible import entry_scales
from gzinertia.records import HydroPlugin, LinkRecord, SdfDocument
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.spatial.added_mass import AddedMass
from gzinertia.urdf.fragments import refuse_fragment
from gzinertia.urdf.reader import read_urdf_bytes, read_urdf_file
from gzinertia.vocabulary.model_suffixes import XACRO_SUFFIX, is_xacro_path
from gzinertia.vocabulary.scoped_names import within_top

if TYPE_CHECKING:
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
    lines = [f"{indent}<gazebo>", f"{indent * 2}<!-- {comment} -->",
             f'{indent * 2}<plugin filename="{FILENAME}" name="{NAME}">',
             f"{indent * 3}<link_name>{link}</link_name>"]
    lines += [f"{indent * 3}<{term}>{value}</{term}>"
              for term, value in added_mass_texts(A_BBo_B).items()]
    lines += [f"{indent * 2}</plugin>", f"{indent}</gazebo>"]
    return "\n".join(lines) + "\n"


def added_mass_texts(A_BBo_B: AddedMass) -> dict[str, str]:
    """The ``<iDotJ>`` terms of ``D = -A`` (``A_BBo_B``'s symmetric part, about the link origin
    in link axes) as written, row by row in linear-first ``[x y z p q r]`` order, the zeros
    left out: what :func:`hydrodynamics_block` writes (``gzinertia migrate`` on xacro too)."""
    A = A_BBo_B.symmetric().linear_first()
    scales = entry_scales(A)  # round-off judged within units, as every writer does
    texts = {added_mass_term(i, j): format_value(float(-A[i, j]), scales[i, j])
             for i in range(6) for j in range(6)}
    return {term: value for term, value in texts.items() if value != "0"}


def explicit_comment(comment: str) -> str:
    """``comment`` (a provenance comment) with what the plugin path costs, as each block of
    :class:`UrdfAddedMassWriter` carries it."""
    return comment + "; " + _ascii("applied explicitly by the plugin, gz-sim#1462")


def add_mass_urdf(
    request: AddedMassRequest, fit_for: FitChooser, density: float
) -> Edit[LinkAddedMass]:
    """``addmass --ellipsoid`` on a URDF/xacro file: the edit every format runs
    (:func:`gzinertia.edit.addmass.ellipsoid_links`), each link's matrix written as a
    ``<gazebo>`` Hydrodynamics block (:class:`UrdfAddedMassWriter`). A xacro link whose block
    cannot be placed literally is left as is and its block is in the warnings."""
    return ellipsoid_links(request, fit_for, density, UrdfAddedMassWriter.open(request))


def add_mass_bem_urdf(
    request: AddedMassRequest, settings: BemSettings, progress: BemRunProgress | None = None
) -> Edit[LinkBem]:
    """``addmass --bem`` on a URDF/xacro file: the edit every format runs
    (:func:`gzinertia.edit.addmass_bem.bem_links`), each link's BEM added mass (about the link
    origin Bo in link axes) written as a ``<gazebo>`` Hydrodynamics block with the BEM
    provenance comment inside it. The geometry is the link as Gazebo builds it: libsdformat's
    fixed-joint lumping moves a lumped link's collisions and visuals into the link that holds
    it, so the solve meshes what the SDF conversion of the file would give. ``--together`` is
    refused (one problem over several links is not wired for URDF yet)."""
    if settings.together:
        raise GzInertiaError(
            f"{request.path}: --together is for SDF models; on URDF/xacro each link is solved "
            "alone"
        )
    return bem_links(request, settings, progress, UrdfAddedMassWriter.open(request))


def add_mass_from_urdf(request: AddedMassRequest, result: ResultFile) -> Edit[ImportedLink]:
    """``addmass --from`` on a URDF/xacro file: the edit every format runs
    (:func:`gzinertia.edit.bem_import.import_links`), the imported matrix, moved to the link
    origin Bo in link axes, written as a ``<gazebo>`` Hydrodynamics block with the import's
    provenance comment inside it (geometry and dataset digests: GZI212 watches the link as
    Gazebo builds it)."""
    return import_links(request, result, UrdfAddedMassWriter.open)


class UrdfAddedMassWriter:
    """A URDF/xacro file's added mass as an added-mass run writes it: a ``<gazebo>``
    Hydrodynamics block per link (:func:`hydrodynamics_block`, ``D = -A``), all inserted before
    the file's closing ``</robot>`` at the end and read back (each block must give ``A``
    again). A xacro link not written literally (made by a macro) gets its block in the
    warnings, to paste. The links are those Gazebo builds (libsdformat's fixed-joint lumping:
    :func:`gzinertia.urdf.reader.read_urdf_file`). A link whose matrix exceeds the bound of
    the plugin's explicit scheme is skipped with why (GZI506), unless ``within_bound`` is
    false (a caller that gave the matrix and says the bound itself)."""

    def __init__(self, path: Path, doc: SdfDocument, old: bytes,
                 package_paths: Sequence[str | Path] = (),
                 xacro_args: Mapping[str, str] | None = None,
                 xacro_policy: XacroPolicy | None = None, within_bound: bool = True) -> None:
        self.path, self.doc, self.old = path, doc, old
        self.within_bound = within_bound
        self._reading = (tuple(package_paths), xacro_args, xacro_policy)
        self._text = old.decode("utf-8")
        self._literal = _LiteralLinks(self._text)
        self._blocks: list[str] = []
        self._results: list[tuple[LinkRecord, AddedMass]] = []

    @classmethod
    def read(cls, path: Path, package_paths: Sequence[str | Path] = (),
             xacro_args: Mapping[str, str] | None = None,
             xacro_policy: XacroPolicy | None = None) -> UrdfAddedMassWriter:
        """``path`` read as Gazebo builds it (a xacro fragment refused)."""
        refuse_fragment(path)
        doc = read_urdf_file(path, package_paths, xacro_args=xacro_args,
                             xacro_policy=xacro_policy)
        return cls(path, doc, read_file_bytes(path), package_paths, xacro_args, xacro_policy)

    @classmethod
    def open(cls, request: AddedMassRequest) -> UrdfAddedMassWriter:
        """``request``'s file, its packages and xacro settings."""
        source = request.source
        return cls.read(request.path, source.search_paths, source.xacro_mapping,
                        source.xacro_policy)

    def in_file(self, file: str | Path) -> bool:
        """Always: a block naming a link may stand in the robot's file wherever the link is
        defined (a link it cannot name literally gets its block to paste)."""
        return True

    def plugin_conflict(self, link: LinkRecord, plugin: HydroPlugin) -> str:
        """A second Hydrodynamics plugin would count the added mass twice."""
        return ("its Hydrodynamics plugin already applies added mass (<iDotJ>); a second one "
                "would count it twice (remove its <gazebo> block to write a new one)")

    def write(self, link: LinkRecord, plugins: Sequence[HydroPlugin],
              written: tuple[AddedMass, str], replaces: str, policy: WritePolicy,
              out: RunOutput) -> bool:
        """Makes ``link``'s block (``A_BBo_B`` about Bo in link axes, its comment inside);
        ``False`` with the block in ``out``'s warnings when the xacro does not name the link
        literally, or with why in its skipped links when the matrix exceeds the bound of the
        plugin's explicit scheme (an error when ``policy`` names the links). ``plugins`` is
        empty: replacing a plugin's added mass is refused on URDF."""
        A_BBo_B, comment = written
        short = within_top(link.name)
        A = A_BBo_B.symmetric().linear_first()
        refuse_unwritable(str(link.source), "added mass (Hydrodynamics <iDotJ>)", short,
                          [float(A[i, j]) for i in range(6) for j in range(i, 6)])
        unstable = too_large_for_the_plugin(A, link) if self.within_bound else None
        if unstable is not None:
            why = (f"{unstable}; URDF cannot carry <fluid_added_mass> (sdformat#1467): for "
                   "DART's implicit added mass convert the URDF (gz sdf -p) and run `gzinertia "
                   "addmass` on the SDF")
            if policy.pattern is not None:  # a link asked for by name: refused, not skipped
                raise GzInertiaError(f"{link.source}: link {link.name!r} not written: {why}")
            out.skipped.append(f"{link.name}: {why}")
            return False
        block = hydrodynamics_block(short, A_BBo_B, explicit_comment(comment))
        if is_xacro_path(self.path) and short not in self._literal:
            out.warnings.append(
                f"{link.source}: link {short!r} is not written literally in {self.path} (made "
                "by a macro): put this block inside the <robot> that defines it:\n" + block
            )
            return False
        self._results.append((link, A_BBo_B))
        self._blocks.append(block)
        return True

    def finish(self, written: Mapping[str, AddedMass], upgrade_version: bool) -> WrittenFile:
        """The bytes with every block before ``</robot>``, read back (``written``: per scoped
        link name, ``A_BBo_B`` about the link origin Bo in link axes B, linear-first
        ``[x y z p q r]``); the note that the plugin applies added mass explicitly when a block
        was written (no version in URDF)."""
        if not self._blocks:
            return WrittenFile(self.old)
        text = self._text
        end = text.rfind("</robot>")
        if end < 0:
            raise GzInertiaError(f"{self.path}: no literal </robot> to insert the <gazebo> "
                                 "blocks before; add them by hand:\n" + "".join(self._blocks))
        new = (text[:end] + "".join(self._blocks) + text[end:]).encode("utf-8")
        _verify(self.path, new, self._results, *self._reading)
        return WrittenFile(new, None, (EXPLICIT_NOTE,))


def add_given_urdf(
    path: Path, package_paths: Sequence[str | Path],
    matrices: Mapping[str, tuple[AddedMass, str]],
) -> tuple[Edit[object], tuple[tuple[LinkRecord, AddedMass], ...]]:
    """Each link named in ``matrices`` (scoped name → ``(A_BBo_B, comment)``, about Bo in link
    axes) given its block (:class:`UrdfAddedMassWriter`), in memory: the edit (its warnings the
    blocks to paste, its notes the format's) and ``((link, A_BBo_B), ...)`` for the links
    written. A link whose Hydrodynamics plugin applies added mass already is an error."""
    writer = UrdfAddedMassWriter.read(path, package_paths)
    writer.within_bound = False  # the caller gave the matrices (migrate says the bound itself)
    out = RunOutput()
    policy = WritePolicy(path, None, False, False)
    written = []
    for link in writer.doc.links:
        if link.name not in matrices:
            continue
        plugins = plugins_applying_added_mass(link)
        if plugins:
            raise GzInertiaError(f"{plugins[0].source}: "
                                 f"{writer.plugin_conflict(link, plugins[0])}")
        if writer.write(link, [], matrices[link.name], "", policy, out):
            written.append((link, matrices[link.name][0]))
    done = writer.finish(dict((lk.name, A) for lk, A in written), True)
    return (Edit(path, writer.old, done.new, (), (), tuple(out.warnings), done.notes),
            tuple(written))


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
    if is_xacro_path(path):  # expanding needs the file beside its relative includes

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
