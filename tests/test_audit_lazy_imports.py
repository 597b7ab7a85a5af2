"""What an audit imports: a rule's heavy dependencies load only for documents that need them.

Cold start is measured by ``benchmarks/bench_coldstart.py``, not here (no wall clock in tests);
these tests check the cause, by module presence in a fresh interpreter: auditing an SDF model
file imports neither the URDF reader, nor the BEM solver and its meshing, nor the flotation
solver (graded Buoyancy worlds only), nor the editing commands, nor SciPy, trimesh or
matplotlib; the BEM provenance parser loads only for a link with ``<fluid_added_mass>``; and
neither ``show`` nor ``audit`` of an SDF file on the command line loads the URDF package.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from conftest import EXAMPLES
from sdf_builders import box, inertial, link, model, write

#: Never needed to audit an SDF model file.
NOT_FOR_SDF = (
    "gzinertia.urdf",
    "gzinertia.physics.bem",
    "gzinertia.physics.surface_mesh",
    "gzinertia.physics.flotation",
    "gzinertia.edit",
    "scipy",
    "trimesh",
    "matplotlib",
)
PROVENANCE = "gzinertia.physics.bem_provenance"


def _audited_modules(path: Path) -> tuple[list[dict[str, object]], set[str]]:
    """The audit's per-file statuses and every module loaded, from a fresh interpreter."""
    program = (
        "import json, sys\n"
        "from gzinertia.audit.runner import audit\n"
        f"result = audit([{str(path)!r}])\n"
        "print(json.dumps([[f.path, f.status] for f in result.files]))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    files = [{"path": p, "status": s} for p, s in json.loads(out[0])]
    return files, set(json.loads(out[1]))


#: Package faces that load nothing of their package (``gzinertia.lazy_face``): importing one is
#: not loading the package. :mod:`gzinertia.model_reader` reaches each format's reader through
#: its face, imported at its top (issue 26 item 9).
LIGHT_FACES = ("gzinertia.urdf",)


def _loaded(modules: set[str], package: str) -> list[str]:
    """The modules of ``package`` in ``modules``, its light face (:data:`LIGHT_FACES`) aside."""
    return sorted(m for m in modules if (m == package and m not in LIGHT_FACES)
                  or m.startswith(package + "."))


def test_the_urdf_face_loads_nothing_of_its_package() -> None:
    """What :data:`LIGHT_FACES` relies on: importing the face imports no URDF module, no NumPy
    and no XML parser."""
    program = "import sys, json, gzinertia.urdf; print(json.dumps(sorted(sys.modules)))"
    modules = set(json.loads(subprocess.run([sys.executable, "-c", program], capture_output=True,
                                            text=True, check=True).stdout))
    for package in ("gzinertia.urdf", "numpy", "lxml", "xacro", "yaml"):
        assert _loaded(modules, package) == [], package


def test_an_sdf_model_without_added_mass_loads_no_urdf_bem_or_flotation(tmp_path: Path) -> None:
    body = link("hull", inertial(2.0, np.diag([0.1, 0.2, 0.3])), box((0.5, 0.4, 0.3)))
    path = write(tmp_path, model(body))
    files, modules = _audited_modules(path)
    assert files == [{"path": str(path), "status": "ok"}]
    assert "gzinertia.audit.rules" in modules  # the checks ran
    for package in (*NOT_FOR_SDF, PROVENANCE):
        assert _loaded(modules, package) == [], package


def test_an_auv_with_added_mass_and_visuals_loads_only_what_its_rules_need() -> None:
    path = EXAMPLES / "torpedo_auv" / "model.sdf"
    files, modules = _audited_modules(path)
    assert files == [{"path": str(path), "status": "ok"}]
    assert PROVENANCE in modules  # its links carry <fluid_added_mass>: GZI212 reads comments
    assert "gzinertia.physics.buoyancy_proxy" in modules  # its links have visuals: GZI304
    for package in NOT_FOR_SDF:
        assert _loaded(modules, package) == [], package


def _cli_modules(args: list[str]) -> tuple[int, set[str]]:
    """``gzinertia ARGS`` run in a fresh interpreter: its exit status and every module loaded."""
    program = (
        "import io, json, sys, contextlib\n"
        "from gzinertia.cli import main\n"
        f"sys.argv = ['gzinertia', *{args!r}]\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exc:\n"
        "        status = exc.code\n"
        "    else:\n"
        "        status = 0\n"
        "print(json.dumps([status, sorted(sys.modules)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    ).stdout
    status, modules = json.loads(out)
    return int(status or 0), set(modules)


def test_show_and_audit_of_an_sdf_file_on_the_command_line_load_no_urdf_module() -> None:
    """The command line's own options (``--xacro-arg``) do not pull the URDF package in."""
    path = EXAMPLES / "torpedo_auv" / "model.sdf"
    for command in (["show", "--json"], ["audit", "--no-cache"]):
        status, modules = _cli_modules([*command, str(path)])
        assert status == 0, command
        assert "gzinertia.sdf.reader" in modules  # the file was read
        assert _loaded(modules, "gzinertia.urdf") == [], command


def test_a_command_imports_its_own_command_module_only(tmp_path: Path) -> None:
    """typer turns a command module's options into click parameters when it is imported: a run
    of one command imports no other command's module (``--help`` imports them all)."""
    from gzinertia.cli.app import COMMAND_MODULES

    path = str(EXAMPLES / "torpedo_auv" / "model.sdf")
    cache = str(tmp_path / "cache")
    runs = [
        ["show", "--json", path],
        ["audit", "--no-cache", path],
        ["audit", "--cache-dir", cache, path],  # fills the cache
        ["audit", "--cache-dir", cache, path],  # every file from the cache
    ]
    for args in runs:
        status, modules = _cli_modules(args)
        assert status == 0, args
        assert modules & set(COMMAND_MODULES.values()) == {COMMAND_MODULES[args[0]]}, args
        assert _loaded(modules, "gzinertia.urdf") == [], args
    # the last run read nothing but the cache: no XML parser, no reader, no NumPy
    for package in ("lxml", "gzinertia.sdf.reader", "numpy", "gzinertia.audit.rules"):
        assert _loaded(modules, package) == [], package
    status, modules = _cli_modules(["--help"])
    assert status == 0
    assert set(COMMAND_MODULES.values()) <= modules


def test_the_app_lists_every_command_in_the_order_of_the_help() -> None:
    """``from gzinertia.cli import app`` is the whole app, whichever commands ran before."""
    import typer.main

    from gzinertia.cli import app
    from gzinertia.cli.app import COMMAND_MODULES

    group = typer.main.get_command(app)
    assert list(group.commands) == list(COMMAND_MODULES)  # type: ignore[attr-defined]
