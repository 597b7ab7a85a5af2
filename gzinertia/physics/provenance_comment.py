"""The provenance comment gzinertia writes before a ``<fluid_added_mass>`` it computed, written
and read here only.

A comment is a sentence for people followed by the same facts as versioned data::

    gzinertia addmass: Tuckerman ellipsoid added mass, volume fit, fluid density 1000 kg/m^3;
    about the link origin in link axes [gzinertia-provenance/1 kind=ellipsoid method=volume
    density=1000.0 hull=none]

(one line in the file; a writer may add words after it). The data is ``key=value`` words after
:data:`MARKER` and the format's version; values are percent-encoded (UTF-8, ``%2D`` for a
``-`` after a ``-``, so a comment never holds ``--``), numbers are Python ``repr`` (exact).
Readers take the data when its version is one they know, and otherwise read the sentence, as
comments written before the data existed (files in the wild carry them) are read: the fit's
method, density and explicit ellipsoid (6 significant digits as written), the BEM shapes,
element and digests.

Three kinds (``kind=``): ``ellipsoid`` (``addmass --ellipsoid``: ``method``, ``density``,
``hull``; ``semi_axes``, ``centre``, ``rpy`` for an explicit ellipsoid, in the link frame),
``bem`` (``addmass --bem``: ``element``, ``shapes``, ``mesh_digest``, ``density``, and since
the HTML report draws the surface solved on, ``panel_size``, ``panels`` and, under a free
surface, ``closed_panels``: a comment without them still reads) and ``imported`` (``addmass
--from``: the same geometry keys, and ``dataset_digest``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal
from urllib.parse import quote, unquote

from gzinertia.numbers import NumberError, read_number
from gzinertia.physics.mesh_fallback import HULL_USED, WRAP_USED, HullChoice
from gzinertia.record_base import ValueRecord
from gzinertia.spatial.rotation import rpy_from_rotation
from gzinertia.vocabulary.geometry import GeometryElement

if TYPE_CHECKING:
    from gzinertia.physics.fits import EllipsoidFit, FitMethod

__all__ = [
    "BEM_PREFIX",
    "FIT_PREFIX",
    "IMPORT_PREFIX",
    "MARKER",
    "VERSION",
    "BemProvenance",
    "FitProvenance",
    "bem_comment",
    "comment_data",
    "fit_comment",
    "import_geometry",
    "names_visuals",
    "read_bem_comment",
    "read_fit_comment",
    "sentence_of",
]

#: What opens the data part, followed by :data:`VERSION`.
MARKER = "gzinertia-provenance/"
#: The version of the data this module writes (and the newest it reads).
VERSION = 1
FIT_PREFIX = "gzinertia addmass: Tuckerman ellipsoid added mass, "
BEM_PREFIX = "gzinertia addmass: BEM added mass"
#: ``addmass --from``'s comment starts so; it names the geometry the result was imported for
#: (and the dataset's digest), so GZI212 reads it as it reads :data:`BEM_PREFIX`'s.
IMPORT_PREFIX = "gzinertia addmass: imported added mass"

_DATA = re.compile(r" \[" + re.escape(MARKER) + r"([0-9]{1,4})((?: [a-z_]+=[^ \]]*)*)\]")
_FITS: dict[str, FitMethod] = {"volume": "volume", "mujoco": "mujoco", "inertia": "inertia"}
_METHOD = re.compile(r"(volume|mujoco|inertia) fit|(explicit) ellipsoid")
_TRIPLE = r"\(([^,()]+), ([^,()]+), ([^,()]+)\)"
_EXPLICIT = re.compile(
    rf"explicit ellipsoid: semi-axes {_TRIPLE} m, centre {_TRIPLE} m, rpy {_TRIPLE} rad"
)
_DENSITY = re.compile(r"fluid density ([^ ]+) kg/m\^3")
_DATASET = re.compile(r"dataset digest (sha256:[0-9a-f]{16})")
_DIGEST = re.compile(r"mesh digest (sha256:[0-9a-f]{16})")
_COLLISIONS = re.compile(r"geometry (collisions|visuals)=([^;]*);")


@dataclass(frozen=True, repr=False, eq=False)
class FitProvenance(ValueRecord):
    """What an ``addmass --ellipsoid`` comment says: the fit method, the fluid density
    (kg/m³) and, for ``explicit``, the ellipsoid (semi-axes in m, centre ``p_BoEo_B`` in m and
    roll-pitch-yaw in rad, all in the link frame B: exact from the data, 6 significant digits
    from an older comment's sentence)."""

    method: FitMethod
    density: float
    explicit: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]] | None = None
    #: The hull fallback the fit was made with (``convex`` or ``wrap`` when the comment names
    #: a convex hull or a wrap: :mod:`gzinertia.physics.mesh_body`), so the audit refits the
    #: link the same way.
    hull: HullChoice = "none"


