"""Errors that reach the user as one line naming the file and line."""

from __future__ import annotations

from string import Formatter
from typing import TYPE_CHECKING

from gzinertia.options import Interface, spell, spelling

if TYPE_CHECKING:
    from gzinertia.dependency import Dependency

__all__ = ["Float64OverflowError", "GzInertiaError", "MacrosOnlyError", "SdfError", "SettingError"]


class GzInertiaError(Exception):
    """Base class of every error the CLI reports without a traceback (exit status 2)."""


class SettingError(GzInertiaError, ValueError):
    """A value of one setting (a keyword argument, a command-line option) that the library
    refuses, before any file is read or written.

    ``key``: the setting (a key of :data:`gzinertia.options.OPTIONS`). ``template``: the
    message, a :meth:`str.format` template whose fields are either keys of ``values`` (the
    values shown, e.g. the refused one) or keys of :data:`~gzinertia.options.OPTIONS` (the
    settings named, each spelled by the interface that prints the error). ``str()`` spells it
    as the running interface does (:func:`gzinertia.options.spelling`: the library's keyword
    arguments unless within the command line), as every other refusal's text is spelled;
    :meth:`render` spells it for a named interface. A ``ValueError`` too, as Python's own
    refusals of a value are."""

    def __init__(self, key: str, template: str, **values: object) -> None:
        self.key = key
        self.template = template
        self.values = values
        super().__init__(self.render("library"))

    def __reduce__(self) -> tuple[object, ...]:  # pickled across the audit's worker processes
        return (_setting_error, (self.key, self.template, self.values))

    def render(self, interface: Interface) -> str:
        """The message with each setting spelled as ``interface`` spells it."""
        fields = {name for _, name, _, _ in Formatter().parse(self.template) if name}
        named = {name: spell(name, interface) for name in fields if name not in self.values}
        return self.template.format(**named, **self.values)

    def __str__(self) -> str:
        return self.render(spelling())


def _setting_error(key: str, template: str, values: dict[str, object]) -> SettingError:
    return SettingError(key, template, **values)


class SdfError(GzInertiaError):
    """A file that cannot be read as SDFormat: ``file:line: message``."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


class Float64OverflowError(ValueError, OverflowError):
    """A computation whose result does not fit in float64 (inf or NaN where a number belongs).

    Raised by the numeric core, which knows no file: commands turn it into a
    :class:`GzInertiaError` naming the file, line and link, before anything is written. It is a
    ``ValueError`` too, as the numeric functions' other refusals are."""


class MacrosOnlyError(SdfError):
    """A xacro file that expands to no ``<link>``: a library of macros, not a robot (the audit
    lists it as skipped, not as an error). ``dependencies``: what its expansion read
    (:class:`~gzinertia.dependency.Dependency` records), for the audit's cache."""

    def __init__(self, file: str, line: int | None, message: str,
                 dependencies: tuple[Dependency, ...] = ()) -> None:
        super().__init__(file, line, message)
        self.dependencies = dependencies
