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

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from gzinertia.edit.addmass import AddMassResult, FitChooser, LinkAddedMass, provenance
from gzinertia.edit.links import format_value
from gzinertia.errors import GzInertiaError
from gzinertia.gazebo.hydrodynamics import FILENAME, NAME, added_mass_term
from gzinertia.physics.added_mass import AddedMass
from gzinertia.physics.fits import FitError
from gzinertia.physics.negligible import entry_scales
from gzinertia.records import LinkRecord
from gzinertia.sdf.xml import read_file_bytes
from gzinertia.selection import select_links

EXPLICIT_NOTE = (
    "the Hydrodynamics plugin applies this added mass explicitly (a force from the differenced "
    "acceleration), which is less stable than DART's native <fluid_added_mass> (gz-sim#1462); "
    "for DART, convert the URDF (gz sdf -p) and run `gzinertia addmass` on the SDF"
)


def hydrodynamics_block(link: str, A_BBo_B: AddedMass, comment: str, indent: str = "  ") -> str:
    """The ``<gazebo>`` block carrying ``D = -A`` (36 terms, zeros left out, linear-first
    ``[x y z p q r]`` rows/columns as ``xyzkmn``/``UVWPQR``) for URDF link ``link``; ``A_BBo_B``
    is about the link origin in link axes, where the Hydrodynamics plugin applies it."""
    A = A_BBo_B.symmetric().linear_first()
    scales = entry_scales(A)  # round-off judged within units, as every writer does
    lines = [f"{indent}<!-- {comment} -->", f"{indent}<gazebo>",
             f'{indent * 2}<plugin filename="{FILENAME}" name="{NAME}">',
             f"{indent * 3}<link_name>{link}</link_name>"]
    for i in range(6):
        for j in range(6):
            value, term = format_value(float(-A[i, j]), scales[i, j]), added_mass_term(i, j)
            if value != "0":
                lines.append(f"{indent * 3}<{term}>{value}</{term}>")
    lines += [f"{indent * 2}</plugin>", f"{indent}</gazebo>"]
    return "\n".join(lines) + "\n"


def add_mass_urdf(
    path: Path,
    *,
    fit_for: FitChooser,
    density: float,
    pattern: str | None,
    package_paths: Sequence[str | Path] = (),
    xacro_args: Mapping[str, str] | None = None,
) -> AddMassResult:
    """Computes each selected link's ellipsoid added mass and inserts its Hydrodynamics block
    (in memory: ``new``). A xacro file whose blocks cannot be placed literally is left as is
    and the blocks are in the warnings."""
    from gzinertia.urdf.reader import is_xacro, read_urdf_file

    doc = read_urdf_file(path, package_paths, xacro_args=xacro_args)
    old = read_file_bytes(path)
    text = old.decode("utf-8")
    skipped: list[str] = []
    warnings: list[str] = []
    results: list[LinkAddedMass] = []
    blocks: list[str] = []
    for link in select_links(doc.links, pattern, str(path)):
        short = link.name.split("::", 1)[-1]
        if any(_applies_added_mass(p.terms, p.disable_added_mass) for p in link.hydrodynamics):
            skipped.append(f"{link.name}: its Hydrodynamics plugin already applies added mass "
                           "(<iDotJ>); a second one would count it twice")
            continue
        try:
            fit = fit_for(link)
            A_BBo_B = fit.added_mass(density)
        except FitError as exc:
            if pattern is not None:
                raise
            skipped.append(f"{link.name}: {exc}")
            continue
        block = hydrodynamics_block(short, A_BBo_B, provenance(fit, density) + "; " + _ascii(
            "applied explicitly by the plugin, gz-sim#1462"))
        if is_xacro(path) and not _literal_link(text, short):
            warnings.append(
                f"{link.source}: link {short!r} is not written literally in {path} (made by a "
                "macro): put this block inside the <robot> that defines it:\n" + block
            )
            continue
        results.append(LinkAddedMass(link, fit, density, A_BBo_B))
        blocks.append(block)
    new = old
    if blocks:
        end = text.rfind("</robot>")
        if end < 0:
            raise GzInertiaError(f"{path}: no literal </robot> to insert the <gazebo> blocks "
                                 "before; add them by hand:\n" + "".join(blocks))
        new = (text[:end] + "".join(blocks) + text[end:]).encode("utf-8")
        _verify(path, new, results, package_paths, xacro_args)
    notes = (EXPLICIT_NOTE,) if results else ()
    return AddMassResult(path, old, new, tuple(results), tuple(skipped), tuple(warnings), notes)


def _ascii(text: str) -> str:
    return text.replace("--", "-")


def _applies_added_mass(terms: Mapping[str, float], disabled: bool) -> bool:
    return not disabled and any("Dot" in name and value != 0.0 for name, value in terms.items())


def _literal_link(text: str, name: str) -> bool:
    return re.search(r"<link\s[^>]*name\s*=\s*[\"']" + re.escape(name) + r"[\"']", text) is not None


def _verify(
    path: Path,
    new: bytes,
    results: Sequence[LinkAddedMass],
    package_paths: Sequence[str | Path],
    xacro_args: Mapping[str, str] | None,
) -> None:
    """Reads the edited bytes back: each link's plugin must give ``-sym(D) = A`` to the ten
    digits written."""
    from gzinertia.urdf.reader import is_xacro, read_urdf_bytes, read_urdf_file

    if is_xacro(path):  # expanding needs the file beside its relative includes
        import os
        import tempfile

        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(suffix=".gzinertia.xacro", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(new)
            after = read_urdf_file(tmp, package_paths, xacro_args=xacro_args)
        finally:
            os.unlink(tmp)
    else:
        after = read_urdf_bytes(new, str(path), package_paths)
    by_name = {r.name: r for r in after.links}
    for item in results:
        rec: LinkRecord | None = by_name.get(item.link.name)
        plugins = [] if rec is None else [p for p in rec.hydrodynamics if p.link_name]
        if not plugins:
            raise GzInertiaError(f"{path}: the written block for {item.link.name!r} does not read "
                                 "back as its Hydrodynamics plugin; nothing written")
        D = plugins[-1].D_BBo_B
        A = item.A_BBo_B.symmetric().linear_first()
        if np.max(np.abs(-(D + D.T) / 2 - A)) > 1e-9 * max(float(np.max(np.abs(A))), 1e-300):
            raise GzInertiaError(f"{path}: the written added mass of {item.link.name!r} does not "
                                 "read back as computed; nothing written")
