"""The buoyancy proxy recognised by more than its name (issue 27): a collision named
``gzinertia_buoyancy_proxy`` is the proxy only when it collides with nothing
(``<collide_bitmask>0``, as ``migrate --buoyancy proxy`` writes it); with that name and a
collision it is a body part, and the body's shape and the exact hydrostatics count it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli
from test_migrate_proxy import RHO, _small_lauv

import gzinertia
from gzinertia.physics.link_union import link_solid

BITMASK = "<surface><contact><collide_bitmask>0</collide_bitmask></contact></surface>"


def _migrated(tmp_path: Path, capsys: pytest.CaptureFixture[str], colliding: bool) -> Path:
    """The small LAUV with the proxy migrate writes; ``colliding``: its bitmask removed."""
    path = _small_lauv(tmp_path)
    status, _, err = run_cli(["migrate", str(path), "--buoyancy", "proxy", "--in-place"], capsys)
    assert status == 0, err
    if colliding:
        text = path.read_text()
        assert BITMASK in text
        path.write_text(text.replace(BITMASK, ""))
    return path


@pytest.mark.parametrize("colliding", [False, True])
def test_the_link_record_flags_only_a_proxy_that_collides_with_nothing(
    colliding: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _migrated(tmp_path, capsys, colliding)
    (link,) = gzinertia.read(path).links
    flags = {c.name: c.buoyancy_proxy for c in link.collisions}
    assert flags["gzinertia_buoyancy_proxy"] is not colliding
    assert sum(flags.values()) == (0 if colliding else 1)


def test_a_colliding_proxy_is_a_body_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {}
    for case in ("proxy", "part", "renamed"):
        (tmp_path / case).mkdir()
        files[case] = _migrated(tmp_path / case, capsys, colliding=case != "proxy")
    renamed = files["renamed"].read_text().replace('"gzinertia_buoyancy_proxy"', '"fin"')
    files["renamed"].write_text(renamed)
    links = {case: gzinertia.read(path).links[0] for case, path in files.items()}
    hull = [c for c in links["proxy"].collisions if not c.buoyancy_proxy]
    assert len(hull) == len(links["proxy"].collisions) - 1
    volume = {case: link_solid(link.collisions).volume for case, link in links.items()}
    # the proxy is no part of the body's shape; the colliding sphere is, as it is under any
    # other name (the clean twin: the same file with the collision renamed)
    assert volume["proxy"] == pytest.approx(link_solid(hull).volume, rel=1e-12)
    assert volume["part"] == pytest.approx(volume["renamed"], rel=1e-12)
    assert volume["part"] > volume["proxy"]
    # gz-sim floats all three the same (Buoyancy.cc sums every collision's volume)
    floated = {case: gzinertia.hydrostatics(path, density=RHO).models[0].volume
               for case, path in files.items()}
    assert floated["part"] == pytest.approx(floated["proxy"], rel=1e-12)
    assert floated["renamed"] == pytest.approx(floated["proxy"], rel=1e-12)
