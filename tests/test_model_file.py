"""One format backend (``gzinertia.edit(path)``, :mod:`gzinertia.edit.model_file`): a matrix the
caller computed is written as its format carries it, and reads back where the spec puts it.

* SDFormat: ``<fluid_added_mass>`` about the link origin in link axes. libsdformat 12 (the
  compiled oracle) predates the element, so the element is read back here by the spec's own
  definition (21 tags, the upper triangle of ``[x y z p q r]``, DESIGN.md §3) from the written
  bytes, and libsdformat checks that every other number of the file (link poses, masses,
  inertial frames, inertias) reads as before.
* URDF: libsdformat's own URDF→SDF conversion (``oracles/sdformat_model_dump.cc``) carries the
  ``<gazebo>`` Hydrodynamics block; its ``<iDotJ>`` terms, read from libsdformat's output, give
  ``A = -sym(D)`` about the link origin in link axes.
* Rigid inertia: libsdformat reads back the mass and ``I_BBcm_I`` given.
* The audit after the edit adds no finding; the refusals of today's edits hold.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sdf_builders as sdf
from lxml import etree

import gzinertia
from gzinertia.errors import GzInertiaError
from gzinertia.spatial.added_mass import AddedMass

#: ``<fluid_added_mass>`` children in the spec's order: the upper triangle of [x y z p q r].
SPEC_AXES = "xyzpqr"
SPEC_TAGS = [SPEC_AXES[i] + SPEC_AXES[j] for i in range(6) for j in range(i, 6)]

I_BBcm_I = np.array([[0.9, 0.01, -0.02], [0.01, 3.1, 0.03], [-0.02, 0.03, 3.3]])
#: A glider posed off the model origin, its inertial off the link origin and rotated (so the
#: link origin is neither the centre of mass nor in the inertial axes), SDF 1.9 (upgraded).
GLIDER = sdf.model(
    sdf.link("body", sdf.inertial(42.0, I_BBcm_I, com=(0.12, 0.03, -0.02), rpy=(0.2, 0.1, -0.4)),
             sdf.box((1, 0.4, 0.3), pose=None, name="hull"), pose=(1, 2, -3, 0.1, 0.2, 0.3)),
    sdf.link("wing", sdf.inertial(3.0, 0.1 * np.eye(3)), sdf.box((0.1, 2, 0.02), pose=None),
             pose=(0, 0, 0.5, 0, 0, 0)),
    version="1.9", name="glider",
)

URDF = """<robot name="auv">
  <link name="hull">
    <inertial><origin xyz="0.05 0 -0.01" rpy="0.1 0 0.2"/><mass value="50"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="8" iyz="0" izz="8"/>
    </inertial>
    <collision><geometry><box size="2 0.5 0.4"/></geometry></collision>
  </link>
</robot>
"""


def random_added_mass(seed: int) -> np.ndarray:
    """A symmetric positive-definite 6x6 with kg, kg*m and kg*m^2 blocks of sizes alike."""
    rng = np.random.default_rng(seed)
    L = rng.normal(size=(6, 6))
    return L @ L.T + 6.0 * np.eye(6)


def spec_read(data: bytes, link: str) -> np.ndarray:
    """The link's ``<fluid_added_mass>`` by the spec's definition (missing entries are 0)."""
    root = etree.fromstring(data)
    [element] = root.xpath(f"//link[@name='{link}']/inertial/fluid_added_mass")
    A = np.zeros((6, 6))
    for tag in SPEC_TAGS:
        found = element.find(tag)
        i, j = SPEC_AXES.index(tag[0]), SPEC_AXES.index(tag[1])
        A[i, j] = A[j, i] = 0.0 if found is None else float(found.text)
    return A


def libsdformat(path: Path) -> dict[str, tuple[object, ...]]:
    """libsdformat's links of ``path``: pose, mass, inertial frame and inertia, by name."""
    from oracles.sdformat_oracle import build_sdformat_dump, read_with_sdformat

    if build_sdformat_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    [result] = read_with_sdformat([path])
    assert result["root"] != "none", result["errors"][:3]
    return {lk["name"]: (tuple(lk["X_WB"]), lk["mass"], tuple(lk["X_BI"]), tuple(lk["I"]))
            for lk in result["links"]}


