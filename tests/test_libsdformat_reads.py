"""What libsdformat reads, gzinertia reads (issue 25 items 6 and 7).

Three constructs of public files that strict XML refuses or that mean something else than they
seem, each built here in a minimal file: ``<ignition::corrected_offsets>``, which libsdformat
itself writes into the plugins of a converted URDF (``gz sdf -p``); ``--`` inside a comment
(VRX's ``obstacle_course``); and URDF's ``<mass value="500"/>`` in an SDFormat file (DAVE's
``electrical_panel``). The oracle is libsdformat (``oracles/sdformat_dump.cc``): it decides
that the file is readable and what mass and inertia each link has; gzinertia must read the
same, keep every other byte through an edit, and say what the mass attribute does not do.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import codes_by_link, findings_of
from conftest import run_cli
from oracles.sdformat_oracle import read_with_sdformat
from sdf_builders import box, inertial, link, model, write

import gzinertia

#: An invalid inertia (1 + 1 < 3) that ``fix`` repairs, so that an edit happens.
BAD = np.diag([1.0, 1.0, 3.0])

#: Each construct, as it appears inside a model (the part libxml2 alone refuses).
CONSTRUCTS = {
    "ignition-element": (
        '<plugin name="imu" filename="libgazebo_ros_imu.so"><bodyName>hull</bodyName>'
        "<xyzOffset>0 0 0</xyzOffset>\n"
        "<ignition::corrected_offsets>1</ignition::corrected_offsets></plugin>"
    ),
    "double-hyphen-comment": "<!-- set the mass -- in kg -- from the CAD --->",
    "both-in-one-file": (
        "<!-- <ignition::x> in a comment -- stays a comment -->\n"
        '<plugin name="p" filename="p.so"><ignition::corrected_offsets>1'
        "</ignition::corrected_offsets></plugin>"
    ),
}


def _model(construct: str) -> str:
    return model(link("hull", inertial(2.0, BAD), box((1, 1, 1))), construct, version="1.9")


def _oracle_links(path: Path) -> dict[str, tuple[float, np.ndarray]]:
    """libsdformat's links of ``path``; it read the file (its only error, if any, is the
    invalid inertia the test wrote for ``fix`` to repair)."""
    [result] = read_with_sdformat([path])
    assert result["root"] == "model"
    assert all("invalid inertia" in e["message"] for e in result["errors"]), result["errors"]
    return {
        lk["name"]: (float(lk["mass"] or 0.0), np.array(lk["I"], dtype=float))
        for lk in result["links"]
    }


def _ours(path: Path) -> dict[str, tuple[float, np.ndarray]]:
    doc = gzinertia.read(path)
    out = {}
    for lk in doc.links:
        I = lk.inertial.I_BBcm_I
        out[lk.name] = (lk.inertial.mass, np.array(
            [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]))
    return out


@pytest.mark.oracle("sdformat")
@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_read_as_libsdformat_reads_it(construct: str, tmp_path: Path) -> None:
    path = write(tmp_path, _model(CONSTRUCTS[construct]))
    theirs, ours = _oracle_links(path), _ours(path)
    assert theirs.keys() == ours.keys() == {"m::hull"}
    for name, (mass, I) in theirs.items():
        assert ours[name][0] == mass
        np.testing.assert_array_equal(ours[name][1], I)


@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_an_edit_keeps_every_other_byte(construct: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``fix --in-place`` rewrites the inertia only; the audit after it finds nothing it
    repaired, and ``--check`` after ``--in-place`` exits 0."""
    path = write(tmp_path, _model(CONSTRUCTS[construct]))
    before = path.read_bytes()
    assert "GZI104" in codes_by_link(path)["m::hull"]
    code, _, err = run_cli(["fix", str(path), "--in-place"], capsys)
    assert code == 0, err
    after = path.read_bytes()
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True)
               if a != b]
    assert len(changed) == 1 and b"<inertia>" in changed[0][0], changed
    assert CONSTRUCTS[construct].encode() in after
    assert "GZI104" not in codes_by_link(path).get("m::hull", set())
    code, _, err = run_cli(["fix", str(path), "--check"], capsys)
    assert code == 0, err


