"""Many links in one edit of a :class:`~gzinertia.edit.model_file.ModelFile`: new Hydrodynamics
plugins of one model side by side (two used to collide at one byte), and
:meth:`~gzinertia.edit.model_file.EditedFile.batch`, which reads back and audits the edit of many
links once, giving the same :class:`~gzinertia.edit.edit_result.Edit` as one call after
another.

Oracles: libsdformat's compiled model dump reads the plugins written; the audit of the file
before and after (``new_findings``) judges them as any hand-written file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from lxml import etree
from test_model_file import new_findings, random_added_mass

import gzinertia
from gzinertia.errors import GzInertiaError
from gzinertia.spatial.added_mass import AddedMass

#: Per link, the terms given (the plugin's names; link frame, about the link origin).
TERMS = {
    "bow": {"xU": -12.5, "yVabsV": -80.25, "nR": -3.0625},
    "stern": {"xU": -7.75, "zW": -40.5, "mQabsQ": -1.5},
    "keel": {"yV": -9.0, "kP": -0.625},
}


def fleet(names: list[str]) -> str:
    """One SDF 1.9 model of boxes 3 m apart, none with a Hydrodynamics plugin."""
    return sdf.model(*(sdf.link(name, sdf.inertial(30.0, np.diag([2.0, 5.0, 6.0])),
                                sdf.box((2, 0.6, 0.4)), pose=(3.0 * i, 0, 0, 0, 0, 0))
                       for i, name in enumerate(names)), version="1.9", name="fleet")


@pytest.mark.oracle("sdformat")
def test_two_links_without_a_plugin_get_one_plugin_each_in_one_edit(tmp_path: Path) -> None:
    from oracles.sdformat_model import build_sdformat_model_dump, dump_models

    if build_sdformat_model_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    names = ["bow", "stern"]
    path = sdf.write(tmp_path, fleet(names))
    original = sdf.write(tmp_path, fleet(names), "original.sdf")
    model = gzinertia.edit(path)
    model.set_plugin_terms("bow", TERMS["bow"], water_density=1025.0)
    edit = model.set_plugin_terms("stern", TERMS["stern"], water_density=1025.0)
    assert [outcome.link.name for outcome in edit.links] == ["fleet::bow", "fleet::stern"]
    edit.write()
    [dumped] = dump_models([path])
    plugins = [etree.fromstring(p["xml"]) for p in dumped["plugins"]
               if "Hydrodynamics" in p["name"]]
    read = {xml.findtext("link_name"): {n: float(xml.findtext(n))
                                        for n in TERMS[xml.findtext("link_name")]}
            for xml in plugins}
    assert read == {name: TERMS[name] for name in names} and len(plugins) == 2
    assert new_findings(original, path) == []


def _edit_many(path: Path, batch: bool) -> gzinertia.Edit:
    """Added mass on two links and plugin terms on the third, of one ModelFile: in a batch, or
    one call after another (the last call's edit)."""
    model = gzinertia.edit(path)
    calls = [
        lambda: model.set_added_mass("bow", AddedMass(random_added_mass(1), ordering="linear-first")),
        lambda: model.set_added_mass("stern",
                                     AddedMass(random_added_mass(2), ordering="linear-first")),
        lambda: model.set_plugin_terms("keel", TERMS["keel"], water_density=1000.0),
    ]
    if not batch:
        return [call() for call in calls][-1]
    with model.batch() as many:
        for call in calls:
            call()
    return many.edit


def test_a_batch_gives_the_edit_of_one_call_after_another(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, fleet(list(TERMS)))
    one_by_one, batched = _edit_many(path, batch=False), _edit_many(path, batch=True)
    assert batched.new == one_by_one.new and batched.changed
    for field in ("warnings", "notes", "pending", "skipped"):
        assert getattr(batched, field) == getattr(one_by_one, field), field
    assert [o.link.name for o in batched.links] == [o.link.name for o in one_by_one.links]
    batched.write()
    assert new_findings(sdf.write(tmp_path, fleet(list(TERMS)), "original.sdf"), path) == []


def test_a_batch_reads_back_and_audits_once_whatever_its_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The audit (``fix_findings``) runs on the file as read and on the result, once each, for
    a batch of any number of links; one call after another audits the file as read once."""
    from gzinertia.edit import model_file, sdf_file

    audits: list[object] = []
    reads: list[object] = []
    real_audit, real_read = model_file.fix_findings, sdf_file.verify_edit
    monkeypatch.setattr(model_file, "fix_findings",
                        lambda *a, **k: audits.append(a[0]) or real_audit(*a, **k))
    monkeypatch.setattr(sdf_file, "verify_edit",
                        lambda *a, **k: reads.append(a[0]) or real_read(*a, **k))
    names = [f"hull_{i}" for i in range(6)]
    path = sdf.write(tmp_path, fleet(names))
    model = gzinertia.edit(path)
    with model.batch() as many:
        for name in names:
            model.set_plugin_terms(name, {"xU": -1.0}, water_density=1000.0)
    assert (len(audits), len(reads), len(many.edit.links)) == (2, 1, len(names))
    audits.clear()
    model = gzinertia.edit(path)
    for name in names:
        model.set_plugin_terms(name, {"xU": -1.0}, water_density=1000.0)
    assert len(audits) == 1 + len(names)  # the file as read once, the result per call


def test_a_failed_call_in_a_batch_leaves_no_edit_and_batches_do_not_nest(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, fleet(list(TERMS)))
    model = gzinertia.edit(path)
    with pytest.raises(GzInertiaError, match="no link is named"), model.batch() as many:
        model.set_plugin_terms("bow", TERMS["bow"], water_density=1000.0)
        model.set_plugin_terms("rudder", TERMS["bow"], water_density=1000.0)
    with pytest.raises(GzInertiaError, match="no edit"):
        _ = many.edit
    with pytest.raises(GzInertiaError, match="batch is open"), model.batch(), model.batch():
        pass


@pytest.mark.parametrize("parent", ["model", "inertial"])
def test_lines_appended_to_one_element_twice_are_one_insertion_in_order(parent: str) -> None:
    """Two appends to one element (an open one, a self-closing one) give the bytes of one
    append of both, the first's lines first; the other edits of the file stay where they are."""
    from gzinertia.edit.editor import XmlEditor

    data = (b'<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n'
            b'    <link name="a">\n      <inertial/>\n    </link>\n  </model>\n</sdf>\n')
    first, second = ["<!-- one -->", "<pose>1 0 0 0 0 0</pose>"], ["<!-- two -->"]

    def edited(*appends: list[str]) -> bytes:
        editor = XmlEditor(data, "m.sdf")
        element = next(editor.root.iter(parent))
        editor.set_attribute(next(editor.root.iter("link")), "name", "b")
        for lines in appends:
            editor.append_child_lines(element, lines)
        return editor.result()

    twice, once = edited(first, second), edited([*first, *second])
    assert twice == once and b'<link name="b">' in twice
    assert twice.index(b"one") < twice.index(b"two")
    assert etree.fromstring(twice).find(f".//{parent}/pose") is not None
