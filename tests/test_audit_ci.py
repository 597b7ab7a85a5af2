"""The GitHub Action (``action.yml``) and the pre-commit hook (``.pre-commit-hooks.yaml``):
both files parse, and the audit command lines they run work on ``sdf_examples`` in a
subprocess, as the CI runner and pre-commit would run them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import yaml
from conftest import EXAMPLES, REPO

SCHEMA = json.loads((REPO / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
BIN = Path(sys.executable).parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GZI_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("CI", None)
    env.update(extra)
    return env


def test_action_is_a_composite_action_that_installs_audits_and_uploads() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert {"paths", "fail-on", "args"} <= set(action["inputs"])
    steps = action["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    assert any(u.startswith("actions/cache@") for u in uses)
    install = next(s for s in steps if s.get("name") == "Install gzinertia")
    assert "pip install" in install["run"] and "GZI_ACTION_PATH" in install["run"]
    # inputs reach scripts through env only: no ${{ }} expression inside a run script
    for step in steps:
        assert "${{" not in step.get("run", ""), step["name"]


def run_audit_step(
    cwd: Path, tmp_path: Path, paths: str, args: str, **extra: str
) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    """The Action's audit step run in ``cwd`` as the CI runner runs it (inputs through the
    environment, ``fail-on`` error); ``(process, SARIF file, GITHUB_OUTPUT file)``. The step
    itself succeeds: it records the audit's status, which the next step fails on."""
    action = yaml.safe_load((REPO / "action.yml").read_text())
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "audit")
    sarif, output = tmp_path / "gzinertia.sarif", tmp_path / "github_output"
    env = _env(
        GZI_PATHS=paths,
        GZI_FAIL_ON="error",
        GZI_ARGS=args,
        GZI_SARIF=str(sarif),
        GITHUB_OUTPUT=str(output),
        GZINERTIA_CACHE_DIR=str(tmp_path / "cache"),
        **extra,
    )
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done, sarif, output


def test_action_audit_step_runs_on_the_examples(tmp_path: Path) -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    done, sarif, output = run_audit_step(REPO, tmp_path, "sdf_examples",
                                         "--model-path sdf_examples")
    # the examples hold deliberate errors; the SARIF file is a regular file: it is uploaded
    assert output.read_text().split() == ["exit-code=1", "sarif-written=true"]
    log = json.loads(sarif.read_text())
    jsonschema.validate(log, SCHEMA)
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == len(log["runs"][0]["results"]) > 0
    assert all(re.match(r"::(error|warning|notice) file=sdf_examples/defects/", a)
               for a in annotations)
    fail = next(s for s in action["runs"]["steps"] if s.get("name") == "Fail on findings")
    done = subprocess.run(["bash", "-c", fail["run"]], env=_env(GZI_STATUS="1"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1


def test_pre_commit_hook_runs_on_the_example_files() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    hook = next(h for h in hooks if h["id"] == "gzinertia-audit")
    assert hook["language"] == "python"
    pattern = re.compile(hook["files"])
    files = sorted(
        p.relative_to(REPO).as_posix() for p in EXAMPLES.rglob("*") if p.is_file()
        and pattern.search(p.relative_to(REPO).as_posix())
    )
    assert "sdf_examples/harbour_world.sdf" in files
    assert not any(f.endswith((".md", ".config", ".stl")) for f in files)
    assert not pattern.search("worlds/model.sdf.erb")  # templates are not passed
    command = [*hook["entry"].split(), *hook.get("args", []), "--model-path", "sdf_examples"]
    done = subprocess.run([*command, *files], cwd=REPO, env=_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1, done.stderr  # deliberate errors in sdf_examples/defects
    assert "GZI204" in done.stdout and done.stdout.rstrip().splitlines()[-1].startswith("Found")
    clean = [f for f in files if "/defects/" not in f]
    done = subprocess.run([*command, *clean], cwd=REPO, env=_env(), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout
