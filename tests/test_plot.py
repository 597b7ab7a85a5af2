"""`gzinertia plot`: a picture is written, in the format asked for, with what it should show."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES, run_cli


def test_matplotlib_comes_with_the_package() -> None:
    """`pip install .` brings matplotlib (show and the audit suggest `gzinertia plot`); the
    `plot` extra stays as an alias for those who install `gzinertia[plot]`."""
    import re
    import sys

    from conftest import REPO

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}

    assert "matplotlib" in names(project["dependencies"])
    assert "matplotlib" in names(project["optional-dependencies"]["plot"])


def test_cli_start_up_does_not_import_matplotlib() -> None:
    """matplotlib is imported when a picture is drawn, not when the CLI starts (start-up time
    is measured in benchmarks/; this checks the cause)."""
    import subprocess
    import sys

    from conftest import REPO

    program = (
        "import sys\n"
        "from gzinertia.cli import main\n"
        "sys.argv = ['gzinertia', 'plot', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('matplotlib' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True, cwd=REPO)
    assert run.stdout.strip().splitlines()[-1] == "False"


def test_a_broken_install_without_matplotlib_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    out = tmp_path / "hull.png"
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "torpedo_auv" / "model.sdf"), "--link", "hull", "-o", str(out)],
        capsys,
    )
    assert status == 2 and err.count("\n") == 1 and "pip install matplotlib" in err, err
    assert not out.exists()


def test_png_of_one_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hull.png"
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "torpedo_auv" / "model.sdf"), "--link", "hull", "-o", str(out)],
        capsys,
    )
    assert status == 0, err
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000


def test_svg_of_a_whole_model_names_it_and_its_mass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rov.svg"
    status, _, err = run_cli(["plot", str(EXAMPLES / "box_rov" / "model.sdf"), "-o", str(out)], capsys)
    assert status == 0, err
    text = out.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert "world frame" in text and "fluid ellipsoid" in text


def test_unknown_picture_format_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        ["plot", str(EXAMPLES / "box_rov" / "model.sdf"), "-o", str(tmp_path / "x.gif")], capsys
    )
    assert status == 2 and "png or .svg" in err
