"""Public functions that take exactly another function's arguments and return a part of its
result (the total of a wrench's terms, one field of a contact): the arguments are forwarded
unchanged, so they are declared, typed and documented once, on the function they go to."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import ParamSpec, TypeVar

Params = ParamSpec("Params")
Whole = TypeVar("Whole")
Part = TypeVar("Part")


def returning_part(
    function: Callable[Params, Whole], part: Callable[[Whole], Part], name: str, doc: str
) -> Callable[Params, Part]:
    """A function named ``name`` (docstring ``doc``) taking ``function``'s arguments (same
    names, order, defaults and types: :func:`inspect.signature` shows ``function``'s, without
    its return type) and returning ``part`` of its result."""

    def forwarded(*args: Params.args, **kwargs: Params.kwargs) -> Part:
        return part(function(*args, **kwargs))

    forwarded.__name__ = forwarded.__qualname__ = name
    forwarded.__doc__ = doc
    forwarded.__module__ = function.__module__
    forwarded.__signature__ = inspect.signature(function).replace(  # type: ignore[attr-defined]
        return_annotation=inspect.Signature.empty
    )
    return forwarded
