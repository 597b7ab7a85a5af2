"""Where each element of a xacro expansion was written: file and line, through macros.

Before xacro processes a file, every element it parses (the file, each ``xacro:include``)
gets a private attribute :data:`SOURCE_ATTRIBUTE` ``="F:L"`` (``F`` indexes the files read,
``L`` the line of the element's start tag in it), xacro's own directives (``xacro:*``)
excepted, since xacro validates their attributes. xacro copies attributes through macros
(``cloneNode``), so a ``<link>`` made by a macro carries the file and line where it is written
inside the macro. A macro call records its own place too: the elements it makes get
:data:`CALL_ATTRIBUTE` (the outermost call written literally in a file; calls written inside
other macros are clones xacro makes as it goes).

:func:`strip` takes the attributes out of the printed text: what remains is, byte for byte,
what the ``xacro`` command prints (xacro's writer prints each attribute as `` name="value"``,
sorted by name; the annotations' names hold a random part no model uses).
:func:`line_sources` maps each line of that text to the place its element came from.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import Any
from xml.dom import expatbuilder

__all__ = ["CALL_ATTRIBUTE", "SOURCE_ATTRIBUTE", "Annotator", "line_sources", "strip"]

SOURCE_ATTRIBUTE = "gzinertia-source-7f3c"
CALL_ATTRIBUTE = "gzinertia-call-7f3c"
_ATTRIBUTE_RE = re.compile(r' gzinertia-(?:source|call)-7f3c="[0-9]+:[0-9]+"')
_SOURCE_RE = re.compile(r' gzinertia-source-7f3c="([0-9]+):([0-9]+)"')
_CALL_RE = re.compile(r' gzinertia-call-7f3c="([0-9]+):([0-9]+)"')

#: A place in a file: (file, 1-based line).
Place = tuple[str, int]


def strip(text: str) -> str:
    """``text`` without the annotations (the ``xacro`` command's bytes)."""
    return _ATTRIBUTE_RE.sub("", text)


def line_sources(text: str, files: list[str]) -> dict[int, tuple[Place, Place | None]]:
    """For each line of the annotated ``text`` that starts an element: where the element is
    written and, for an element a macro made, where that macro was called (else ``None``).
    Lines count from 1 and are the same in the stripped text."""
    out: dict[int, tuple[Place, Place | None]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _SOURCE_RE.search(line)
        if match is None:
            continue
        f, n = match.groups()
        called = _CALL_RE.search(line)
        call = (files[int(called[1])], int(called[2])) if called is not None else None
        out[number] = ((files[int(f)], int(n)), call)
    return out


class Annotator:
    """Installs the annotating parser and macro-call hooks into the ``xacro`` module (in the
    process that expands: a child process, see :mod:`gzinertia.urdf.xacro_sandbox`)."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self._index: dict[str, int] = {}
        self._calls: dict[int, tuple[Any, str]] = {}  # the node too: ids stay unique
        self._active: list[Any] = []

    def _file_index(self, name: str) -> int:
        if name not in self._index:
            self._index[name] = len(self.files)
            self.files.append(name)
        return self._index[name]

    def install(self, xacro: Any) -> None:
        """Replaces ``xacro.parse``, ``xacro.handle_macro_call`` and ``xacro.replace_node`` by
        annotating versions (the process is expected to be thrown away afterwards)."""
        annotator = self
        original_call: Callable[..., Any] = xacro.handle_macro_call
        original_replace: Callable[..., Any] = xacro.replace_node

        class Builder(expatbuilder.ExpatBuilderNS):  # type: ignore[misc]
            file_index = 0

            def start_element_handler(self, name: str, attributes: Any) -> None:
                parser: Any = getattr(self, "_parser")  # noqa: B009 - expatbuilder's own
                where = f"{self.file_index}:{parser.CurrentLineNumber}"
                # Given to expat's builder with the element's own attributes (``attributes``
                # is expat's ordered list): a quarter of the cost of setAttribute afterwards.
                attributes += [SOURCE_ATTRIBUTE, where]
                super().start_element_handler(name, attributes)
                node: Any = self.curNode
                if node.tagName.startswith("xacro:") and node.tagName != "xacro:element":
                    node.removeAttribute(SOURCE_ATTRIBUTE)
                    annotator._calls[id(node)] = (node, where)

        def parse(inp: Any, filename: str | None = None) -> Any:
            if inp is None:
                if filename is None:
                    raise TypeError("parse needs a file name or input")
                try:
                    with xacro.open(os.path.join(xacro.root_dir, filename)) as f:
                        inp = f.read()
                except OSError as e:
                    xacro.filestack.pop()
                    raise xacro.XacroException(
                        f"{e.strerror}: {e.filename or filename}", exc=e
                    ) from None
            if hasattr(inp, "read"):
                inp = inp.read()
            if not isinstance(inp, (str, bytes)):
                return inp  # already a DOM tree
            builder = Builder()
            where = filename or (xacro.filestack[-1] if xacro.filestack else None) or "string"
            builder.file_index = annotator._file_index(str(where))
            return builder.parseString(inp)

        def handle_macro_call(node: Any, macros: Any, symbols: Any) -> Any:
            annotator._active.append(node)
            try:
                return original_call(node, macros, symbols)
            finally:
                annotator._active.pop()

        def replace_node(node: Any, by: Any, content_only: bool = False) -> Any:
            if by is not None and annotator._active and node is annotator._active[-1]:
                known = annotator._calls.get(id(node))
                if known is not None and known[0] is node:
                    call = known[1]
                    for element in (e for b in (by if isinstance(by, list) else [by])
                                    for e in _elements(b)):
                        if (element.hasAttribute(SOURCE_ATTRIBUTE)
                                and not element.hasAttribute(CALL_ATTRIBUTE)):
                            element.setAttribute(CALL_ATTRIBUTE, call)
            return original_replace(node, by=by, content_only=content_only)

        xacro.parse = parse
        xacro.handle_macro_call = handle_macro_call
        xacro.replace_node = replace_node


def _elements(node: Any) -> Iterator[Any]:
    """``node``'s descendant elements (not ``node``), depth first, without recursion."""
    stack = list(reversed(node.childNodes))
    while stack:
        child = stack.pop()
        if child.nodeType == child.ELEMENT_NODE:
            yield child
            stack.extend(reversed(child.childNodes))
