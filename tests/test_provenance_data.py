"""Structure, not English (issue 26 item 7).

Provenance comments carry their facts as versioned ``key=value`` data after the sentence
(:mod:`gzinertia.physics.provenance_comment`, their one writer and reader); comments written
before (files in the wild carry them) read as they did. Findings say their macro call as a
field, and GZI002 finds its include by the URI the reader recorded, not by searching a message.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import findings_of
from sdf_builders import (
    box,
    box_inertia,
    cylinder,
    hydro_plugin,
    include,
    inertial,
    link,
    model,
    world,
    write,
)

import gzinertia
from gzinertia.audit.findings import MACRO_CALL_WORDS, Finding
from gzinertia.edit.addmass import provenance
from gzinertia.edit.links import ascii_comment
from gzinertia.physics.bem_provenance import BemProvenance, parse_provenance
from gzinertia.physics.fit_provenance import FitProvenance, parse_fit_provenance
from gzinertia.physics.fits import EllipsoidFit, explicit_fit, fit_link
from gzinertia.physics.mesh_body import HULL_USED, WRAP_USED
from gzinertia.physics.provenance_comment import (
    MARKER,
    VERSION,
    bem_comment,
    comment_data,
    import_geometry,
    names_visuals,
    sentence_of,
)
from gzinertia.sdf.reader import read_sdf_file

#: Comments as ``addmass`` wrote them before the data existed, copied from the project's own
#: pages (docs/bem.md, docs/rules/GZI212.md), with what they say.
OLD_BEM_COMMENTS = {
    "gzinertia addmass: BEM added mass (Capytaine 3.0.0, direct method, 2268 panels, infinite "
    "frequency, unbounded fluid, estimated discretisation error 3 %); geometry "
    "collisions=frame,tube; mesh digest sha256:e65fd00281961343; fluid density 1000 kg/m^3; "
    "about the link origin in link axes":
        BemProvenance(("frame", "tube"), "sha256:e65fd00281961343"),
    "gzinertia addmass: BEM added mass (Capytaine 3.0.0, direct method, 616 panels, infinite "
    "frequency, unbounded fluid, estimated discretisation error 2 %); geometry collisions=hull; "
    "mesh digest sha256:d3b8915fa5ff5821; fluid density 1000 kg/m^3; about the link origin in "
    "link axes":
        BemProvenance(("hull",), "sha256:d3b8915fa5ff5821"),
}


def _hull_link(tmp_path: Path) -> gzinertia.records.LinkRecord:
    text = model(link("hull", inertial(20.0, box_inertia(20.0, (1.0, 0.3, 0.2))),
                      box((1.0, 0.3, 0.2)), cylinder(0.1, 0.4, pose=(0.6, 0, 0, 0, 1.5708, 0))))
    return read_sdf_file(write(tmp_path, text)).links[0]


def _fits(tmp_path: Path) -> list[EllipsoidFit]:
    hull = _hull_link(tmp_path)
    return [fit_link(hull, m) for m in ("volume", "mujoco", "inertia")] + [
        explicit_fit((0.5, 0.2, 0.15), (0.1, -0.02, 0.0), (0.1, -0.3, 2.0))
    ]


def _same_fit(a: FitProvenance | None, b: FitProvenance | None) -> None:
    assert a is not None and b is not None
    assert (a.method, a.hull) == (b.method, b.hull)
    assert a.density == pytest.approx(b.density, rel=1e-6)
    if a.explicit is None or b.explicit is None:
        assert a.explicit is None and b.explicit is None
        return
    np.testing.assert_allclose(np.ravel(a.explicit), np.ravel(b.explicit), rtol=1e-6, atol=1e-6)


# --- fits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("density", [1025.0, 998.2071])
def test_a_fit_comment_carries_its_facts_as_data(tmp_path: Path, density: float) -> None:
    for fit in _fits(tmp_path):
        comment = provenance(fit, density)
        data = comment_data(comment)
        assert data is not None and data["kind"] == "ellipsoid", comment
        assert data["method"] == fit.method and float(data["density"]) == density
        read = parse_fit_provenance(comment)
        assert read is not None and read.density == density  # exact, not 6 digits
        if fit.method == "explicit":
            assert read.explicit is not None
            refit = explicit_fit(*read.explicit)
            np.testing.assert_allclose(refit.added_mass(1.0).linear_first(),
                                       fit.added_mass(1.0).linear_first(), rtol=1e-12, atol=1e-12)


def test_an_old_fit_comment_reads_as_the_new_one_does(tmp_path: Path) -> None:
    """The sentence is what was written before the data; it alone reads to the same fit."""
    for fit in _fits(tmp_path):
        comment = provenance(fit, 1025.0)
        old = sentence_of(comment)
        assert MARKER not in old and comment.startswith(old)
        _same_fit(parse_fit_provenance(old), parse_fit_provenance(comment))


def test_words_after_the_data_leave_it_readable(tmp_path: Path) -> None:
    """URDF's Hydrodynamics block adds why the plugin applies it after the comment."""
    comment = provenance(_fits(tmp_path)[1], 1025.0) + "; applied explicitly by the plugin"
    assert comment_data(comment) is not None
    assert sentence_of(comment).endswith("in link axes; applied explicitly by the plugin")
    _same_fit(parse_fit_provenance(comment), parse_fit_provenance(sentence_of(comment)))
    read = parse_fit_provenance(comment)
    assert read is not None and (read.method, read.density) == ("mujoco", 1025.0)


