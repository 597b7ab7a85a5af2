"""What an audit found: rules, findings, per-file status and the whole result (immutable data).

A :class:`Finding` says which rule (``code``) fired, how bad it is (``severity``), where
(``file`` as given or resolved for includes, 1-based ``line``, scoped ``link`` name such as
``"model::nested::link"``), a human ``message`` that carries the numbers and the fix (rendered
from ``message_template`` and ``message_args``: the link's own name is an argument, never
looked for in the text), and the same numbers machine-readable in ``values`` (SI units; matrix
names follow the monogram notation of ``docs/conventions.md``, e.g. ``"A_BBo_B"``). Formats
live in :mod:`gzinertia.report.audit`; nothing here prints.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, TypeAlias, get_args

from gzinertia.gazebo.target import Target
from gzinertia.record_base import ValueRecord
from gzinertia.vocabulary.choices import Severity as Severity

if TYPE_CHECKING:
    from gzinertia.records import SdfDocument

__all__ = [
    "LINK_ARGS",
    "MACRO_CALL_ARG",
    "MACRO_CALL_WORDS",
    "SEVERITY_RANK",
    "UNREADABLE_CODE",
    "AuditResult",
    "FileState",
    "FileStatus",
    "Finding",
    "JsonValue",
    "RuleInfo",
    "SettingsUse",
    "Severity",
    "escape_template",
    "is_link_arg",
    "plain_json_value",
]

FileState = Literal["ok", "skipped", "error"]

#: The code of the finding a file that could not be read becomes
#: (:meth:`AuditResult.unreadable_findings`): what an audit did not check.
UNREADABLE_CODE = "GZI001"

#: What a finding on a link a xacro macro built says after its message: where the macro was
#: called (``file:line``, also ``values["xacro_call"]``: :attr:`Finding.macro_call`).
MACRO_CALL_WORDS = " (link built by a xacro macro called at {call})"
#: The message argument (and ``values`` key) that holds the macro call of
#: :data:`MACRO_CALL_WORDS`.
MACRO_CALL_ARG = "xacro_call"
#: The message arguments that say the finding's own link (:func:`is_link_arg`): its scoped
#: name, as Python quotes it, its ``--link`` glob and its picture's file, shell-quoted.
LINK_ARGS = frozenset({"link", "link_repr", "link_glob", "link_picture"})
#: ``info < warning < error``; compare severities through this, never as strings.
SEVERITY_RANK: dict[Severity, int] = {"info": 0, "warning": 1, "error": 2}

JsonValue: TypeAlias = (
    "bool | int | float | str | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
)
"""What ``Finding.values`` may hold: JSON-able data. Floats may be non-finite here; each output
format says how it writes them (JSON: ``null``, see docs/json.md)."""

_CODE = re.compile(r"^[A-Z]+[0-9]+$")
_KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def is_link_arg(name: str) -> bool:
    """Whether message argument ``name`` says the finding's own link (:data:`LINK_ARGS`)."""
    return name in LINK_ARGS