@dataclass(frozen=True, repr=False, eq=False)
class BemProvenance(ValueRecord):
    """What a BEM provenance comment says about the geometry it was computed from: the names
    of the shapes meshed, which element they are (``"collision"``, or ``"visual"`` after
    ``--geometry visual``), and their digest."""

    collisions: tuple[str, ...]
    digest: str
    element: GeometryElement = "collision"
    #: ``"bem"``: solved by ``addmass --bem``; ``"imported"``: brought in by ``addmass --from``
    #: for the geometry named, from the dataset whose digest is ``dataset_digest``.
    origin: Literal["bem", "imported"] = "bem"
    dataset_digest: str = ""
    #: The fine surface's panel size (m) the solve meshed the shapes at, the panels it solved
    #: on and, under a free surface, the panels of the closed surface the wetted ones were cut
    #: from (``None`` in a comment written before they were recorded).
    panel_size: float | None = None
    panels: int | None = None
    closed_panels: int | None = None


# --- the data part -----------------------------------------------------------------------------


def _encode(value: str) -> str:
    text = quote(value, safe=",:.")
    while "--" in text:
        text = text.replace("--", "-%2D")
    return text


def _data(fields: Mapping[str, str]) -> str:
    words = " ".join(f"{key}={_encode(value)}" for key, value in fields.items())
    return f" [{MARKER}{VERSION} {words}]"


def _numbers(values: Iterable[float]) -> str:
    return ",".join(repr(float(v)) for v in values)


def comment_data(comment: str | None) -> dict[str, str] | None:
    """The ``key → value`` data a comment ends with (decoded); ``None`` when it has none, or
    of a version newer than :data:`VERSION` (then its sentence is what can be read)."""
    found = None if not comment else _DATA.search(comment)
    if found is None or int(found.group(1)) > VERSION:
        return None
    pairs = (word.split("=", 1) for word in found.group(2).split())
    return {key: unquote(value) for key, value in pairs}


def sentence_of(comment: str) -> str:
    """The comment's sentence: the text without its data part (what a writer added after the
    data, as URDF's ``; applied explicitly by the plugin``, kept)."""
    found = _DATA.search(comment)
    return comment if found is None else comment[: found.start()] + comment[found.end():]


# --- addmass --ellipsoid -----------------------------------------------------------------------


def fit_comment(fit: EllipsoidFit, density: float) -> str:
    """The comment for a fit's added mass in a fluid of ``density`` kg/m³ (callers make it
    XML-safe with :func:`gzinertia.edit.links.ascii_comment`)."""
    geometry = f" (geometry: {fit.approximation})" if fit.approximation else ""
    hull = _hull_named(fit.approximation or "")
    fields = {"kind": "ellipsoid", "method": fit.method, "density": repr(float(density)),
              "hull": hull}
    if fit.method == "explicit":
        (ellipsoid,) = fit.ellipsoids
        fields |= {"semi_axes": _numbers(ellipsoid.semi_axes.tolist()),
                   "centre": _numbers(ellipsoid.X_FE.p.tolist()),
                   "rpy": _numbers(rpy_from_rotation(ellipsoid.X_FE.R).tolist())}
    sentence = (
        f"{FIT_PREFIX}{fit.description}{geometry}, "
        f"fluid density {density:g} kg/m^3; about the link origin in link axes"
    )
    return sentence + _data(fields)