def new_findings(before: Path, after: Path) -> list[str]:
    """Findings of the audit of ``after`` that the audit of ``before`` did not report."""
    had = {(f.code, f.link) for f in gzinertia.audit_paths([before])}
    return [f"{f.code} {f.link}: {f.message}" for f in gzinertia.audit_paths([after])
            if (f.code, f.link) not in had]


@pytest.mark.oracle("sdformat")
def test_sdf_added_mass_reads_back_about_the_link_origin_and_nothing_else_moves(
    tmp_path: Path,
) -> None:
    path = sdf.write(tmp_path, GLIDER)
    original = sdf.write(tmp_path, GLIDER, "original.sdf")
    A = random_added_mass(7)
    edit = gzinertia.edit(path).set_added_mass("body", AddedMass(A, ordering="linear-first"))
    assert edit.changed and path.read_text() == GLIDER  # nothing written yet
    edit.write()
    written = path.read_bytes()
    assert written == edit.new
    got = spec_read(written, "body")
    assert np.max(np.abs(got - A)) <= 1e-9 * np.max(np.abs(A))
    # the version was raised as addmass raises it, and said
    assert b'<sdf version="1.10">' in written and any("1.10" in n for n in edit.notes)
    # libsdformat reads every other number as before
    assert libsdformat(path) == libsdformat(original)
    assert new_findings(original, path) == []
    [outcome] = edit.links
    assert outcome.link.name == "glider::body"
    assert np.array_equal(outcome.A_BBo_B.linear_first(), A)


def test_a_matrix_about_another_point_or_axes_is_refused_with_the_way_to_move_it(
    tmp_path: Path,
) -> None:
    path = sdf.write(tmp_path, GLIDER)
    model = gzinertia.edit(path)
    A = AddedMass(random_added_mass(1), ordering="linear-first", point="Bcm", axes="I")
    with pytest.raises(GzInertiaError, match=r"about Bcm in I axes.*shift\(p, 'Bo'\)"):
        model.set_added_mass("body", A)
    with pytest.raises(GzInertiaError, match="not a bare array"):
        model.set_added_mass("body", random_added_mass(1))  # type: ignore[arg-type]


def test_existing_added_mass_is_replaced_only_with_force(tmp_path: Path) -> None:
    A0 = random_added_mass(2)
    text = sdf.model(sdf.link("body", sdf.inertial(5.0, np.eye(3), A=A0), sdf.box((1, 1, 1))))
    path = sdf.write(tmp_path, text)
    A = AddedMass(random_added_mass(3), ordering="linear-first")
    with pytest.raises(GzInertiaError, match="force=True"):
        gzinertia.edit(path).set_added_mass("body", A)
    edit = gzinertia.edit(path).set_added_mass("body", A, force=True)
    assert np.allclose(spec_read(edit.new, "body"), A.linear_first(), rtol=1e-9, atol=0)


def test_a_plugin_applying_added_mass_is_turned_off_only_when_asked(tmp_path: Path) -> None:
    plugin = sdf.hydro_plugin("body", {"xDotU": -5.0, "yDotV": -7.0})
    text = sdf.model(sdf.link("body", sdf.inertial(5.0, np.eye(3)), sdf.box((1, 1, 1))), plugin)
    path = sdf.write(tmp_path, text)
    A = AddedMass(random_added_mass(4), ordering="linear-first")
    with pytest.raises(GzInertiaError, match="count it twice"):
        gzinertia.edit(path).set_added_mass("body", A)
    edit = gzinertia.edit(path).set_added_mass("body", A, replace_plugin_added_mass=True)
    assert b"<disable_added_mass>true</disable_added_mass>" in edit.new
    assert any("turned off the added mass" in n for n in edit.notes)


