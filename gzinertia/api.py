"""The library's front door: read a model, look at its links, fit, audit, edit.

Everything here is re-exported by :mod:`gzinertia` (``import gzinertia``) and imported on first
use, so importing the package costs nothing until a function is called.

Conventions (``docs/conventions.md``): every 6x6 is a
:class:`~gzinertia.physics.spatial_matrix.SpatialMatrix` that knows its point and axes and gives
its numbers only in a named ordering (``.linear_first()`` ``[v; ω]`` = SDFormat ``[x y z p q r]``,
``.angular_first()`` ``[ω; v]`` = Drake/DART). Per link: ``link.M_BBo_B`` (rigid, about the
link origin Bo in link axes B), ``link.M_BBcm_B`` (about the centre of mass), ``link.A_BBo_B``
(``<fluid_added_mass>``, about Bo in B; ``None`` when absent).

Each edit (:func:`addmass`, :func:`shift`, :func:`convert`, :func:`hydro`) reads the file and
returns its new text; it writes nothing. What the command line prints as warnings (skipped
links, plausibility) is issued as :class:`GzInertiaWarning` through :mod:`warnings`; what it
refuses raises :class:`~gzinertia.errors.GzInertiaError` naming the file and line.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from gzinertia.audit.findings import Finding
    from gzinertia.physics.fits import EllipsoidFit, FitMethod
    from gzinertia.records import LinkRecord, SdfDocument

# duplicates: __all__ lists (here and gzinertia/__init__.py) are alike by shape only
__all__ = [
    "GzInertiaWarning",
    "Reader",
    "addmass",
    "audit_paths",
    "convert",
    "fit",
    "hydro",
    "read",
    "readers",
    "register_reader",
    "shift",
]

#: Reads one file (and what it includes) into a document of links: ``(path, model_paths)``.
Reader = Callable[[Path, Sequence[str | Path]], "SdfDocument"]

#: Readers registered by lower-case file suffix, as ``"module:function"`` (imported on first
#: use) or a callable (:func:`register_reader`). Any other file goes to the built-in reader,
#: :func:`gzinertia.sdf.model_file.read_model_file` (SDFormat, URDF and xacro by suffix).
_READERS: dict[str, str | Reader] = {}
_BUILT_IN_READER = "gzinertia.sdf.model_file:read_model_file"


class GzInertiaWarning(UserWarning):
    """Something an edit or a read did not do, or did with a caveat (the CLI's warnings)."""


def register_reader(suffix: str, reader: Reader | str) -> None:
    """Reads files ending in ``suffix`` (``".urdf"``; case-insensitive) with ``reader``: a
    callable ``(path, model_paths) -> SdfDocument`` or a ``"module:function"`` string imported
    on first use. Replaces the reader registered for that suffix."""
    if not suffix.startswith("."):
        raise ValueError(f"a suffix starts with '.', not {suffix!r}")
    _READERS[suffix.lower()] = reader


def readers() -> dict[str, str | Reader]:
    """The registered readers by suffix (a copy)."""
    return dict(_READERS)


def _reader_for(path: Path) -> Reader:
    entry = _READERS.get(path.suffix.lower(), _BUILT_IN_READER)
    if callable(entry):
        return entry
    module_name, _, attr = entry.partition(":")
    import importlib

    from gzinertia.errors import GzInertiaError

    try:
        module = importlib.import_module(module_name)
        function: Reader = getattr(module, attr)
    except (ImportError, AttributeError):
        raise GzInertiaError(
            f"{path}: no reader for {path.suffix} files in this installation ({entry})"
        ) from None
    return function


def read(path: str | Path, *, model_paths: Sequence[str | Path] = ()) -> SdfDocument:
    """Reads a model or world file, and everything it includes, into a document of links.

    The reader is chosen by suffix: one registered with :func:`register_reader`, else the
    built-in one (URDF for ``.urdf``, xacro for ``.xacro`` and ``.urdf.xacro``, converted as
    libsdformat converts them; SDFormat for anything else).
    ``model_paths`` are searched first for ``model://`` URIs, then ``GZ_SIM_RESOURCE_PATH``,
    ``SDF_PATH`` and ``IGN_GAZEBO_RESOURCE_PATH``. Links are scoped ``model::nested::link``
    (:meth:`~gzinertia.records.SdfDocument.link`). Raises
    :class:`~gzinertia.errors.GzInertiaError` (file and line) for a file it cannot read.
    """
    p = Path(path)
    return _reader_for(p)(p, model_paths)


def fit(link: LinkRecord, method: FitMethod = "volume") -> EllipsoidFit:
    """The fluid ellipsoids fitted to a link, posed in the link frame B.

    ``method``: ``"volume"`` (an ellipsoid with each collision's volume and inertia),
    ``"mujoco"`` (MuJoCo's ellipsoid per collision), ``"inertia"`` (the equivalent ellipsoid of
    the ``<inertial>``). ``fit(link).added_mass(density)`` is the Tuckerman ``A_BBo_B``, about
    the link origin in link axes; ``.ellipsoids`` are
    :class:`~gzinertia.physics.ellipsoid.PosedEllipsoid` values posed in the link frame (their
    ``X_FE`` is ``X_BE``; ``label`` names the collisions).
    Raises :class:`~gzinertia.physics.fits.FitError` when the link cannot be fitted that way.
    """
    from gzinertia.physics.fits import fit_link

    return fit_link(link, method)


def audit_paths(
    *paths: str | Path,
    model_paths: Sequence[str | Path] = (),
    codes: Iterable[str] | None = None,
) -> list[Finding]:
    """Audits files and directories (recursively) and returns the findings, in file order.

    ``codes``: keep only findings with these rule codes (``"GZI201"``...; ``None``: all).
    Each :class:`~gzinertia.audit.findings.Finding` has ``code``, ``severity``, ``file``,
    ``line``, ``link`` and ``message``, and ``values`` with the numbers it is about (named with
    point, axes and ordering). A file that cannot be read is a ``GZI001`` finding.
    """
    from gzinertia.audit.runner import audit as run_audit

    result = run_audit([str(p) for p in paths], model_paths=[str(p) for p in model_paths])
    wanted = None if codes is None else frozenset(codes)
    return [f for f in result.findings if wanted is None or f.code in wanted]


def _text(new: bytes) -> str:
    """The edited file's text, decoded as its XML declaration says (UTF-8 otherwise)."""
    declared = re.match(rb"""^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""", new)
    encoding = declared.group(1).decode("ascii") if declared else "utf-8"
    try:
        return new.decode(encoding)
    except LookupError:
        return new.decode("utf-8")


def _warn(lines: Iterable[str]) -> None:
    for line in lines:
        warnings.warn(line, GzInertiaWarning, stacklevel=3)


def addmass(
    path: str | Path,
    *,
    density: float = 1000.0,
    method: FitMethod = "volume",
    links: str | None = None,
    upgrade_version: bool = True,
    replace_plugin_added_mass: bool = False,
    allow_overlap: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with each selected link's Tuckerman added mass written as
    ``<fluid_added_mass>`` (``A_BBo_B``: about the link origin in link axes, linear-first as
    the spec orders it) in a fluid of ``density`` kg/m³, fitted by ``method`` (see :func:`fit`).

    ``links``: a glob on scoped link names (``None``: every link that moves). The version is
    raised to SDF 1.10 when older unless ``upgrade_version=False``. Links skipped (static,
    without collisions, already covered by a Hydrodynamics plugin or by an overlapping
    ellipsoid) are reported as :class:`GzInertiaWarning`.
    """
    from gzinertia.edit.addmass import FitChooser, add_mass

    result = add_mass(
        Path(path), fit_for=FitChooser(method), density=density, pattern=links,
        upgrade_version=upgrade_version, model_paths=model_paths,
        replace_plugin_added_mass=replace_plugin_added_mass, allow_overlap=allow_overlap,
    )
    _warn([*result.skipped, *result.warnings])
    return _text(result.new)


def shift(
    path: str | Path,
    link: str,
    *,
    source: Literal["com", "origin"] | tuple[float, float, float],
    axes: Literal["link", "inertial"] = "link",
    force: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with one link's ``<fluid_added_mass>``, computed about ``source``
    (``"com"``, ``"origin"`` or a point ``(x, y, z)`` in link frame, m) in ``axes``, moved to
    the link origin in link axes by the exact change of point (what the spec wants).

    ``link`` is a glob matching exactly one link. A matrix gzinertia wrote is already about the
    origin: shifting it again raises unless ``force``.
    """
    from gzinertia.edit.shift import shift as run_shift

    result = run_shift(Path(path), pattern=link, point=source, axes=axes, force=force,
                       model_paths=model_paths)
    return _text(result.new)


# duplicates: the public functions' keyword defaults are alike by shape only
def convert(
    path: str | Path,
    *,
    to: Literal["sdf", "hydro"],
    sign: Literal["fossen", "physical", "auto"] = "auto",
    links: str | None = None,
    remove_plugin_terms: bool = False,
    force: bool = False,
    upgrade_version: bool = True,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with added mass moved between the Hydrodynamics plugin's ``<iDotJ>``
    terms and ``<fluid_added_mass>`` (``to="sdf"`` or ``to="hydro"``), so it counts once.

    ``sign``: ``"fossen"`` (negative derivatives, ``A = -D``), ``"physical"`` (``A = D``) or
    ``"auto"`` (from the diagonal; ``to="sdf"`` only). ``to="sdf"`` sets the plugin's
    ``<disable_added_mass>`` unless ``remove_plugin_terms``.
    """
    from gzinertia.edit.convert import hydro_to_sdf, sdf_to_hydro

    p = Path(path)
    if to == "sdf":
        result = hydro_to_sdf(p, pattern=links, sign=sign, remove_plugin_terms=remove_plugin_terms,
                              force=force, model_paths=model_paths,
                              upgrade_version=upgrade_version)
    elif to == "hydro":
        if sign == "auto":
            raise ValueError("to='hydro' needs sign='fossen' or sign='physical'")
        result = sdf_to_hydro(p, pattern=links, sign=sign, model_paths=model_paths)
    else:
        raise ValueError(f"to must be 'sdf' or 'hydro', not {to!r}")
    _warn(result.warnings)
    return _text(result.new)


def hydro(
    path: str | Path,
    links: str,
    *,
    density: float = 1000.0,
    viscosity: float = 1.0e-3,
    method: FitMethod = "mujoco",
    couplings: bool = False,
    cross_terms: bool = False,
    force: bool = False,
    model_paths: Sequence[str | Path] = (),
) -> str:
    """The file's new text with Hydrodynamics plugin damping terms (``<iJ>`` linear,
    ``<iJabsK>`` quadratic; Fossen's negative sign, link frame, about the link origin) for the
    links matching the glob ``links``, from MuJoCo's ellipsoid fluid model in a fluid of
    ``density`` kg/m³ and dynamic ``viscosity`` Pa·s, with MuJoCo's default coefficients.
    Terms a plugin already has are replaced only with ``force``.
    """
    from gzinertia.edit.hydro import hydro as run_hydro
    from gzinertia.physics.fluid_forces import EllipsoidFluidCoefficients

    result = run_hydro(
        Path(path), pattern=links, method=method, density=density, viscosity=viscosity,
        coefs=EllipsoidFluidCoefficients(), couplings=couplings, model_paths=model_paths,
        cross_terms=cross_terms, force=force,
    )
    _warn(result.warnings)
    return _text(result.new)
