"""Where a model's files are found and how a xacro file is expanded: one record for every
command and library call that reads a model.

The command line's options ``-m/--model-path``, ``--package-path``, ``--xacro-arg``,
``--xacro-env`` and ``--trust-xacro`` (declared once: :func:`gzinertia.cli.options.
model_input_options`) make one :class:`ModelInput`; the library takes its parts as keyword
arguments (``model_paths``, ``package_paths``, ``xacro_args``, ``xacro_env``,
``trust_xacro``), declared once as :class:`ModelSource` and taken by every function that reads
a model as ``**source: Unpack[ModelSource]`` (with the target's ``gazebo`` and ``engine``:
:class:`TargetKeywords`, :class:`TargetedSource`), so that each keyword is checked by type
checkers and documented here.

Nothing here imports NumPy or the URDF package (CLI start-up).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ForwardRef, ParamSpec, TypedDict, TypeVar

from gzinertia.record_base import ValueRecord

if TYPE_CHECKING:
    from gzinertia.urdf.xacro_policy import XacroPolicy

__all__ = [
    "KEYWORD_DEFAULTS", "ModelInput", "ModelSource", "TargetKeywords", "TargetedSource",
    "takes_keywords",
]

P = ParamSpec("P")
R = TypeVar("R")


class ModelSource(TypedDict, total=False):
    """The keywords of every library function that reads a model file (each optional).

    ``model_paths``: folders searched first for ``model://`` URIs (then
    ``GZ_SIM_RESOURCE_PATH``, ``SDF_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``), and for ROS packages
    after ``package_paths``. ``package_paths``: folders searched for ``package://`` and
    ``$(find pkg)`` in URDF and xacro files (then ``ROS_PACKAGE_PATH``, ``AMENT_PREFIX_PATH``).
    ``xacro_args``: xacro's ``name:=value`` arguments as ``{"name": "value"}`` (a xacro file
    only). ``xacro_env``: the environment variables ``$(env)``/``$(optenv)`` may read (no other
    is). ``trust_xacro``: evaluate xacro expressions with Python, which runs the model's code
    (by default they are evaluated without Python: docs/security.md).
    """

    model_paths: Sequence[str | Path]
    package_paths: Sequence[str | Path]
    xacro_args: Mapping[str, str] | None
    xacro_env: Sequence[str]
    trust_xacro: bool


class TargetKeywords(TypedDict, total=False):
    """The target a file is read and written for: ``gazebo`` (a release, ``"harmonic"``...)
    and ``engine`` (``"dartsim"``...), as ``audit --gazebo/--engine`` names them, over the
    nearest settings file's (default: the newest stable release with dartsim,
    docs/releases.md)."""

    gazebo: str | None
    engine: str | None


class TargetedSource(ModelSource, TargetKeywords, total=False):
    """:class:`ModelSource`'s keywords and :class:`TargetKeywords`'."""


#: What each keyword of :class:`TargetedSource` means when not given (what ``help()`` shows).
KEYWORD_DEFAULTS: dict[str, object] = {
    "model_paths": (), "package_paths": (), "xacro_args": None, "xacro_env": (),
    "trust_xacro": False, "gazebo": None, "engine": None,
}


@dataclass(frozen=True, repr=False, eq=False)
class ModelInput(ValueRecord):
    """How to read a model file and what it names.

    ``model_paths`` are searched for ``model://`` URIs (before ``GZ_SIM_RESOURCE_PATH``,
    ``SDF_PATH`` and ``IGN_GAZEBO_RESOURCE_PATH``); ``package_paths`` for ROS packages
    (``$(find pkg)``, ``package://``) in URDF and xacro files (before ``ROS_PACKAGE_PATH`` and
    ``AMENT_PREFIX_PATH``; the model paths are searched for packages too). ``xacro_args``:
    xacro's ``name:=value`` arguments, in the order given; ``xacro_env``: the environment
    variables ``$(env)``/``$(optenv)`` may read; ``trust_xacro``: evaluate expressions with
    Python (docs/security.md).
    """

    model_paths: tuple[Path, ...] = ()
    package_paths: tuple[Path, ...] = ()
    xacro_args: tuple[tuple[str, str], ...] = field(default=())
    xacro_env: frozenset[str] = frozenset()
    trust_xacro: bool = False

    @classmethod
    def of(
        cls,
        model_paths: Sequence[str | Path] = (),
        package_paths: Sequence[str | Path] = (),
        xacro_args: Mapping[str, str] | None = None,
        xacro_env: Sequence[str] = (),
        trust_xacro: bool = False,
    ) -> ModelInput:
        """The record of these values (sequences and mappings as given, ``None`` as none)."""
        return cls(tuple(Path(p) for p in model_paths), tuple(Path(p) for p in package_paths),
                   tuple((xacro_args or {}).items()), frozenset(xacro_env), trust_xacro)

    @classmethod
    def given(cls, source: ModelSource) -> ModelInput:
        """The record of a library call's :class:`ModelSource` keywords (others, such as
        :class:`TargetedSource`'s target, are not its)."""
        return cls.of(source.get("model_paths", ()), source.get("package_paths", ()),
                      source.get("xacro_args"), source.get("xacro_env", ()),
                      source.get("trust_xacro", False))

    def keywords(self) -> ModelSource:
        """The record as the library's keywords (:class:`ModelSource`), to pass on as
        ``**input.keywords()``; ``xacro_args`` is ``None`` when none was given."""
        return ModelSource(model_paths=self.model_paths, package_paths=self.package_paths,
                           xacro_args=self.xacro_mapping, xacro_env=sorted(self.xacro_env),
                           trust_xacro=self.trust_xacro)

    @property
    def search_paths(self) -> list[Path]:
        """The folders a reader searches first, model paths then package paths (a URDF or
        xacro reader takes them all as package paths, an SDFormat reader as model paths)."""
        return [*self.model_paths, *self.package_paths]

    @property
    def xacro_mapping(self) -> dict[str, str] | None:
        """``xacro_args`` as a mapping; ``None`` when none was given."""
        return dict(self.xacro_args) if self.xacro_args else None

    @property
    def xacro_policy(self) -> XacroPolicy | None:
        """What a xacro expansion may do (``None``: the defaults, without importing the URDF
        package)."""
        if not self.xacro_env and not self.trust_xacro:
            return None
        # not at the top: the URDF package (yaml, lxml) stays out of the CLI's start-up and of
        # an SDF audit; XacroPolicy is reached only when a xacro setting is given
        from gzinertia.urdf.xacro_policy import XacroPolicy  # noqa: PLC0415 (see above)

        return XacroPolicy(env=self.xacro_env, trust=self.trust_xacro)