@pytest.mark.oracle("sdformat")
def test_urdf_added_mass_is_the_plugin_block_libsdformat_carries(tmp_path: Path) -> None:
    from oracles.sdformat_model import build_sdformat_model_dump, dump_models

    if build_sdformat_model_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    path = tmp_path / "auv.urdf"
    path.write_text(URDF)
    original = tmp_path / "original.urdf"
    original.write_text(URDF)
    A = random_added_mass(5)
    edit = gzinertia.edit(path).set_added_mass("hull", AddedMass(A, ordering="linear-first"))
    assert "gz-sim#1462" in " ".join(edit.notes)  # applied explicitly by the plugin: said
    edit.write()
    [model] = dump_models([path])
    plugins = [p for p in model["plugins"] if "Hydrodynamics" in p["name"]]
    plugins += [p for lk in model["links"] for p in lk["plugins"] if "Hydrodynamics" in p["name"]]
    [plugin] = plugins
    xml = etree.fromstring(plugin["xml"])
    assert xml.findtext("link_name") == "hull"
    velocities, forces = "UVWPQR", "xyzkmn"
    D = np.zeros((6, 6))
    for i in range(6):
        for j in range(6):
            text = xml.findtext(f"{forces[i]}Dot{velocities[j]}")
            D[i, j] = 0.0 if text is None else float(text)
    assert np.max(np.abs(-(D + D.T) / 2 - A)) <= 1e-9 * np.max(np.abs(A))
    assert new_findings(original, path) == []


@pytest.mark.oracle("sdformat")
def test_sdf_inertia_reads_back_in_libsdformat(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, GLIDER)
    original = sdf.write(tmp_path, GLIDER, "original.sdf")
    I_new = np.array([[1.2, 0.02, 0.0], [0.02, 2.9, -0.01], [0.0, -0.01, 3.4]])
    edit = gzinertia.edit(path).set_inertia("glider::body", mass=40.0, I_BBcm_I=I_new)
    edit.write()
    before, after = libsdformat(original), libsdformat(path)
    X_WB, mass, X_BI, I = after["glider::body"]
    assert before["glider::body"][::2] == (X_WB, X_BI) and mass == 40.0
    # [ixx, iyy, izz, ixy, ixz, iyz] about Bcm in I axes, as given
    assert I == (1.2, 2.9, 3.4, 0.02, 0.0, -0.01)
    assert after["glider::wing"] == before["glider::wing"]
    [fix] = edit.links
    assert fix.mass_after == 40.0 and fix.repair.method == "given"


def test_an_invalid_inertia_is_refused(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, GLIDER)
    with pytest.raises(GzInertiaError, match="not valid"):
        gzinertia.edit(path).set_inertia("body", I_BBcm_I=np.diag([1.0, 1.0, 3.0]))


@pytest.mark.oracle("sdformat")
def test_urdf_inertia_is_written_into_the_link_and_libsdformat_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "auv.urdf"
    path.write_text(URDF)
    I_new = np.diag([1.5, 7.5, 7.9])
    edit = gzinertia.edit(path).set_inertia("hull", mass=48.0, I_BBcm_I=I_new)
    assert edit.pending == ()
    edit.write()
    from oracles.sdformat_model import build_sdformat_model_dump, dump_models

    if build_sdformat_model_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    [model] = dump_models([path])
    [hull] = model["links"]
    assert hull["mass"] == 48.0 and hull["I"] == [1.5, 7.5, 7.9, 0.0, 0.0, 0.0]


def test_a_link_name_is_a_name_not_a_glob(tmp_path: Path) -> None:
    path = sdf.write(tmp_path, GLIDER)
    A = AddedMass(random_added_mass(6), ordering="linear-first")
    with pytest.raises(GzInertiaError, match=r"no link is named '\*'"):
        gzinertia.edit(path).set_added_mass("*", A)