def test_the_data_is_read_not_the_sentence(tmp_path: Path) -> None:
    comment = provenance(_fits(tmp_path)[0], 1000.0)  # a volume fit
    forged = comment.replace("method=volume", "method=mujoco")
    read = parse_fit_provenance(forged)
    assert read is not None and read.method == "mujoco"


def test_a_newer_version_falls_back_to_the_sentence(tmp_path: Path) -> None:
    comment = provenance(_fits(tmp_path)[0], 1000.0)
    newer = comment.replace(f"{MARKER}{VERSION} ", f"{MARKER}{VERSION + 1} ").replace(
        "method=volume", "method=futuristic")
    assert comment_data(newer) is None
    read = parse_fit_provenance(newer)
    assert read is not None and read.method == "volume"


@pytest.mark.parametrize(("words", "hull"), [(HULL_USED, "convex"), (WRAP_USED, "wrap")])
def test_a_hull_fallback_is_data(tmp_path: Path, words: str, hull: str) -> None:
    fit = _fits(tmp_path)[0]
    hulled = EllipsoidFit(fit.method, fit.ellipsoids, fit.description,
                          f"mesh 'hull.stl': {words} (an approximation)")
    comment = provenance(hulled, 1000.0)
    assert comment_data(comment)["hull"] == hull  # type: ignore[index]
    read, old = parse_fit_provenance(comment), parse_fit_provenance(sentence_of(comment))
    assert read is not None and read.hull == hull
    _same_fit(read, old)


def test_written_by_addmass_and_read_back_from_the_file(tmp_path: Path) -> None:
    hull = _hull_link(tmp_path)
    path = Path(hull.source.file)
    path.write_text(gzinertia.addmass(path, density=1025.0, method="mujoco").text)
    comment = read_sdf_file(path).links[0].inertial.added_mass_comment
    assert comment is not None and f"{MARKER}{VERSION} kind=ellipsoid" in comment
    read = parse_fit_provenance(comment)
    assert read is not None and (read.method, read.density) == ("mujoco", 1025.0)
    assert findings_of(tmp_path, path.read_text(), "GZI204") == []


# --- BEM and imports ----------------------------------------------------------------------------


def _bem(names: list[str], element: str = "collision",
         digest: str = "sha256:d3b8915fa5ff5821") -> str:
    return bem_comment(capytaine_version="3.0.0", method="direct", panels=616,
                       frequency="infinite", fluid_domain="unbounded fluid",
                       relative_error=0.02, collisions=names, digest=digest,
                       density=1000.0, element=element)  # type: ignore[arg-type]


def test_old_bem_comments_read_as_they_did() -> None:
    for comment, expected in OLD_BEM_COMMENTS.items():
        assert comment_data(comment) is None
        read = parse_provenance(comment)
        assert read is not None
        assert asdict(read) == asdict(expected)
        # and the comment written today for the same solve reads the same
        today = parse_provenance(_bem(list(expected.collisions), digest=expected.digest))
        assert today is not None and asdict(today) == asdict(expected)


def test_shape_names_survive_the_data_where_the_sentence_mangles_them() -> None:
    names = ["hull, port", "fin--1", "tête", "a=b;c", "x]"]
    comment = ascii_comment(_bem(names, "visual"))
    assert "--" not in comment and comment.isascii()
    read = parse_provenance(comment)
    assert read is not None and read.collisions == tuple(names) and read.element == "visual"
    assert names_visuals(comment) and not names_visuals(_bem(["hull"]))


def test_an_import_comment_carries_its_dataset() -> None:
    comment = ascii_comment(
        "gzinertia addmass: imported added mass (Capytaine 3.0.0 dataset hull.nc, omega inf "
        "rad/s, fluid density 1025 kg/m^3); "
        + import_geometry("collision", ["hull"], "sha256:0123456789abcdef", "sha256:fedcba9876543210")
    )
    read, old = parse_provenance(comment), parse_provenance(sentence_of(comment))
    assert read is not None and old is not None
    assert asdict(read) == asdict(old)
    assert (read.origin, read.dataset_digest) == ("imported", "sha256:fedcba9876543210")


# --- findings -----------------------------------------------------------------------------------


def test_a_finding_says_its_macro_call_as_a_field() -> None:
    said = "mass is not positive"
    call = "robot.urdf.xacro:12"
    f = Finding("GZI101", "error", "a.urdf", 3, "r::base", said + MACRO_CALL_WORDS.format(call=call),
                {"xacro_call": call})
    assert (f.macro_call, f.rule_message) == (call, said)
    plain = Finding("GZI101", "error", "a.urdf", 3, "r::base", said, {})
    assert (plain.macro_call, plain.rule_message) == (None, said)


def test_gzi002_names_the_include_of_its_own_uri(tmp_path: Path) -> None:
    """Two includes of unknown schemes, one URI a prefix of the other: each finding speaks of
    the plugin inside its own include (a search of the message matched the shorter URI)."""
    text = world(
        include("foo://sub", "a", parts=[hydro_plugin("a_link", {"xDotU": -1.0})]),
        include("foo://submarine", "b", parts=[hydro_plugin("b_link", {"xDotU": -1.0})]),
        version="1.9",
    )
    found = sorted(findings_of(tmp_path, text, "GZI002"), key=lambda f: f.line)
    assert len(found) == 2
    assert "'a_link'" in found[0].message and "'b_link'" not in found[0].message
    assert "'b_link'" in found[1].message and "'a_link'" not in found[1].message