def read_fit_comment(comment: str | None) -> FitProvenance | None:
    """The fit an ``addmass --ellipsoid`` comment names; ``None`` for any other text (a BEM or
    import comment, a user's comment, numbers that do not read back)."""
    if not comment or FIT_PREFIX not in comment:
        return None
    data = comment_data(comment)
    try:  # the numbers as written (a comment that is not ours may spell 1_000: not ours)
        if data is not None and data.get("kind") == "ellipsoid":
            return _fit_from_data(data)
        return _fit_from_sentence(sentence_of(comment).split(FIT_PREFIX, 1)[1])
    except (NumberError, KeyError, ValueError):
        return None


def _hull_named(words: str) -> HullChoice:
    """The hull fallback a fit's geometry note names (:data:`~gzinertia.physics.mesh_body.
    HULL_USED`, :data:`~gzinertia.physics.mesh_body.WRAP_USED`), ``none`` when neither."""
    return "convex" if HULL_USED in words else "wrap" if WRAP_USED in words else "none"


def _fit_from_data(data: Mapping[str, str]) -> FitProvenance | None:
    hulls: dict[str, HullChoice] = {"convex": "convex", "wrap": "wrap"}
    hull = hulls.get(data["hull"], "none")
    rho = read_number(data["density"])
    if data["method"] in _FITS:
        return FitProvenance(_FITS[data["method"]], rho, hull=hull)
    if data["method"] != "explicit":
        return None
    r, p, rpy = (tuple(read_number(x) for x in data[key].split(","))
                 for key in ("semi_axes", "centre", "rpy"))
    if not len(r) == len(p) == len(rpy) == 3:
        return None
    return FitProvenance("explicit", rho, (r, p, rpy))


def _fit_from_sentence(rest: str) -> FitProvenance | None:
    """A comment written before the data (or of a newer version): the sentence, read."""
    method, density = _METHOD.match(rest), _DENSITY.search(rest)
    if method is None or density is None:
        return None
    hull = _hull_named(rest)
    rho = read_number(density.group(1))
    if method.group(2) is None:
        return FitProvenance(_FITS[method.group(1)], rho, hull=hull)
    numbers = _EXPLICIT.match(rest)
    if numbers is None:
        return None
    v = tuple(read_number(x.strip()) for x in numbers.groups())
    return FitProvenance("explicit", rho, (v[0:3], v[3:6], v[6:9]))


# --- addmass --bem and --from ------------------------------------------------------------------


def bem_comment(
    *,
    capytaine_version: str,
    method: str,
    panels: int,
    frequency: str,
    fluid_domain: str,
    relative_error: float,
    collisions: Sequence[str],
    digest: str,
    density: float,
    element: GeometryElement = "collision",
    closed_panels: int | None = None,
    geometry_notes: Sequence[str] = (),
    panel_size: float | None = None,
) -> str:
    """The comment text (callers pass it through :func:`gzinertia.edit.links.ascii_comment`).

    ``panels`` are the panels solved on; under a free surface (``closed_panels`` given) the
    wetted ones, cut at the waterline from a closed surface of ``closed_panels`` (no lid);
    ``panel_size`` (m) the fine surface's, recorded with the panel counts in the data (what
    meshing the shapes again needs: the HTML report draws the surface).
    ``geometry_notes``: what the geometry pipeline did to each mesh (``"<shape>: <note>"``,
    :func:`gzinertia.physics.surface_mesh.mesh_notes`), said last, in words."""
    solved = (
        f"{panels} panels"
        if closed_panels is None
        else f"{panels} wetted panels (cut at the waterline from {closed_panels}, no lid)"
    )
    sentence = (
        f"{BEM_PREFIX} (Capytaine {capytaine_version}, {method} method, {solved}, "
        f"{frequency} frequency, {fluid_domain}, estimated discretisation error "
        f"{100.0 * relative_error:.2g} %); geometry {element}s={','.join(collisions)}; "
        f"mesh digest {digest}; fluid density {density:g} kg/m^3; about the link origin in "
        "link axes" + "".join(f"; geometry of {note}" for note in geometry_notes)
    )
    surface = {} if panel_size is None else {
        "panel_size": repr(float(panel_size)), "panels": str(panels),
        **({} if closed_panels is None else {"closed_panels": str(closed_panels)})}
    return sentence + _data(
        {"kind": "bem", **_geometry_fields(element, collisions, digest),
         "density": repr(float(density)), **surface}
    )