def takes_keywords(kind: type, defaults: Mapping[str, object] = KEYWORD_DEFAULTS,
                   ) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Makes a function whose ``**keywords`` are ``Unpack[kind]`` (a ``TypedDict``) show and
    check them as its own: ``help()`` and :func:`inspect.signature` list each of ``kind``'s
    keywords, with its type and its default in ``defaults``, in place of ``**keywords``; a
    keyword that is neither the function's own parameter nor one of ``kind``'s raises
    :class:`TypeError`, as Python refuses any unknown keyword (a misspelt ``model_path=`` is
    not ignored: type checkers catch it before, this is for callers without one)."""
    hints = kind.__annotations__
    keys = frozenset(hints)

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(function)
        own = frozenset(signature.parameters)
        kept = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
        listed = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY,
                                    default=defaults[name], annotation=_hint_text(hint))
                  for name, hint in hints.items()]

        @functools.wraps(function)
        def checked(*args: P.args, **keywords: P.kwargs) -> R:
            unknown = sorted(set(keywords) - own - keys)
            if unknown:
                raise TypeError(f"{function.__name__}() got an unexpected keyword argument "
                                f"{unknown[0]!r}")
            return function(*args, **keywords)

        checked.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*kept, *listed])
        return checked

    return decorate


def _hint_text(hint: Any) -> Any:
    """A type hint as its source text where it is still a forward reference (a ``TypedDict``
    declared under ``from __future__ import annotations``)."""
    return hint.__forward_arg__ if isinstance(hint, ForwardRef) else hint
