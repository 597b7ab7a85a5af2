"""Running the audit in tests: on files, with a configuration, and the twin checks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from sdf_builders import vec, write

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import AuditResult, Finding
from gzinertia.audit.rules import RULES
from gzinertia.audit.runner import audit


def run(
    paths: Sequence[Path | str],
    *,
    select: Sequence[str] = (),
    density: float | None = None,
    tolerance: str = "gz",
    model_paths: Sequence[str] = (),
) -> AuditResult:
    config = AuditConfig(
        select=tuple(select),
        density=density,
        tolerance=tolerance,  # type: ignore[arg-type]
        known_codes=frozenset(RULES),
    )
    return audit([str(p) for p in paths], config, model_paths=model_paths)


def findings_of(
    folder: Path, text: str, code: str | None = None, **kwargs: object
) -> list[Finding]:
    """Audits ``text`` (written to ``folder/model.sdf``) with every rule; the findings of rule
    ``code``, or all of them for ``None``. The file must be readable."""
    result = run([write(folder, text)], **kwargs)  # type: ignore[arg-type]
    assert not result.files_with("error"), result.files
    return [f for f in result.findings if code is None or f.code == code]


def clean(folder: Path, text: str, **kwargs: object) -> None:
    """The twin: no finding from any rule."""
    found = findings_of(folder, text, None, **kwargs)
    assert found == [], [f"{f.code} {f.message}" for f in found]


def mujoco_added_mass(radii: Sequence[float], density: float) -> np.ndarray:
    """``[m_Ax, m_Ay, m_Az]`` of an ellipsoid geom from MuJoCo's compiled ``geom_fluid``."""
    import mujoco

    xml = (
        f'<mujoco><option density="{density!r}"/><worldbody><body><freejoint/>'
        f'<geom type="ellipsoid" size="{vec(radii)}" fluidshape="ellipsoid" mass="1"/>'
        "</body></worldbody></mujoco>"
    )
    m = mujoco.MjModel.from_xml_string(xml)
    return density * np.array(m.geom_fluid[0][6:9])


# GitHub workflow commands, as the Actions runner reads them


def _runner_unescape(text: str, mapping: tuple[tuple[str, str], ...]) -> str:
    for escaped, raw in mapping:
        text = text.replace(escaped, raw)
    return text


_DATA = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
_PROPERTY = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str]:
    """What the GitHub Actions runner reads from one log line (ActionCommand.TryParseV2)."""
    line = line.lstrip()
    assert line.startswith("::")
    end = line.index("::", 2)
    name, _, props = line[2:end].partition(" ")
    properties = {}
    for part in props.strip().split(","):
        key, sep, value = part.partition("=")
        if part and sep and key and value:
            properties[key] = _runner_unescape(value, _PROPERTY)
    return name, properties, _runner_unescape(line[end + 2 :], _DATA)


def codes_by_link(path: Path) -> dict[str, set[str]]:
    """The audit's finding codes on ``path``, per link (file-level findings left out)."""
    out: dict[str, set[str]] = {}
    for f in audit([str(path)]).findings:
        if f.link is not None:
            out.setdefault(f.link, set()).add(f.code)
    return out


def spy_checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The list of the files the audit will really check from now on (not served from the
    cache), in order: :func:`gzinertia.audit.runner._audit_file` spied on for the test."""
    from typing import Any

    from gzinertia.audit import runner

    seen: list[str] = []
    original = runner._audit_file

    def spy(path: str, *args: Any, **kwargs: Any) -> runner.FileResult:
        seen.append(path)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(runner, "_audit_file", spy)
    return seen