def import_geometry(
    element: GeometryElement, names: Sequence[str], digest: str, dataset_digest: str
) -> str:
    """What ``addmass --from`` appends to its comment's sentence (which it opens with
    :data:`IMPORT_PREFIX`): the link's geometry the result was imported for (the shapes and
    their digest, as ``addmass --bem`` writes them), the digest of the dataset file (which
    result it was), then the data."""
    sentence = (
        f"geometry {element}s={','.join(names)}; mesh digest {digest}; "
        f"dataset digest {dataset_digest}"
    )
    return sentence + _data(
        {"kind": "imported", **_geometry_fields(element, names, digest),
         "dataset_digest": dataset_digest}
    )


def _geometry_fields(element: GeometryElement, names: Sequence[str], digest: str) -> dict[str, str]:
    return {"element": element, "shapes": ",".join(quote(n, safe="") for n in names),
            "mesh_digest": digest}


def read_bem_comment(comment: str | None) -> BemProvenance | None:
    """The shapes and digests of a BEM or import provenance comment; ``None`` for any other
    text (an import comment that names no geometry, as written before, included)."""
    if not comment or (BEM_PREFIX not in comment and IMPORT_PREFIX not in comment):
        return None
    data = comment_data(comment)
    if data is not None and data.get("kind") in ("bem", "imported") and "shapes" in data:
        element: GeometryElement = "visual" if data.get("element") == "visual" else "collision"
        shapes = tuple(unquote(n) for n in data["shapes"].split(",") if n)
        if data["kind"] == "bem":
            size, panels, closed = _surface_fields(data)
            return BemProvenance(shapes, data.get("mesh_digest", ""), element,
                                 panel_size=size, panels=panels, closed_panels=closed)
        return BemProvenance(shapes, data.get("mesh_digest", ""), element, "imported",
                             data.get("dataset_digest", ""))
    return _bem_from_sentence(sentence_of(comment))


def _surface_fields(data: Mapping[str, str]) -> tuple[float | None, int | None, int | None]:
    """The panel size (m) and the panel counts (solved on, closed) a BEM comment's data
    records: ``None`` each when it does not, or when a value does not read back."""
    try:
        size = read_number(data["panel_size"]) if "panel_size" in data else None
        panels, closed = (int(data[k]) if k in data else None
                          for k in ("panels", "closed_panels"))
    except (NumberError, ValueError):
        return None, None, None
    usable = size is not None and math.isfinite(size) and size > 0.0
    return (size if usable else None), panels, closed


def _bem_from_sentence(comment: str) -> BemProvenance | None:
    """A comment written before the data (or of a newer version): the sentence, read."""
    digest, names = _DIGEST.search(comment), _COLLISIONS.search(comment)
    if digest is None or names is None:
        return None
    element: GeometryElement = "visual" if names.group(1) == "visuals" else "collision"
    shapes = tuple(n for n in names.group(2).split(",") if n)
    if BEM_PREFIX in comment:
        return BemProvenance(shapes, digest.group(1), element)
    dataset = _DATASET.search(comment)
    return BemProvenance(
        shapes, digest.group(1), element, "imported", dataset.group(1) if dataset else ""
    )


def names_visuals(comment: str | None) -> bool:
    """Whether a provenance comment says its matrix was computed from the link's visuals
    (``addmass --bem --geometry visual``, or an import for them)."""
    provenance = read_bem_comment(comment)
    return provenance is not None and provenance.element == "visual"
