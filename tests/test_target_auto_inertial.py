"""An ``<inertial auto="true">`` audited and floated for the target's libsdformat (issue 28).

Fortress (sdformat12) and Garden (sdformat13) do not know ``auto`` (gazebosim/sdformat#1299,
14.0.0): their libsdformat loads the inertial as written, its ``<mass>`` and ``<inertia>`` or
the spec's defaults (``inertial.sdf`` of sdformat12's newest spec, read from the mirror of
gazebosim/sdformat). Harmonic and later compute it from the collisions: a uniform box of
water, ``ρ·a·b·c`` and ``m(b²+c²)/12`` (closed form). The audit, ``audit --gazebo A --gazebo
B`` and ``hydrostatics`` judge and weigh the link by the target's reading; a file without
``auto`` reads the same under every target (clean twin).
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import pytest
from conftest import run_cli
from test_sdformat_release_reading import _inertial_spec

import gzinertia
from gzinertia.audit.catalogue import RULE_INFOS
from gzinertia.audit.config import with_overrides
from gzinertia.audit.projects import audit_projects

SIZE = (2.0, 0.4, 0.4)
MODEL = """<?xml version="1.0"?>
<sdf version="1.11">
  <model name="auv">
    <link name="hull">
      {inertial}
      <collision name="c"><geometry><box><size>{size}</size></box></geometry></collision>
    </link>
  </model>
</sdf>
"""


def _file(tmp_path: Path, inertial: str) -> Path:
    path = tmp_path / "auv.sdf"
    path.write_text(MODEL.format(inertial=inertial, size=" ".join(map(str, SIZE))))
    return path


def _spec_default_mass() -> float:
    """``<mass>``'s default in sdformat12's newest ``inertial.sdf`` (Fortress's libsdformat)."""
    found = re.search(r'<element name="mass" type="double" default="([^"]+)"',
                      _inertial_spec("sdformat12"))
    assert found is not None
    return float(found.group(1))


def _audit(path: Path, gazebo: str) -> list[gzinertia.Finding]:
    """The audit of ``path`` alone (no settings file) for the release ``gazebo``."""
    result, _ = audit_projects([str(path)], config_file=None, known_codes=frozenset(RULE_INFOS),
                               isolated=True, overrides=partial(with_overrides, gazebo=gazebo))
    return list(result.findings)


def test_fortress_weighs_the_written_inertial_and_harmonic_the_collisions(tmp_path: Path) -> None:
    path = _file(tmp_path, '<inertial auto="true"/>')
    weights = {}
    for gazebo in ("fortress", "garden", "harmonic"):
        result = gzinertia.hydrostatics(path, gazebo=gazebo)
        (model,) = result.models
        weights[gazebo] = model.mass
    box = 1000.0 * SIZE[0] * SIZE[1] * SIZE[2]  # water, libsdformat's default density
    assert weights["harmonic"] == pytest.approx(box, rel=1e-12)
    assert weights["fortress"] == weights["garden"] == _spec_default_mass()


def test_the_audit_judges_the_target_s_reading_and_the_migration_check_shows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unit inertia on 1 kg is no inertia of this box (GZI105, its gyration) under Fortress;
    under Harmonic the computed inertia is the box's and nothing is found."""
    path = _file(tmp_path, '<inertial auto="true"/>')
    assert "GZI105" in {f.code for f in _audit(path, "fortress")}
    assert "GZI105" not in {f.code for f in _audit(path, "harmonic")}
    _status, out, err = run_cli(["audit", str(path), "--no-cache", "--format", "text",
                                "--gazebo", "fortress", "--gazebo", "harmonic"], capsys)
    assert "- " in out and "GZI105" in out and "1 finding gone" in out, out + err


def test_a_written_inertial_reads_alike_under_every_target(tmp_path: Path) -> None:
    m = 1000.0 * SIZE[0] * SIZE[1] * SIZE[2]
    ixx, iyy = m * (SIZE[1] ** 2 + SIZE[2] ** 2) / 12, m * (SIZE[0] ** 2 + SIZE[2] ** 2) / 12
    path = _file(tmp_path, f"<inertial><mass>{m}</mass><inertia><ixx>{ixx}</ixx><iyy>{iyy}"
                           f"</iyy><izz>{iyy}</izz></inertia></inertial>")
    assert {f.code for f in _audit(path, "fortress")} == {f.code for f in _audit(path, "jetty")}
    masses = {g: gzinertia.hydrostatics(path, gazebo=g).models[0].mass
              for g in ("fortress", "jetty")}
    assert masses["fortress"] == masses["jetty"] == pytest.approx(m)
