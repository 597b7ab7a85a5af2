"""The pose graph of an SDFormat file: every named frame, the frame its pose is relative to,
and the resolution of any frame's pose in the world.

Frames are keyed by absolute scoped names: a world's own frames by their name (the world itself
is ``world``), a model ``m`` by ``m``, its link ``l`` by ``m::l``, a nested model's link by
``m::n::l``. Within a model scope, ``__model__`` names the model frame (or, for the content of a
merged include, the ``_merged__<name>__model__`` frame that stands for it).

Defaults follow SDFormat 1.7+ (and match 1.4–1.6 for everything those versions could say):
links, frames without ``attached_to``, and nested models are relative to the model frame;
frames to their ``attached_to``; joints to their child; models in a world to the world.
A model with a placement frame F has a pose that places F, so
``X_PM = X_PF · X_MF⁻¹`` with ``X_MF`` resolved inside the model.
"""

from __future__ import annotations

from typing import NamedTuple

from gzinertia.errors import SdfError
from gzinertia.spatial.rotation import IDENTITY_POSE, Pose

__all__ = [
    "MODEL_FRAME",
    "WORLD",
    "WORLD_SCOPE",
    "FrameGraph",
    "FrameNode",
    "Scope",
]

WORLD = "world"
MODEL_FRAME = "__model__"


class Scope(NamedTuple):
    """Where names are looked up: ``prefix`` (''=world) and the frame ``__model__`` stands for;
    an immutable named tuple, as :class:`FrameNode`."""

    prefix: str
    model_frame: str

    def absolute(self, name: str) -> str:
        """``name`` scoped in this scope (``prefix::name``)."""
        return name if not self.prefix else f"{self.prefix}::{name}"


WORLD_SCOPE = Scope("", WORLD)


class FrameNode(NamedTuple):
    """One frame: its pose as written, relative to ``ref`` in ``scope`` ('': ``default_ref``);
    an immutable named tuple (one is built per frame: half a frozen dataclass's cost)."""

    name: str
    kind: str
    X: Pose
    scope: Scope
    ref: str
    default_ref: str
    file: str
    line: int
    placement: str = ""


