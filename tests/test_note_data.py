"""Rules build their messages from the reader's structured note fields, never by re-parsing
another module's English (GZI001 from ``unresolved-include``, GZI109 from
``inertia-defaulted``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import sdf_builders as sdf

from gzinertia.audit.runner import audit
from gzinertia.sdf import read_sdf_file


def _world(uri: str) -> str:
    return sdf.world(sdf.include(uri), version="1.9")


def test_gzi001_says_once_that_nothing_is_downloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # an empty Fuel cache
    monkeypatch.delenv("GZ_FUEL_CACHE_PATH", raising=False)
    monkeypatch.delenv("IGN_FUEL_CACHE_PATH", raising=False)
    fuel = tmp_path / "fuel.sdf"
    fuel.write_text(_world("https://fuel.gazebosim.org/1.0/someone/models/Sub"))
    [note] = [n for n in read_sdf_file(fuel).notes if n.code == "unresolved-include"]
    assert note.data == {"uri": "https://fuel.gazebosim.org/1.0/someone/models/Sub",
                         "not_downloaded": "true"}
    [found] = [f for f in audit([str(fuel)]).findings if f.code == "GZI001"]
    assert "never downloads" in found.message
    assert "(gzinertia does not download from Fuel)" not in found.message

    local = tmp_path / "local.sdf"
    local.write_text(_world("model://nowhere"))
    [found] = [f for f in audit([str(local)]).findings if f.code == "GZI001"]
    assert "download" not in found.message


def test_gzi109_names_the_urdf_attributes_from_the_note(tmp_path: Path) -> None:
    model = tmp_path / "m.sdf"
    # Inline: the URDF-style <inertia> attributes (what GZI109 finds) are the point.
    model.write_text(
        '<sdf version="1.9"><model name="m"><link name="l"><inertial><mass>2</mass>'
        '<inertia ixx="0.1" iyy="0.2" izz="0.3"/></inertial></link></model></sdf>'
    )
    [note] = [n for n in read_sdf_file(model).notes if n.code == "inertia-defaulted"]
    assert note.data == {"attributes": 'ixx="0.1" iyy="0.2" izz="0.3"'}
    [found] = [f for f in audit([str(model)]).findings if f.code == "GZI109"]
    assert 'attributes ixx="0.1" iyy="0.2" izz="0.3" are URDF style' in found.message
    assert "1 kg·m² for 2 kg" in found.message