def test_the_documented_pipeline_audits_what_libsdformat_writes(tmp_path: Path) -> None:
    """``… | gzinertia audit -`` (docs/stdin.md) on SDF holding libsdformat's own
    ``<ignition::…>`` element: the audit runs (exit 1 for the bad inertia it finds, with its
    line), no XML error."""
    data = _model(CONSTRUCTS["ignition-element"]).encode()
    env = {**os.environ, "PYTHONPATH": str(Path(gzinertia.__file__).resolve().parents[1])}
    proc = subprocess.run(
        [sys.executable, "-c", "from gzinertia.cli import main; main()", "audit", "-",
         "--format", "text", "--no-cache"],
        input=data, capture_output=True, timeout=120, env=env, cwd=tmp_path, check=False,
    )
    out = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr.decode()
    assert "<stdin>:4: GZI104 error [m::hull]" in out and "QName" not in out + proc.stderr.decode()


def test_line_numbers_stay_those_of_the_file(tmp_path: Path) -> None:
    """The constructs rewritten for the parser keep every element on its line: a finding
    after a comment spanning lines with ``--`` names the line of the file."""
    text = model(
        "<!-- first -- line\n second -- line\n third --->",
        link("hull", inertial(2.0, BAD), box((1, 1, 1))),
        '<plugin name="p" filename="p.so">\n<ignition::corrected_offsets>1'
        "</ignition::corrected_offsets>\n</plugin>",
    )
    [found] = findings_of(tmp_path, text, "GZI104")
    assert found.line == text.splitlines().index(
        next(t for t in text.splitlines() if "<link" in t)) + 1


# ---------------------------------------------------------------------------------------------
# <mass value="500"/>: libsdformat reads the text only


def _panel(mass_element: str) -> str:
    I = np.diag([41.7, 41.7, 83.3])  # a 1 x 1 x 0.01 m plate of 500 kg
    written = re.sub(r"<mass>[^<]*</mass>", mass_element, inertial(500.0, I))
    return model(link("panel", written, box((1, 1, 0.01))), version="1.6")


MASS_ELEMENTS = ['<mass value="500"/>', "<mass/>", "<mass>  </mass>", "<mass><!-- kg --></mass>"]


@pytest.mark.oracle("sdformat")
@pytest.mark.parametrize("element", [*MASS_ELEMENTS, "<mass>500</mass>"])
def test_mass_is_read_as_libsdformat_reads_it(element: str, tmp_path: Path) -> None:
    path = write(tmp_path, _panel(element))
    theirs, ours = _oracle_links(path), _ours(path)
    assert ours["m::panel"][0] == theirs["m::panel"][0]
    np.testing.assert_array_equal(ours["m::panel"][1], theirs["m::panel"][1])


@pytest.mark.parametrize("element", MASS_ELEMENTS)
def test_a_mass_without_text_is_a_finding_saying_both_masses(element: str,
                                                             tmp_path: Path) -> None:
    [found] = findings_of(tmp_path, _panel(element), "GZI112")
    assert found.link == "m::panel" and found.severity == "error"
    assert "libsdformat reads the spec's default, 1 kg" in found.message
    if "value=" in element:
        assert "value attribute says 500 kg" in found.message
        assert "<mass>500</mass>" in found.message
    assert found.line == 4


def test_a_mass_with_text_is_no_finding(tmp_path: Path) -> None:
    assert findings_of(tmp_path, _panel("<mass>500</mass>"), "GZI112") == []


def test_show_says_the_attribute_is_not_read(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, _panel('<mass value="500"/>'))
    code, out, _ = run_cli(["show", str(path), "--json"], capsys)
    assert code == 0
    assert [lk["mass"] for lk in json.loads(out)["links"]] == [1.0]
    code, out, _ = run_cli(["show", str(path)], capsys)
    assert code == 0 and 'value="500"' in " ".join(out.split())
