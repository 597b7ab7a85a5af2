"""A finding's message as a template and its arguments (:class:`Message`), and the pieces rules
build it from: the finding's own link by name (:func:`link_name`, :func:`name_in`,
:func:`link_list`), as a ``--link`` glob and a picture's file (:func:`link_glob`,
:func:`link_picture`) in a command line (:func:`command`).

A template is a :meth:`str.format` string with named fields only; every argument is the text
it stands for. The arguments of :data:`~gzinertia.audit.findings.LINK_ARGS` say the finding's
own link (its scoped name, quoted or not, its ``--link`` glob, its picture's file); grouping
findings on identical links (:func:`gzinertia.report.audit.lines.group_findings`) compares a
finding's template and its other arguments, so it never looks for a link's name in text. Rules
write everything else as literal text (joined with ``+``, escaped here).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from gzinertia.audit.findings import escape_template
from gzinertia.record_base import ValueRecord
from gzinertia.shell import command_line, exact_link_pattern
from gzinertia.vocabulary.scoped_names import leaf_name
from gzinertia.wording import SHOWN

__all__ = [
    "Message",
    "command",
    "link_glob",
    "link_list",
    "link_name",
    "link_picture",
    "name_in",
]

@dataclass(frozen=True, repr=False, eq=False)
class Message(ValueRecord):
    """A message under construction: ``template`` (:meth:`str.format` fields by name) and
    ``args`` (field name → the text it stands for). ``message + "text"`` and ``"text" +
    message`` add literal text; two messages join their templates and arguments (an argument
    given twice must say the same)."""

    template: str
    args: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", MappingProxyType(dict(self.args)))

    @classmethod
    def of(cls, part: Message | str) -> Message:
        """``part`` as a message: a string is literal text."""
        return part if isinstance(part, Message) else cls(escape_template(part))

    def render(self) -> str:
        """The message as people read it."""
        return self.template.format_map(self.args)

    def __add__(self, other: Message | str) -> Message:
        right = Message.of(other)
        for name in self.args.keys() & right.args.keys():
            if self.args[name] != right.args[name]:
                raise ValueError(f"message argument {name!r} given two values")
        return Message(self.template + right.template, {**self.args, **right.args})

    def __radd__(self, other: str) -> Message:
        return Message.of(other) + self

    def __format__(self, spec: str) -> str:
        """Refused: a message inside an f-string would lose its arguments (join with ``+``)."""
        raise TypeError("a Message is joined with +, never formatted into text")


def link_name(link: str, quoted: bool = False) -> Message:
    """The finding's own scoped link name (``quoted``: as Python's ``repr`` writes it)."""
    if quoted:
        return Message("{link_repr}", {"link_repr": repr(link)})
    return Message("{link}", {"link": link})


def name_in(name: str, link: str, quoted: bool = False) -> Message:
    """A link's name (``quoted``: as Python's ``repr`` writes it): as :func:`link_name` when it
    is the finding's own ``link``, else as text (another link's, a body's, a model's)."""
    if name == link:
        return link_name(link, quoted)
    return Message.of(repr(name) if quoted else name)


def link_list(names: Sequence[str], link: str, shown: int = SHOWN) -> Message:
    """``a, b, c and 7 more`` as :func:`gzinertia.wording.bounded` writes ``names``, the
    finding's own ``link`` among them as :func:`link_name`."""
    out = Message("")
    for i, name in enumerate(names[:shown]):
        out = out + (", " if i else "") + name_in(name, link)
    more = len(names) - shown
    return out + (f" and {more} more" if more > 0 else "")


def link_glob(link: str) -> Message:
    """The ``--link`` glob that matches the finding's own link exactly, shell-quoted, as a word
    of :func:`command`."""
    return Message("{link_glob}", {"link_glob": _word(exact_link_pattern(link))})


def link_picture(link: str) -> Message:
    """``-o LEAF.png``'s file, shell-quoted, as a word of :func:`command` (the picture of
    ``plot --link``)."""
    return Message("{link_picture}", {"link_picture": _word(f"{leaf_name(link)}.png")})


def command(*words: Message | str) -> Message:
    """``gzinertia WORD...`` as :func:`gzinertia.shell.command_line` writes it: string words
    shell-quoted, message words (:func:`link_glob`) as they are."""
    out = Message.of(command_line())
    for word in words:
        out = out + " " + (word if isinstance(word, Message) else _word(word))
    return out


def _word(word: str) -> str:
    """One word of a command line, as :func:`gzinertia.shell.command_line` quotes it."""
    return command_line(word).removeprefix(command_line() + " ")
