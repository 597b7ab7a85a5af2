"""pydrake as an oracle for link poses ``X_WB`` and spatial inertias ``M_BBo_B``.

Drake (libsdformat inside ``Parser``) loads an SDFormat file into a ``MultibodyPlant(0.0)``
(no SceneGraph, so no geometry is registered); for every body except Drake's world body we
return its pose in the world at the default configuration and its default spatial inertia
about the body origin, angular-first (``SpatialInertia.CopyToFullMatrix6()``).

Facts established experimentally with drake 1.51 (pydrake), which these oracles rely on:

* **Names.** Every ``<model>`` becomes a model instance named by its scoped name: a top-level
  model ``top`` is ``top``, a nested model is ``top::n1``, deeper ``top::n1::n2``. A ``<world>``
  file yields one instance per model, named ``m1``, ``m2``, ``m2::nested``: the world's name is
  *not* part of it (same convention as ``LinkRecord.name``). ``body.scoped_name()`` is
  ``instance::body``; Drake's own world body lives in ``WorldModelInstance`` and is skipped.
  ``<include><name>foo</name>`` renames the included model instance to ``foo``.
* **Top-level model pose.** In a model file the top-level ``<model><pose>`` *is* applied: links
  are posed in the world as ``X_WM · X_ML``. ``placement_frame`` is honoured on top-level
  models, nested models and models in a world; so are world ``<frame>`` chains, world models
  posed ``relative_to`` world frames or other models, and scoped names (``n::b``, ``n::f``) in
  ``relative_to``/``attached_to``/joint ``<parent>``/``<child>``.
* **Defaults.** A link without ``<inertial>`` gets 1 kg and unit rotational inertia about its
  origin (the spec's defaults); an ``<inertial>`` without ``<inertia>`` keeps its mass and gets
  the unit inertia (``ixx = iyy = izz = 1``).
* **Auto inertia.** ``<inertial auto="true">`` is computed by libsdformat from the collisions
  and ``<density>`` (``inertial_stats_auto.sdf``: 1 m³ boxes at density 6 give 6 kg, 1 kg·m²).
* **Poses.** ``degrees="true"`` and ``rotation_format="quat_xyzw"`` are supported. A
  quaternion that is not unit length is accepted but *not* normalised by libsdformat: a link
  posed directly with it comes out right (Drake normalises when converting), but poses
  resolved through an inverse in libsdformat's pose graph (e.g. a joint's frame in its child
  link, which is how a jointed child is placed) use gz-math's ``Quaternion * Vector3``, which
  assumes unit length, and come out wrong. Only compare unit quaternions.
* **Frame names.** Drake adds an SDF ``<frame>`` (and a joint's ``<joint>_parent`` and
  ``<joint>_child`` frames) to the model instance of the *link it is attached to*, so a
  ``<frame name="f" attached_to="n::link">`` declared in ``top`` clashes with a frame ``f``
  of ``top::n`` ("already contains a frame named"), although the SDF is valid.
* **Invalid inertia.** An inertia failing Drake's ``CouldBePhysicallyValid()`` (e.g. violating
  the triangle inequality) is replaced by a solid sphere of water of the same mass, with the
  warning ``A link named <name> has invalid inertia.`` (unscoped name) on the ``drake`` logger.
  We capture that warning and leave every body of that unscoped name out of the result
  (:attr:`DrakeLoad.excluded`): Drake's value there is not the file's.
* **Rejections** (``RuntimeError``; libsdformat's warnings are errors in Drake): elements or
  attributes not in the spec (``XML Element[provide_feedback], child of element[joint], not
  defined in SDF``, ``<static>`` under ``<sdf>``, ``<alwaysOn>`` in a sensor,
  ``<inertial><pose relative_to=...>``), ``<plugin>`` inside a ``<link>``, a material
  ``<script>`` without ``<uri>`` in a ``<visual>``, names shared by two children of a model
  (``Non-unique name``), unreachable include URIs (``https://fuel...``, ``package://`` without
  a mapping), files with any extension other than ``.sdf``/``.urdf``/``.xml`` (``.world`` is
  "not a recognized type"), malformed XML, kinematic loops, several ``<model>`` directly
  under ``<sdf>`` ("Root object can only contain one model"), a 1-dof joint without
  ``<axis>`` ("An axis must be specified"). ``<plugin>`` directly in a
  ``<model>`` or ``<world>`` is ignored with a warning, ``<fluid_added_mass>`` silently.
* **Includes.** ``model://name/model.sdf`` resolves through ``parser.package_map()``; a bare
  ``model://name`` (a directory) does *not* resolve ("Unable to find uri"), but an absolute
  directory path (or ``file://`` URI) with a ``model.config`` does. Relative include URIs are
  resolved against the working directory. :func:`drake_compatible_copy` therefore rewrites every
  include it can resolve into an absolute path to a stripped copy of the included model.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

Links = dict[str, tuple[np.ndarray, np.ndarray]]

_INVALID_INERTIA = re.compile(r"A link named (?P<name>.+?) has invalid inertia")


@dataclass
class DrakeLoad:
    """What Drake made of one file: ``links`` (``None`` on error), or ``error``.

    ``excluded`` maps scoped body names left out of ``links`` to the reason; ``warnings``
    holds every warning Drake logged while parsing.
    """

    links: Links | None
    error: str | None = None
    excluded: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.links is not None


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def _captured_drake_warnings() -> Iterator[list[str]]:
    """Collect the ``drake`` logger's warnings (C++ spdlog is routed there by pydrake)."""
    logger = logging.getLogger("drake")
    handler = _Collect()
    old_level, old_propagate = logger.level, logger.propagate
    if logger.getEffectiveLevel() > logging.WARNING:
        logger.setLevel(logging.WARNING)  # also lowers spdlog's threshold (pydrake syncs it)
    logger.propagate = False  # keep test output quiet; the warnings are returned instead
    logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = old_propagate
        if logger.level != old_level:
            logger.setLevel(old_level)


