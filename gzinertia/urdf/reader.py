"""URDF and xacro → :class:`~gzinertia.records.SdfDocument`, as Gazebo sees them.

:func:`read_urdf_file` reads ``*.urdf`` (and expands ``*.xacro``/``*.urdf.xacro`` first),
parses the robot as urdfdom does (:mod:`gzinertia.urdf.model`) and converts it as libsdformat
does (:mod:`gzinertia.urdf.lumping`): the records are those of the SDF model Gazebo builds.
Link names are scoped by the robot name (``robot::link``), like an SDF model's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from gzinertia.errors import MacrosOnlyError, SdfError
from gzinertia.io.limits import ReadLimits
from gzinertia.record_base import ValueRecord
from gzinertia.records import Dependency, LinkRecord, Note, SdfDocument, SourceRef
from gzinertia.sdf.xml import parse_xml_bytes, read_file_bytes
from gzinertia.urdf.lumping import Conversion, convert
from gzinertia.urdf.model import UrdfRobot, parse_robot
from gzinertia.urdf.package_notes import duplicate_package_notes
from gzinertia.urdf.ros_packages import resolve_package_uri
from gzinertia.urdf.xacro_expand import expand_xacro_sourced
from gzinertia.urdf.xacro_inputs import xacro_dependencies
from gzinertia.urdf.xacro_policy import ENV_FLAG, first_optenv_line
from gzinertia.vocabulary.model_suffixes import is_urdf_path, is_xacro_path

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

#: What a xacro file that expands to no link is (a library of macros).
MACROS_ONLY = "xacro macros only: no <link> after expansion"
#: The SDFormat version libsdformat's conversion writes (libsdformat 12: 1.9).
CONVERTED_SDF_VERSION = "1.9"
#: Whether a path names a xacro file, or a URDF or xacro file (by suffix: one home,
#: :mod:`gzinertia.model_reader`, which every command's reading goes through).
is_xacro = is_xacro_path
is_urdf = is_urdf_path


def read_urdf_file(
    path: str | Path,
    package_paths: Sequence[str | Path] = (),
    *,
    xacro_args: Mapping[str, str] | None = None,
    lump: bool = True,
    legacy: bool = False,
    limits: ReadLimits | None = None,
    xacro_policy: XacroPolicy | None = None,
) -> SdfDocument:
    """Reads a URDF file (a ``*.xacro`` file is expanded first) into link records.

    ``package_paths`` resolve ``$(find pkg)`` and ``package://`` (then ``ROS_PACKAGE_PATH``
    and ``AMENT_PREFIX_PATH``); ``xacro_args`` are xacro's ``name:=value`` arguments;
    ``xacro_policy`` says what the expansion may do
    (:class:`~gzinertia.urdf.xacro_policy.XacroPolicy`: by default, expressions evaluated
    without Python and no environment variable read).
    ``lump=False`` gives every link with its own inertial, before libsdformat's fixed-joint
    lumping and massless-link dropping (as Drake's parser reads URDF); ``legacy=True`` follows
    libsdformat < 12.7.2 (see :mod:`gzinertia.urdf.lumping`). Errors are
    :class:`~gzinertia.errors.SdfError` naming file and line.
    """
    return _read_model(str(path), package_paths, xacro_args, xacro_policy,
                       _Reading(lump=lump, legacy=legacy, limits=limits)).doc


@dataclass(frozen=True, repr=False, eq=False)
class UrdfModel(ValueRecord):
    """A URDF file read: the link records (``doc``), the robot as written (``robot``: joints,
    ``<gazebo>`` blocks) and libsdformat's conversion of it (``conversion``: which link is
    lumped into which, which are dropped)."""

    doc: SdfDocument
    robot: UrdfRobot
    conversion: Conversion


@dataclass(frozen=True, repr=False, eq=False)
class _Reading(ValueRecord):
    """How a URDF robot is read and converted: ``lump`` and ``legacy`` as
    :func:`read_urdf_file` takes them, the ``limits`` (``None``: from the environment), and
    ``whole``: the robot whole (:func:`~gzinertia.urdf.model.parse_robot`: joint motion,
    colours, ``<gazebo>`` blocks) or only what the link records need."""

    lump: bool = True
    legacy: bool = False
    limits: ReadLimits | None = None
    whole: bool = False


def read_urdf_model(
    path: str | Path,
    package_paths: Sequence[str | Path] = (),
    *,
    xacro_args: Mapping[str, str] | None = None,
    xacro_policy: XacroPolicy | None = None,
) -> UrdfModel:
    """:func:`read_urdf_file` (lumped, limits from the environment) with the robot, read
    whole (:func:`~gzinertia.urdf.model.parse_robot`: joint motion, colours, ``<gazebo>``
    blocks), and its conversion: what ``expand --sdf`` writes from."""
    return _read_model(str(path), package_paths, xacro_args, xacro_policy, _Reading(whole=True))


def _read_model(
    name: str,
    package_paths: Sequence[str | Path],
    xacro_args: Mapping[str, str] | None,
    xacro_policy: XacroPolicy | None,
    reading: _Reading,
) -> UrdfModel:
    """The URDF or xacro file ``name`` read as ``reading`` says (:func:`read_urdf_file`'s
    arguments)."""
    if is_xacro(name):
        expansion = expand_xacro_sourced(name, xacro_args, package_paths, policy=xacro_policy)
        text = expansion.text

        included = tuple(xacro_dependencies(name, expansion.inputs))
        if _no_links(text):
            raise MacrosOnlyError(
                name, None, f"{MACROS_ONLY} (nothing to read; audit the file that uses the macros)",
                dependencies=included,
            )
        model = _read_bytes(
            text.encode("utf-8"), name, package_paths, reading,
            line_sources={k: v[0] for k, v in expansion.sources.items()},
            macro_calls={k: v[1] for k, v in expansion.sources.items() if v[1] is not None},
        )
        doc = model.doc
        files = [name, *(f for f in dict.fromkeys(expansion.includes) if Path(f).is_file())]
        duplicates = duplicate_package_notes(
            ((f, read_file_bytes(f).decode("utf-8", "replace")) for f in files), package_paths)
        return replace(model, doc=replace(
            doc, dependencies=(*included, *doc.dependencies),
            notes=(*doc.notes, *optenv_notes(expansion.optenv_defaults), *duplicates)))
    data = read_file_bytes(name)
    model = _read_bytes(data, name, package_paths, reading)
    duplicates = duplicate_package_notes([(name, data.decode("utf-8", "replace"))],
                                         package_paths)
    if not duplicates:
        return model
    return replace(model, doc=replace(model.doc, notes=(*model.doc.notes, *duplicates)))


def optenv_notes(defaults: Sequence[tuple[str, str]]) -> list[Note]:
    """One info note ``xacro-optenv-default`` per file whose ``$(optenv NAME default)`` took
    its default because NAME is not among the variables the expansion may read (``defaults``:
    ``(name, file)`` pairs in the order met), at the line of the first such substitution."""
    by_file: dict[str, list[str]] = {}
    for variable, file in defaults:
        by_file.setdefault(file, []).append(variable)
    notes = []
    for file, variables in by_file.items():
        shown = ", ".join(variables[:8]) + (f" and {len(variables) - 8} more"
                                            if len(variables) > 8 else "")
        notes.append(Note(
            "info", "xacro-optenv-default",
            f"$(optenv) took its default for {len(variables)} environment variable(s) the "
            f"expansion may not read: {shown} (name them with {ENV_FLAG} or the xacro-env "
            "setting to read them)",
            SourceRef(file, first_optenv_line(file, variables)),
            data={"variables": ",".join(variables)},
        ))
    return notes


def _no_links(text: str) -> bool:
    root = parse_xml_bytes(text.encode("utf-8"), "<expanded>")
    return root.tag == "robot" and root.find("link") is None


def read_urdf_bytes(
    data: bytes,
    name: str = "<bytes>",
    package_paths: Sequence[str | Path] = (),
    *,
    lump: bool = True,
    legacy: bool = False,
    limits: ReadLimits | None = None,
    line_sources: Mapping[int, tuple[str, int]] | None = None,
    macro_calls: Mapping[int, tuple[str, int]] | None = None,
) -> SdfDocument:
    """Reads URDF bytes; ``name`` stands for the file in messages. ``line_sources``: for a
    xacro expansion ``data``, the file and line each of its lines' element is written at
    (through macros and includes: :class:`~gzinertia.urdf.xacro_expand.XacroExpansion`);
    every place is then reported there. ``macro_calls``: for the lines of elements a xacro macro
    made, where the (outermost) macro call is written: each such link gets an info note
    ``xacro-macro-call`` (``data``: ``written``, ``called``, as ``file:line``)."""
    reading = _Reading(lump=lump, legacy=legacy, limits=limits)
    return _read_bytes(data, name, package_paths, reading, line_sources=line_sources,
                       macro_calls=macro_calls).doc


def _read_bytes(
    data: bytes,
    name: str,
    package_paths: Sequence[str | Path],
    reading: _Reading,
    *,
    line_sources: Mapping[int, tuple[str, int]] | None = None,
    macro_calls: Mapping[int, tuple[str, int]] | None = None,
) -> UrdfModel:
    limits = reading.limits or ReadLimits.from_environment()
    root = parse_xml_bytes(data, name)
    try:
        robot = parse_robot(root, name, limits.max_links, whole=reading.whole)
        conversion = convert(robot, lump=reading.lump, legacy=reading.legacy)
    except SdfError as exc:
        if line_sources is None or exc.file != name or exc.line is None:
            raise
        place = _SourcePlaces(name, line_sources).ref(SourceRef(name, exc.line))
        raise SdfError(place.file, place.line, exc.message) from None
    links: list[LinkRecord] = list(conversion.links)
    notes: list[Note] = list(conversion.notes)
    if not links:
        notes.append(
            Note(
                "error",
                "urdf-no-links",
                f"robot {robot.name!r}: libsdformat builds no link from it (every link is "
                "massless or below one): Gazebo refuses the model ('A model must have at least "
                "one link')",
                robot.source,
            )
        )
    dependencies: list[Dependency] = []
    resolved_links = []
    base = str(Path(name).parent)
    for rec in links:
        collisions = []
        for c in rec.collisions:
            if c.geometry.mesh_uri:
                found = resolve_package_uri(c.geometry.mesh_uri, package_paths, base)
                dependencies.append(Dependency("urdf-resource", c.geometry.mesh_uri, name, found))
                c = replace(c, geometry=replace(c.geometry, mesh_path=found))
            collisions.append(c)
        visuals = []  # resolved as the collisions are (addmass/fix --geometry visual mesh them)
        for v in rec.visuals:
            if v.geometry.mesh_uri and v.geometry.mesh_path is None:
                found = resolve_package_uri(v.geometry.mesh_uri, package_paths, base)
                dependencies.append(Dependency("urdf-resource", v.geometry.mesh_uri, name, found))
                v = replace(v, geometry=replace(v.geometry, mesh_path=found))
            visuals.append(v)
        resolved_links.append(
            replace(rec, collisions=tuple(collisions), visuals=tuple(visuals))
        )
    links = resolved_links
    if line_sources is not None:
        placer = _SourcePlaces(name, line_sources)
        called = _macro_call_notes(links, placer, macro_calls or {})  # places already final
        links = [placer.record(r) for r in links]
        notes = [placer.note(n) for n in notes] + called
    doc = SdfDocument(
        path=name,
        sdf_version=CONVERTED_SDF_VERSION,
        links=tuple(links),
        notes=tuple(notes),
        root_kind="model",
        dependencies=tuple(dependencies),
        file_versions={name: CONVERTED_SDF_VERSION},
    )
    return UrdfModel(doc, robot, conversion)


def _macro_call_notes(
    links: list[LinkRecord], placer: _SourcePlaces, calls: Mapping[int, tuple[str, int]]
) -> list[Note]:
    """An info note per link a xacro macro built: where its ``<link>`` is written and where
    the macro was called (``links`` still point into the expanded text)."""
    out = []
    for rec in links:
        call = calls.get(rec.source.line) if rec.source.file == placer.file else None
        if call is None:
            continue
        written, called = placer.ref(rec.source), SourceRef(*call)
        out.append(Note(
            "info", "xacro-macro-call",
            f"link {rec.name!r} is built by a xacro macro: written at {written}, macro called "
            f"at {called}", called, link=rec.name,
            data={"written": str(written), "called": str(called)},
        ))
    return out


class _SourcePlaces:
    """Moves every place in an expanded xacro text (``file`` = the xacro file, line = a line
    of the expansion) to where its element is written; a line no element starts on stays
    line 1 of the xacro file."""

    def __init__(self, file: str, places: Mapping[int, tuple[str, int]]) -> None:
        self.file = file
        self.places = places

    def ref(self, ref: SourceRef) -> SourceRef:
        if ref.file != self.file:
            return ref
        place = self.places.get(ref.line)
        return SourceRef(*place) if place is not None else SourceRef(self.file, 1)

    def _opt(self, ref: SourceRef | None) -> SourceRef | None:
        return None if ref is None else self.ref(ref)

    def record(self, rec: LinkRecord) -> LinkRecord:
        ine = rec.inertial
        return replace(
            rec,
            source=self.ref(rec.source),
            inertial=replace(
                ine, source=self._opt(ine.source), mass_source=self._opt(ine.mass_source),
                inertia_source=self._opt(ine.inertia_source),
                added_mass_source=self._opt(ine.added_mass_source),
            ),
            collisions=tuple(replace(c, source=self.ref(c.source)) for c in rec.collisions),
            hydrodynamics=tuple(
                replace(h, source=self.ref(h.source),
                        term_sources={k: self.ref(v) for k, v in h.term_sources.items()})
                for h in rec.hydrodynamics
            ),
        )

    def note(self, note: Note) -> Note:
        return replace(note, source=self.ref(note.source))