def escape_template(text: str) -> str:
    """``text`` as a :meth:`str.format` template that renders to itself (braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def _check_severity(severity: str, what: str) -> None:
    if severity not in SEVERITY_RANK:
        raise ValueError(f"{what}: severity {severity!r} is not one of {tuple(SEVERITY_RANK)}")


@dataclass(frozen=True, repr=False, eq=False)
class RuleInfo(ValueRecord):
    """What a rule is: ``code`` (``"GZI101"``), kebab-case ``name`` (``"mass-not-positive"``),
    default ``severity``, one-sentence ``summary`` and ``doc``, the path of its page relative to
    the repository root (``"docs/rules/GZI101.md"``)."""

    code: str
    name: str
    severity: Severity
    summary: str
    doc: str

    def __post_init__(self) -> None:
        if not _CODE.match(self.code):
            raise ValueError(f"rule code {self.code!r} is not like 'GZI101'")
        if not _KEBAB.match(self.name):
            raise ValueError(f"{self.code}: rule name {self.name!r} is not kebab-case")
        _check_severity(self.severity, self.code)


#: Types :func:`plain_json_value` keeps as they are (exactly these: not subclasses).
_PLAIN_SCALARS = frozenset({str, float, int, bool, type(None)})


def plain_json_value(value: object, where: str = "value") -> JsonValue:
    """``value`` as plain Python JSON data: tuples and NumPy arrays become lists, NumPy scalars
    Python numbers; non-finite floats are kept. Raises ``TypeError`` for anything else."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, Mapping):
        out: dict[str, JsonValue] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where}: mapping key {key!r} is not a string")
            out[key] = plain_json_value(item, f"{where}.{key}")
        return out
    if isinstance(value, (list, tuple)):
        if all(type(item) in _PLAIN_SCALARS for item in value):  # e.g. an array's tolist()
            return list(value)
        return [plain_json_value(item, f"{where}[{i}]") for i, item in enumerate(value)]
    tolist = getattr(value, "tolist", None)  # NumPy arrays and scalars, without importing NumPy
    if callable(tolist):
        return plain_json_value(tolist(), where)
    raise TypeError(f"{where}: {type(value).__name__} is not JSON-able")


