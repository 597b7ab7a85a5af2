"""Griffe extension for the documentation site: Sphinx roles in docstrings become cross-references.

gzinertia's docstrings cross-reference with Sphinx roles (``:func:`~gzinertia.spatial.algebra.
change_point```, ``:class:`SdfDocument```). mkdocstrings renders Markdown and links with
autorefs (``[text][identifier]``), so this extension rewrites every role whose target is in
gzinertia into an autorefs link, resolving names relative to the docstring's scope as Sphinx does.
A target that no longer exists stays a link to a missing identifier, which ``mkdocs build
--strict`` reports as an error: a renamed or removed function cannot leave a stale reference.
Roles naming other libraries (NumPy, SciPy, ...) or private helpers are rendered as code: the site
fetches nothing and documents only public names.
"""

from __future__ import annotations

import builtins
import importlib.util
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|exc|obj|const):`(~?)([^`<>]+?)`")


def _full_path(obj: griffe.Object, target: str) -> str | None:
    """The full dotted path of ``target`` as seen from ``obj``'s docstring, or None if it is not
    gzinertia's."""
    if target.startswith("gzinertia"):
        return target
    scope: griffe.Object | None = obj if obj.is_module or obj.is_class else obj.parent
    head, _, rest = target.partition(".")
    while scope is not None:
        try:
            resolved = scope.resolve(head)
        except Exception:  # griffe raises NameResolutionError (and others for odd aliases)
            resolved = None
        if resolved is not None:
            full = f"{resolved}.{rest}" if rest else resolved
            return full if full.startswith("gzinertia") else None
        if head in scope.members:
            full = f"{scope.path}.{target}"
            return full
        scope = scope.parent
    if hasattr(builtins, head) or importlib.util.find_spec(head) is not None:
        return None  # a builtin or another library's name (OSError, json.loads, ...)
    # Unresolvable: keep it as a link to the name as written, so that the strict build fails.
    return f"gzinertia.<unresolved>.{target}"


def _rewrite(obj: griffe.Object) -> None:
    docstring = obj.docstring
    if docstring is None or ":" not in docstring.value:
        return

    def link(match: re.Match[str]) -> str:
        short, target = match.group(1), match.group(2).strip()
        text = target.rsplit(".", 1)[-1] if short else target
        full = _full_path(obj, target)
        if full is None or any(part.startswith("_") for part in full.split(".")):
            return f"``{text}``"  # another library's name, or a private helper: not on the site
        return f"[`{text}`][{full}]"

    docstring.value = _ROLE.sub(link, docstring.value)


def _walk(obj: griffe.Object | griffe.Alias, seen: set[str]) -> None:
    if obj.is_alias or obj.path in seen:
        return
    seen.add(obj.path)
    assert isinstance(obj, griffe.Object)
    _rewrite(obj)
    for member in obj.members.values():
        _walk(member, seen)


class SphinxRoles(griffe.Extension):
    """Rewrites Sphinx cross-reference roles into autorefs links once the package is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _walk(pkg, set())
