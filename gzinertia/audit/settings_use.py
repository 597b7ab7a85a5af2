"""Which settings files changed what an audit checked, and what they changed.

Settings files come from the checkout, so a pull request can add one: a ``pyproject.toml``
in a subfolder with ``ignore = ["ALL"]`` applies to that folder (ruff's discovery, which the
audit follows) and silences it. It can never do so unseen: every report names each settings
file that changed something for at least one audited file (:func:`settings_use`, one
:class:`~gzinertia.audit.findings.SettingsUse` per file).

What a settings file changed is what the same command line does differently with it than
without it: a key that repeats a default, or that a command-line option replaces, changes
nothing. Its ``rules_off`` are the codes checked in one of its files without it and not with
it; ``unchecked``, its files in which no rule is left at all.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.findings import JsonValue, SettingsUse

__all__ = ["changed_settings", "settings_use"]


def changed_settings(config: AuditConfig, baseline: AuditConfig) -> dict[str, JsonValue]:
    """The settings of ``config`` that differ from ``baseline`` (the defaults with the same
    command-line options), keyed as the settings files spell them, each with the value the
    file wrote (codes upper-cased; ``model-path`` relative to the file's folder)."""
    out: dict[str, JsonValue] = {}
    for key in ("select", "ignore"):
        if getattr(config, key) != getattr(baseline, key):
            out[key] = list(getattr(config, key))
    if config.per_path_ignores != baseline.per_path_ignores:
        out["per-path-ignores"] = {glob: list(codes) for glob, codes in config.per_path_ignores}
    for name, key in (("fail_on", "fail-on"), ("density", "density"),
                      ("tolerance", "tolerance"), ("net_buoyancy", "net-buoyancy")):
        if getattr(config, name) != getattr(baseline, name):
            out[key] = getattr(config, name)
    # the command line's model paths come first, its xacro arguments last: the file's are
    # those the baseline does not have
    paths = [p for p in config.model_paths if p not in baseline.model_paths]
    if paths:
        out["model-path"] = [os.path.relpath(p, config.root) for p in paths]
    own = [(glob, pairs) for glob, pairs in config.xacro_args if (glob, pairs) not in
           baseline.xacro_args]
    if own:
        out["xacro-args"] = {glob: dict(pairs) for glob, pairs in own}
    # the environment variables a xacro expansion may read: the file's names are those the
    # command line did not name
    env = [name for name in config.xacro_env if name not in baseline.xacro_env]
    if env:
        out["xacro-env"] = env
    for name, key in (("exclude", "exclude"), ("extend_exclude", "extend-exclude")):
        mine, theirs = getattr(config, name), getattr(baseline, name)
        if mine != theirs and mine is not None:
            out[key] = [p.pattern for p in mine if p not in (theirs or ())]
    if config.force_exclude != baseline.force_exclude:
        out["force-exclude"] = config.force_exclude
    for name, key in (("release", "gazebo"), ("engine", "engine")):
        if getattr(config.target, name) != getattr(baseline.target, name):
            out[key] = getattr(config.target, name)
    return out


def settings_use(
    config: AuditConfig, baseline: AuditConfig, paths: Sequence[str]
) -> SettingsUse | None:
    """What the settings file of ``config`` changed for the audited files ``paths``, or
    ``None`` when ``config`` comes from no file or changes nothing. ``baseline``: the
    defaults with the same command-line options."""
    if config.source is None:
        return None
    changes = changed_settings(config, baseline)
    if not changes:
        return None
    codes = config.known_codes
    off: set[str] = set()
    unchecked = []
    for path in paths:
        before, after = baseline.checked(codes, path), config.checked(codes, path)
        off |= before - after
        if before and not after:
            unchecked.append(path)
    return SettingsUse(
        _relative(config.source), tuple(paths), changes, tuple(sorted(off)), tuple(unchecked)
    )


def _relative(path: str) -> str:
    """``path`` relative to the working directory when it is under it, else absolute."""
    absolute = os.path.abspath(path)
    try:
        relative = os.path.relpath(absolute, os.getcwd())
    except ValueError:  # another drive on Windows
        return absolute
    outside = relative == os.pardir or relative.startswith(os.pardir + os.sep)
    return absolute if outside else relative