class FrameGraph:
    """Collects frames while a file is read, then resolves poses with cycle detection."""

    def __init__(self) -> None:
        self._nodes: dict[str, FrameNode] = {}
        self._world_poses: dict[str, Pose] = {WORLD: IDENTITY_POSE}
        #: Scope prefixes holding an ``<include>`` that did not resolve, with words naming it:
        #: a name not found there may be one of its frames (see :meth:`resolve_name`).
        self.incomplete: dict[str, str] = {}
        #: ``(file, line, message)`` of each reference that could not be checked.
        self.unchecked: dict[tuple[str, int, str], str] = {}

    def __contains__(self, name: str) -> bool:
        return name == WORLD or name in self._nodes

    def add(self, node: FrameNode) -> None:
        """Adds a frame; an :class:`SdfError` if its name is already used in this graph."""
        if node.name in self._nodes or node.name == WORLD:
            other = self._nodes.get(node.name)
            where = f" (first defined at {other.file}:{other.line})" if other else ""
            raise SdfError(
                node.file, node.line, f"{node.kind} name {node.name!r} is already used{where}"
            )
        self._nodes[node.name] = node

    def resolve_name(self, scope: Scope, ref: str, file: str, line: int, what: str) -> str:
        """The absolute frame name ``ref`` means in ``scope`` (an SdfError when there is none)."""
        name = self.find_name(scope, ref)
        if name is None:
            ref = ref.strip().removesuffix("::" + MODEL_FRAME)
            if scope.prefix in self.incomplete:
                # Perhaps a frame of the include that did not resolve: say so, not an error,
                # and read the pose as relative to the model frame.
                self.unchecked[(file, line, ref)] = (
                    f"{what} names {ref!r}, not found: perhaps a frame inside "
                    f"{self.incomplete[scope.prefix]}, which did not resolve; not checked, and "
                    "the pose is read as relative to the model frame"
                )
                return scope.model_frame
            raise SdfError(file, line, f"{what} names {ref!r}, which is no frame in this scope")
        return name

    def find_name(self, scope: Scope, ref: str) -> str | None:
        """The absolute frame name ``ref`` means in ``scope``, or ``None`` when it names no
        frame (no error, no note: for references the caller may leave unread)."""
        ref = ref.strip()
        if ref == MODEL_FRAME or (ref == WORLD and not scope.prefix):
            return scope.model_frame
        if ref.endswith("::" + MODEL_FRAME):
            ref = ref[: -len("::" + MODEL_FRAME)]
        name = scope.absolute(ref)
        return name if name in self._nodes else None

    def _parent(self, node: FrameNode) -> str:
        ref = node.ref or node.default_ref
        what = (
            f"{node.kind} {node.name!r}: relative_to" if node.ref else f"{node.kind} {node.name!r}"
        )
        return self.resolve_name(node.scope, ref, node.file, node.line, what)

    def _pose_in_parent(self, node: FrameNode, visiting: tuple[str, ...]) -> Pose:
        """``X_PF`` of ``node`` with placement frames applied."""
        if not node.placement:
            return node.X
        placement = self._placement_node(node)
        X_MF = self.pose_in(placement, node.name, visiting)
        return node.X @ X_MF.inverse()

    def _placement_node(self, node: FrameNode) -> str:
        """The frame ``node``'s ``placement_frame`` names (an SdfError when it names none, as
        libsdformat's "unable to find unique frame"); ``nested::__model__`` is ``nested``."""
        name = node.placement
        if name.endswith("::" + MODEL_FRAME):
            name = name[: -len("::" + MODEL_FRAME)]
        if name not in self._nodes:
            short = node.placement[len(node.name) + 2 :] if node.placement.startswith(
                node.name + "::"
            ) else node.placement
            raise SdfError(
                node.file,
                node.line,
                f"{node.kind} {node.name!r}: placement_frame {short!r} is no frame in the model",
            )
        return name

    def pose_in(self, frame: str, ancestor: str, visiting: tuple[str, ...] = ()) -> Pose:
        """``X_AF``: the pose of ``frame`` in ``ancestor``, found by walking ``frame``'s chain."""
        X = IDENTITY_POSE
        current = frame
        seen: list[str] = []
        while current != ancestor:
            # A walk longer than the graph is a cycle; frames of an enclosing walk may recur.
            too_deep = len(visiting) + len(seen) > len(self._nodes)
            if current == WORLD or current in seen or too_deep:
                node = self._nodes[frame]
                raise SdfError(
                    node.file,
                    node.line,
                    f"frame {frame!r} is not inside {ancestor!r} (chain: {' -> '.join(seen)})",
                )
            seen.append(current)
            node = self._nodes[current]
            X = self._pose_in_parent(node, (*visiting, *seen)) @ X
            current = self._parent(node)
        return X

    def scope_of(self, name: str) -> Scope:
        """The scope the frame ``name`` was declared in (where names its children's
        ``relative_to`` attributes give are looked up)."""
        return self._nodes[name].scope

    def world_pose(self, name: str) -> Pose:
        """``X_WF`` of the frame ``name`` (memoised; cycles are an SdfError naming the chain)."""
        chain: list[str] = []
        current = name
        while current not in self._world_poses:
            if current in chain:
                node = self._nodes[current]
                loop = " -> ".join([*chain[chain.index(current) :], current])
                raise SdfError(node.file, node.line, f"relative_to cycle: {loop}")
            chain.append(current)
            current = self._parent(self._nodes[current])
        X = self._world_poses[current]
        for frame in reversed(chain):
            X = X @ self._pose_in_parent(self._nodes[frame], ())
            self._world_poses[frame] = X
        return X

    def parent_of(self, name: str) -> str | None:
        """The frame ``name``'s pose is relative to (``None`` for the world, an unknown name,
        or a reference that does not resolve)."""
        node = self._nodes.get(name)
        if node is None:
            return None
        try:
            return self._parent(node)
        except SdfError:
            return None
