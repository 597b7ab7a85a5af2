"""Commands that messages suggest, written so that a user can paste them into a shell.

Every message that suggests a ``gzinertia ...`` command builds it with :func:`command_line`:
each argument is shell-quoted (``--link 'Big box::link'``), and a link name given to ``--link``
(a glob) is first glob-escaped with :func:`exact_link_pattern`, so the command selects that link
and no other.
"""

from __future__ import annotations

import re
import shlex

from gzinertia.sdf.stdin_names import STDIN_NAME

__all__ = ["command_line", "exact_link_pattern", "shell_quote"]

_GLOB = re.compile(r"([*?\[])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def shell_quote(arg: str) -> str:
    """``arg`` as one POSIX shell word: :func:`shlex.quote` (``'Big box'``); an argument with
    control characters (a newline in a file name) in bash's ``$'...'`` form instead, so the
    command stays on one line."""
    if not _CONTROL.search(arg):
        return shlex.quote(arg)
    out = []
    for ch in arg:
        if ch in "\\'":
            out.append("\\" + ch)
        elif _CONTROL.match(ch):
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def exact_link_pattern(name: str) -> str:
    """A ``--link`` glob that matches the scoped link name ``name`` exactly (``*``, ``?`` and
    ``[`` escaped as ``[*]``, ``[?]``, ``[[]``)."""
    return _GLOB.sub(r"[\1]", name)


def command_line(*args: str) -> str:
    """``gzinertia ARG...`` with every argument shell-quoted; standard input's name
    (``<stdin>``: the text came from a pipe, no file to edit) becomes the placeholder ``FILE``."""
    words = ["FILE" if a == STDIN_NAME else shell_quote(a) for a in args]
    return " ".join(["gzinertia", *words])