def test_a_fluid_ellipsoid_overlapping_one_with_added_mass_is_refused_unless_allowed(
    tmp_path: Path,
) -> None:
    A0 = random_added_mass(9)
    text = sdf.model(
        sdf.link("a", sdf.inertial(5.0, np.eye(3), A=A0), sdf.box((1, 1, 1))),
        sdf.link("b", sdf.inertial(5.0, np.eye(3)), sdf.box((1, 1, 1)),
                 pose=(0.2, 0, 0, 0, 0, 0)),
    )
    path = sdf.write(tmp_path, text)
    A = AddedMass(random_added_mass(10), ordering="linear-first")
    with pytest.raises(GzInertiaError, match="overlaps that of m::a"):
        gzinertia.edit(path).set_added_mass("b", A)
    edit = gzinertia.edit(path).set_added_mass("b", A, allow_overlap=True)
    assert any("counts twice" in w for w in edit.warnings)


@pytest.mark.oracle("sdformat")
def test_plugin_terms_read_back_through_libsdformat(tmp_path: Path) -> None:
    from oracles.sdformat_model import build_sdformat_model_dump, dump_models

    if build_sdformat_model_dump() is None:
        pytest.skip("libsdformat oracle unavailable")
    text = sdf.model(sdf.link("hull", sdf.inertial(30.0, np.diag([2.0, 5.0, 6.0])),
                              sdf.box((2, 0.6, 0.4))), version="1.9", name="auv")
    path = sdf.write(tmp_path, text)
    original = sdf.write(tmp_path, text, "original.sdf")
    terms = {"xU": -12.5, "yVabsV": -80.25, "nR": -3.0625, "xDotU": -4.5}
    model = gzinertia.edit(path)
    with pytest.raises(GzInertiaError, match="water_density"):
        model.set_plugin_terms("hull", terms)
    edit = model.set_plugin_terms("hull", terms, water_density=1025.0)
    edit.write()
    [dumped] = dump_models([path])
    [plugin] = [p for p in dumped["plugins"] if "Hydrodynamics" in p["name"]]
    xml = etree.fromstring(plugin["xml"])
    assert xml.findtext("link_name") == "hull" and float(xml.findtext("water_density")) == 1025.0
    assert {n: float(xml.findtext(n)) for n in terms} == terms
    assert new_findings(original, path) == []
    # a value it has already is replaced only with force
    with pytest.raises(GzInertiaError, match="xU already"):
        gzinertia.edit(path).set_plugin_terms("hull", {"xU": -20.0})
    again = gzinertia.edit(path).set_plugin_terms("hull", {"xU": -20.0, "zW": -7.0}, force=True)
    again.write()
    [link] = gzinertia.read(path).links
    assert {n: link.hydrodynamics[0].terms[n] for n in ("xU", "zW", "nR")} == {
        "xU": -20.0, "zW": -7.0, "nR": -3.0625}


def test_plugin_added_mass_beside_fluid_added_mass_is_refused(tmp_path: Path) -> None:
    text = sdf.model(sdf.link("hull", sdf.inertial(5.0, np.eye(3), A=random_added_mass(11)),
                              sdf.box((1, 1, 1))))
    path = sdf.write(tmp_path, text)
    with pytest.raises(GzInertiaError, match="count twice"):
        gzinertia.edit(path).set_plugin_terms("hull", {"xDotU": -3.0}, water_density=1000.0)
    with pytest.raises(GzInertiaError, match="not Hydrodynamics plugin terms"):
        gzinertia.edit(path).set_plugin_terms("hull", {"xdotu": -3.0}, water_density=1000.0)


def test_bad_values_and_links_are_refused_in_one_line_and_nothing_changes(tmp_path: Path) -> None:
    static = sdf.model(sdf.link("dock", sdf.inertial(5.0, np.eye(3)), sdf.box((1, 1, 1))),
                       static=True)
    path = sdf.write(tmp_path, static)
    A = random_added_mass(12)
    with pytest.raises(GzInertiaError, match="static"):
        gzinertia.edit(path).set_added_mass("dock", AddedMass(A, ordering="linear-first"))
    path = sdf.write(tmp_path, GLIDER)
    A[0, 0] = np.nan
    with pytest.raises(GzInertiaError, match="non-finite"):
        gzinertia.edit(path).set_added_mass("body", AddedMass(A, ordering="linear-first"))
    with pytest.raises(GzInertiaError, match="positive number of kg"):
        gzinertia.edit(path).set_inertia("body", mass=-1.0)
    assert path.read_text() == GLIDER