@dataclass(frozen=True, repr=False, eq=False)
class Finding(ValueRecord):
    """One rule firing on one place.

    ``line`` is 1-based; ``0`` means the finding is about the whole file (no line). ``link`` is
    the scoped link name, or ``None`` for file-level findings. ``values`` is normalised to plain
    JSON data on construction (see :func:`plain_json_value`) and is read-only.

    ``message`` is ``message_template`` (:meth:`str.format` fields by name) rendered with
    ``message_args`` (name → text; those of :data:`LINK_ARGS` say the link): given both, the
    constructor checks that they agree; given a message alone, its template is the message
    itself (braces doubled), without arguments.
    """

    code: str
    severity: Severity
    file: str
    line: int
    link: str | None
    message: str
    values: Mapping[str, JsonValue] = field(default_factory=dict, hash=False)
    #: The link's scoped name as written in ``file`` (``LinkRecord.name_in_file``): the same
    #: element seen through two includes, or audited on its own too, has one. Not part of the
    #: output formats; the audit reports one finding per rule and element with it.
    link_in_file: str | None = field(default=None, compare=False)
    message_template: str | None = field(default=None, compare=False)
    message_args: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        _check_severity(self.severity, f"{self.code} at {self.file}:{self.line}")
        if self.line < 0:
            raise ValueError(f"{self.code}: line {self.line} < 0 (use 0 for the whole file)")
        self._set_template()
        plain = plain_json_value(dict(self.values), f"{self.code}.values")
        assert isinstance(plain, dict)
        object.__setattr__(self, "values", MappingProxyType(plain))

    def _set_template(self) -> None:
        """The template and arguments made whole (a message alone is its own template) and
        checked against the message."""
        if self.message_template is None:
            object.__setattr__(self, "message_template", escape_template(self.message))
            object.__setattr__(self, "message_args", MappingProxyType({}))
            return
        args = MappingProxyType(dict(self.message_args))
        object.__setattr__(self, "message_args", args)
        if self.message_template.format_map(args) != self.message:
            raise ValueError(f"{self.code}: the message is not its template rendered")

    @classmethod
    def from_json_data(
        cls,
        code: str,
        severity: Severity,
        file: str,
        line: int,
        link: str | None,
        message: str,
        values: dict[str, JsonValue],
        link_in_file: str | None = None,
        message_template: str | None = None,
        message_args: Mapping[str, str] | None = None,
    ) -> Finding:
        """A finding whose ``values`` are already plain JSON data, as :func:`json.loads` gives
        them (dicts, lists, strings, numbers, booleans, ``None``): taken as they are, without
        the normalising copy of the constructor (the result cache reads thousands)."""
        finding = cls(code, severity, file, line, link, message, link_in_file=link_in_file,
                      message_template=message_template, message_args=message_args or {})
        object.__setattr__(finding, "values", MappingProxyType(values))
        return finding

    def __reduce__(self) -> tuple[type[Finding], tuple[object, ...]]:
        """Pickles (e.g. from worker processes) through the constructor: the read-only views of
        ``values`` and ``message_args`` cannot be pickled themselves."""
        fields = (self.code, self.severity, self.file, self.line, self.link, self.message)
        return (Finding, (*fields, dict(self.values), self.link_in_file, self.message_template,
                          dict(self.message_args)))

    @property
    def said_apart_from_link(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """``(template, arguments)`` without the arguments that say the link itself
        (:data:`LINK_ARGS`) or where its macro was called (:data:`MACRO_CALL_ARG`): what the
        finding says about any link with the same numbers (grouping compares it)."""
        template = self.message_template or ""
        args = tuple(sorted((name, text) for name, text in self.message_args.items()
                            if not is_link_arg(name) and name != MACRO_CALL_ARG))
        return template, args

    def to_plain(self) -> dict[str, JsonValue]:
        """The finding as plain data: ``code``, ``severity``, ``file``, ``line``, ``link``,
        ``message`` and ``values`` (non-finite floats kept as they are)."""
        return {
            "code": self.code,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "link": self.link,
            "message": self.message,
            "values": dict(self.values),
        }

    @property
    def macro_call(self) -> str | None:
        """Where the xacro macro that built the link was called (``file:line``), or ``None``."""
        call = self.values.get(MACRO_CALL_ARG)
        return call if isinstance(call, str) else None

    @property
    def rule_message(self) -> str:
        """The message as the rule wrote it: without the :data:`MACRO_CALL_WORDS` the audit
        adds for :attr:`macro_call`."""
        call = self.macro_call
        return self.message if call is None else self.message.removesuffix(
            MACRO_CALL_WORDS.format(call=call)
        )

    @property
    def rank(self) -> int:
        """``SEVERITY_RANK[severity]``."""
        return SEVERITY_RANK[self.severity]

    @property
    def sort_key(self) -> tuple[str, int, str, str, str]:
        """``(file, line, code, link, message)``: the order of findings in every output."""
        return (self.file, self.line, self.code, self.link or "", self.message)


@dataclass(frozen=True, repr=False, eq=False)
class FileStatus(ValueRecord):
    """How reading one audited file went: ``ok``, ``skipped`` (not an SDF file, excluded...) or
    ``error`` (unreadable, not XML...), with a human ``message`` for the last two. For an
    error, ``error_file`` and ``error_line`` are where it lies when the reader named a place (a
    file it includes may be at fault; line 0: none named)."""

    path: str
    status: FileState
    message: str | None = None
    error_file: str | None = None
    error_line: int = 0

    def __post_init__(self) -> None:
        if self.status not in get_args(FileState):
            raise ValueError(f"{self.path}: status {self.status!r} is not ok, skipped or error")


@dataclass(frozen=True, repr=False, eq=False)
class SettingsUse(ValueRecord):
    """A settings file that changed what the audit checked in some of the audited files.

    ``path``: the settings file (relative to the working directory when under it, else
    absolute); ``files``: the audited files it applied to, in order; ``changes``: each setting
    it changed (its key as the settings spell it, kebab-case) with its value as written there,
    as plain JSON data; ``rules_off``: the rule codes it switched off in at least one of its
    files (on without it, with the same command line), sorted; ``unchecked``: its files in
    which it switched every rule off. See :mod:`gzinertia.audit.settings_use`.
    """

    path: str
    files: tuple[str, ...]
    changes: Mapping[str, JsonValue] = field(default_factory=dict, hash=False)
    rules_off: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        plain = plain_json_value(dict(self.changes), f"{self.path}: changes")
        assert isinstance(plain, dict)
        object.__setattr__(self, "changes", MappingProxyType(plain))


@dataclass(frozen=True, repr=False, eq=False)
class AuditResult(ValueRecord):
    """Everything one audit run found. ``files`` keep the order given (the audited paths);
    ``findings`` are sorted by :attr:`Finding.sort_key` on construction; ``settings`` name the
    settings files that changed what was checked, in the order of their first file."""

    files: tuple[FileStatus, ...] = ()
    findings: tuple[Finding, ...] = ()
    settings: tuple[SettingsUse, ...] = ()
    #: The Gazebo releases and engines the files were judged for (one per distinct target of
    #: the run's settings; a world's own engine is said in its findings).
    targets: tuple[Target, ...] = ()
    #: The documents the run read and judged, by audited path, when it was asked to keep them
    #: (:func:`gzinertia.audit.runner.audit`'s ``keep_documents``, for the HTML page): only
    #: files read in this process (not those whose result came from the cache or a worker).
    documents: Mapping[str, SdfDocument] = field(default_factory=dict, compare=False,
                                                 repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "files", tuple(self.files))
        object.__setattr__(self, "findings", tuple(sorted(self.findings, key=_sort_key)))
        object.__setattr__(self, "settings", tuple(self.settings))
        object.__setattr__(self, "targets", tuple(self.targets))

    def counts(self) -> dict[Severity, int]:
        """Number of findings per severity, every severity present, worst first."""
        out: dict[Severity, int] = {"error": 0, "warning": 0, "info": 0}
        for finding in self.findings:
            out[finding.severity] += 1
        return out

    def worst(self) -> Severity | None:
        """The highest severity among the findings, ``None`` when there are none."""
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=SEVERITY_RANK.__getitem__)

    def unchecked(self) -> tuple[str, ...]:
        """The audited files in which settings switched every rule off, in order."""
        return tuple(dict.fromkeys(path for use in self.settings for path in use.unchecked))

    def files_with(self, status: FileState) -> tuple[FileStatus, ...]:
        """The files whose status is ``status``, in the given order."""
        return tuple(f for f in self.files if f.status == status)

    def unreadable_findings(self) -> tuple[Finding, ...]:
        """One ``GZI001`` finding of severity error per file that could not be read, in order:
        at the place the reader named (else the file, line 0), its message the line the
        command line prints for it, ``values["unreadable"]`` the file audited."""
        return tuple(
            Finding(UNREADABLE_CODE, "error", f.error_file or f.path, max(f.error_line, 0), None,
                    f.message or f"{f.path}: could not be read", {"unreadable": f.path})
            for f in self.files_with("error")
        )

    def paths(self) -> tuple[str, ...]:
        """Every file the result mentions: the audited files in order, then files that only
        findings name (e.g. included models), sorted."""
        given = [f.path for f in self.files]
        known = set(given)
        extra = sorted({f.file for f in self.findings} - known)
        return (*dict.fromkeys(given), *extra)

    def by_file(self) -> dict[str, tuple[Finding, ...]]:
        """Findings grouped by file, in :meth:`paths` order (files without findings included)."""
        groups: dict[str, list[Finding]] = {path: [] for path in self.paths()}
        for finding in self.findings:
            groups[finding.file].append(finding)
        return {path: tuple(items) for path, items in groups.items()}

    def at_least(self, severity: Severity) -> AuditResult:
        """The same result keeping only findings of ``severity`` or worse."""
        floor = SEVERITY_RANK[severity]
        kept = tuple(f for f in self.findings if f.rank >= floor)
        return AuditResult(self.files, kept, self.settings, self.targets)

    def fails(self, threshold: Severity = "error") -> bool:
        """Whether CI should fail: a finding at ``threshold`` or worse, or an unreadable file."""
        floor = SEVERITY_RANK[threshold]
        return bool(self.files_with("error")) or any(f.rank >= floor for f in self.findings)


def _sort_key(finding: Finding) -> tuple[str, int, str, str, str]:
    return finding.sort_key