def load_in_drake(path: Path | str, packages: dict[str, Path] | None = None) -> DrakeLoad:
    """Load ``path`` with pydrake; never raises for what Drake rejects (see :class:`DrakeLoad`)."""
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant
    from pydrake.multibody.tree import BodyIndex

    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    for name, directory in (packages or {}).items():
        parser.package_map().Add(name, str(directory))
    with _captured_drake_warnings() as warnings:
        try:
            parser.AddModels(str(path))
            plant.Finalize()
        except Exception as exc:  # Drake raises RuntimeError for what it rejects
            return DrakeLoad(None, str(exc).strip(), warnings=list(warnings))
    invalid = {m.group("name") for w in warnings if (m := _INVALID_INERTIA.search(w))}
    context = plant.CreateDefaultContext()
    links: Links = {}
    excluded: dict[str, str] = {}
    for i in range(plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        if body.index() == plant.world_body().index():
            continue
        name = f"{plant.GetModelInstanceName(body.model_instance())}::{body.name()}"
        if body.name() in invalid:
            # Drake replaced this link's inertia (invalid per CouldBePhysicallyValid) by a
            # sphere of water of the same mass: not the file's value, so not comparable.
            excluded[name] = "invalid inertia replaced by Drake"
            continue
        X_WB = plant.EvalBodyPoseInWorld(context, body).GetAsMatrix4()
        M_BBo_B = body.default_spatial_inertia().CopyToFullMatrix6()
        links[name] = (np.array(X_WB), np.array(M_BBo_B))
    return DrakeLoad(links, None, excluded, list(warnings))


def drake_links(path: Path | str, packages: dict[str, Path] | None = None) -> Links:
    """``{scoped body name: (X_WB 4x4, M_BBo_B 6x6 angular-first)}``; raises ``RuntimeError``.

    Bodies whose inertia Drake replaced because it was invalid are left out.
    """
    result = load_in_drake(path, packages)
    if result.links is None:
        raise RuntimeError(result.error)
    return result.links


def drake_links_or_error(path: Path | str, packages: dict[str, Path] | None = None) -> Links | str:
    """The links of :func:`drake_links`, or Drake's error message as a string."""
    result = load_in_drake(path, packages)
    return result.links if result.links is not None else str(result.error)


def packages_for(model_paths: Sequence[Path | str]) -> dict[str, Path]:
    """A Drake package map for ``model://name/...``: every subfolder of every model path."""
    packages: dict[str, Path] = {}
    for mp in model_paths:
        mp = Path(mp)
        if not mp.is_dir():
            continue
        for child in sorted(mp.iterdir()):
            if child.is_dir():
                packages.setdefault(child.name, child.resolve())
    return packages


# --------------------------------------------------------------------------------------------
# Stripped copies


# Elements removed wherever they appear: they carry nothing Drake (or our comparison) needs and
# Drake rejects some of their contents (``<plugin>`` in a link, ``<sensor>`` children that are
# not in the spec, material ``<script>`` without ``<uri>`` in ``<visual>``).
STRIP_ELEMENTS = frozenset(
    {"plugin", "sensor", "visual", "audio_source", "audio_sink", "projector", "battery"}
)
# (parent tag, child tag) pairs seen in real files that are not in the spec.
STRIP_CHILDREN = frozenset({("sdf", "static"), ("joint", "provide_feedback")})

_NOT_DEFINED_ELEMENT = re.compile(
    r"(?P<file>/\S+?):(?P<line>\d+): error: .*?XML Element\[(?P<tag>[^\]]+)\], "
    r"child of element\[(?P<parent>[^\]]+)\], not defined in SDF"
)
_NOT_DEFINED_ATTR = re.compile(
    r"(?P<file>/\S+?):(?P<line>\d+): error: .*?XML Attribute\[(?P<attr>[^\]]+)\] "
    r"in element\[(?P<tag>[^\]]+)\] not defined in SDF"
)
_PREFIX_USE = re.compile(
    r"</?([A-Za-z_][\w.-]*):[A-Za-z_]|\s([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*\s*="
)


def _root_start(text: str) -> int:
    """Offset of the root element's ``<`` (skipping declaration, comments, doctype)."""
    i = 0
    while True:
        j = text.index("<", i)
        if text.startswith("<?", j):
            i = text.index("?>", j) + 2
        elif text.startswith("<!--", j):
            i = text.index("-->", j) + 3
        elif text.startswith("<!", j):
            i = text.index(">", j) + 1
        else:
            return j


def _parse(text: str) -> tuple[str, etree._Element]:
    """Parse SDF text the way libsdformat tolerates it (undeclared namespace prefixes).

    Returns the text before the root element (declaration, comments) and the root.
    """
    start = _root_start(text)
    prolog, body = text[:start], text[start:]
    prefixes = {p for m in _PREFIX_USE.finditer(body) for p in m.groups() if p}
    prefixes -= {"xmlns", "xml"}
    declared = set(re.findall(r"xmlns:([\w.-]+)\s*=", body))
    missing = sorted(prefixes - declared)
    if missing:  # declare them on the root start tag, on the same line
        m = re.match(r"<[\w.:-]+", body)
        assert m is not None
        decl = "".join(f' xmlns:{p}="urn:undeclared:{p}"' for p in missing)
        body = body[: m.end()] + decl + body[m.end() :]
    prolog = re.sub(r"encoding=(['\"])[^'\"]*\1", 'encoding="UTF-8"', prolog)
    parser = etree.XMLParser(remove_blank_text=False, resolve_entities=False, huge_tree=True)
    # Parse with the prolog so that ``sourceline`` counts lines of the whole file.
    root = etree.fromstring((prolog + body).encode("utf-8"), parser)
    return prolog, root


def _remove(el: etree._Element) -> None:
    """Replace ``el`` by a comment spanning as many lines (keeps later line numbers)."""
    parent = el.getparent()
    if parent is None:
        return
    n = etree.tostring(el, with_tail=False, encoding="unicode").count("\n")
    tag = etree.QName(el).localname if isinstance(el.tag, str) else "node"
    comment = etree.Comment(f" drake_compatible_copy: stripped <{tag}>" + "\n" * n + " ")
    comment.tail = el.tail
    parent.replace(el, comment)


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _strip(root: etree._Element) -> None:
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        parent = el.getparent()
        if el is not root and etree.QName(el).namespace is not None:
            _remove(el)  # custom (namespaced) element: libsdformat keeps it, nothing uses it
            continue
        name = _local(el)
        if parent is not None and (
            name in STRIP_ELEMENTS or (_local(parent), name) in STRIP_CHILDREN
        ):
            _remove(el)
            continue
        for attr in list(el.attrib):
            if etree.QName(attr).namespace is not None:
                del el.attrib[attr]  # custom attribute such as gz:type
        if name == "pose" and parent is not None and _local(parent) == "inertial":
            # Left the spec in 1.8; libsdformat warns and ignores it, Drake errors.
            el.attrib.pop("relative_to", None)
    etree.cleanup_namespaces(root)


class _Copier:
    def __init__(self, dst_dir: Path, model_paths: Sequence[Path]) -> None:
        self.dst_dir = dst_dir
        self.model_paths = [Path(p) for p in model_paths]
        self.copied: dict[Path, Path] = {}  # source model dir -> its copy
        self.files: list[Path] = []  # every SDF file written

    def resolve(self, uri: str, including: Path) -> Path | None:
        """Where libsdformat (with these model paths) finds an include URI, or ``None``."""
        if uri.startswith("file://"):
            cand = Path(uri[len("file://") :])
            return cand if cand.exists() else None
        if "://" in uri and not uri.startswith("model://"):
            return None  # package://, https://fuel...: left for Drake to report
        rel = uri[len("model://") :] if uri.startswith("model://") else uri
        if Path(rel).is_absolute():
            return Path(rel) if Path(rel).exists() else None
        for base in [*self.model_paths, including.parent]:
            cand = base / rel
            if cand.exists():
                return cand.resolve()
        return None

    def copy_model(self, target: Path) -> Path:
        """Copy an included model (directory or file) once, stripped; the copy's path."""
        model_dir = target if target.is_dir() else target.parent
        if model_dir not in self.copied:
            dst = self.dst_dir / "_models" / f"{model_dir.name}_{len(self.copied)}"
            self.copied[model_dir] = dst
            dst.mkdir(parents=True)
            for src in sorted(model_dir.rglob("*")):
                out = dst / src.relative_to(model_dir)
                if src.is_dir():
                    out.mkdir(parents=True, exist_ok=True)
                elif src.suffix in (".sdf", ".world"):
                    out.parent.mkdir(parents=True, exist_ok=True)
                    try:
                        self.copy_file(src, out)
                    except (etree.XMLSyntaxError, ValueError):
                        shutil.copyfile(src, out)
                else:
                    out.parent.mkdir(parents=True, exist_ok=True)
                    os.symlink(src.resolve(), out)
        copy_dir = self.copied[model_dir]
        return copy_dir if target.is_dir() else copy_dir / target.name

    def copy_file(self, src: Path, dst: Path) -> None:
        prolog, root = _parse(src.read_text(encoding="utf-8", errors="replace"))
        _strip(root)
        for inc in root.iter("include"):
            uri_el = inc.find("uri")
            if uri_el is None or not (uri_el.text or "").strip():
                continue
            target = self.resolve(uri_el.text.strip(), src)
            if target is not None:
                uri_el.text = str(self.copy_model(target))
        _write(dst, prolog, root)
        self.files.append(dst)


def _write(dst: Path, prolog: str, root: etree._Element) -> None:
    dst.write_text(prolog + etree.tostring(root, encoding="unicode") + "\n", encoding="utf-8")


def _fix_from_error(error: str, files: Sequence[Path]) -> bool:
    """Strip what a "not defined in SDF" error names from our copies; whether anything changed.

    libsdformat (as Gazebo runs it) warns about and ignores such elements and attributes;
    Drake's parser turns the warning into an error.
    """
    by_path = {os.path.normpath(str(f.resolve())): f for f in files}
    for pattern in (_NOT_DEFINED_ELEMENT, _NOT_DEFINED_ATTR):
        m = pattern.search(error)
        if m is None:
            continue
        f = by_path.get(os.path.normpath("/" + m.group("file").lstrip("/")))
        if f is None:
            return False
        line = int(m.group("line"))
        prolog, root = _parse(f.read_text(encoding="utf-8"))
        changed = False
        for el in list(root.iter()):
            if not isinstance(el.tag, str) or el.sourceline != line:
                continue
            if pattern is _NOT_DEFINED_ELEMENT and _local(el) == m.group("tag"):
                parent = el.getparent()
                if parent is not None and _local(parent) == m.group("parent"):
                    _remove(el)
                    changed = True
            elif (pattern is _NOT_DEFINED_ATTR and _local(el) == m.group("tag")
                  and m.group("attr") in el.attrib):
                del el.attrib[m.group("attr")]
                changed = True
        if changed:
            _write(f, prolog, root)
        return changed
    return False


def drake_compatible_copy(
    src: Path | str,
    dst_dir: Path | str,
    model_paths: Sequence[Path | str] = (),
    *,
    adapt: bool = True,
    max_rounds: int = 50,
) -> Path:
    """Write a copy of ``src`` (as ``.sdf``) into ``dst_dir`` with what Drake rejects stripped.

    Stripped everywhere: :data:`STRIP_ELEMENTS` (``<plugin>``, ``<sensor>``, ``<visual>``, ...),
    :data:`STRIP_CHILDREN`, namespaced custom elements and attributes (``gz:type``), and the
    ``relative_to`` attribute of ``<inertial><pose>``. None of these changes a link's pose or
    inertia as libsdformat loads the file. Removed elements become comments of the same
    number of lines, so line numbers in Drake's messages still match the original.

    Includes are resolved like ``model://`` (``model_paths``, then the including file's
    folder); each included model folder is copied once (SDF files stripped, other files
    symlinked) and the ``<uri>`` rewritten to the copy's absolute path. Unresolvable URIs
    (``https://``, ``package://``) are left for Drake to report.

    With ``adapt``, the copy is then loaded in Drake, and each "XML Element/Attribute ... not
    defined in SDF" error is fixed by removing the element/attribute it names (at the file and
    line it names), until Drake loads the copy or fails for another reason.
    Raises ``lxml.etree.XMLSyntaxError`` for malformed XML.
    """
    src, dst_dir = Path(src), Path(dst_dir)
    dst_dir.mkdir(parents=True, exist_ok=True)
    copier = _Copier(dst_dir, [Path(p) for p in model_paths])
    dst = dst_dir / (src.name.split(".")[0] + ".sdf")
    copier.copy_file(src, dst)
    if adapt:
        for _ in range(max_rounds):
            result = load_in_drake(dst)
            if result.ok or not _fix_from_error(str(result.error), copier.files):
                break
    return dst


def drake_links_stripped(
    src: Path | str, work_dir: Path | str, model_paths: Sequence[Path | str] = ()
) -> DrakeLoad:
    """:func:`drake_compatible_copy` then :func:`load_in_drake`; errors (XML too) as ``error``."""
    try:
        dst = drake_compatible_copy(src, work_dir, model_paths)
    except (etree.XMLSyntaxError, ValueError, UnicodeError) as exc:
        return DrakeLoad(None, f"copy failed: {exc}")
    return load_in_drake(dst)
