"""Hostile and broken input: one clear error naming file and line, never a traceback.

Hand-written cases cover the classic attacks and breakages; property-based tests mutate real
SDF (the bundled examples and corpus files) and check that reading either fails with a
`GzInertiaError` whose message names the file, or the document goes through `show`'s summary and
every audit rule without an exception. The default run draws 1,000 mutated
files; `make test-slow` draws 10,000.
"""

# The SDF texts here stay inline: hostile and broken bytes, and the lines they name, are the point.

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import CORPUS, EXAMPLES, NASTY_VALUES, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gzinertia.audit.config import AuditConfig
from gzinertia.audit.runner import check_document
from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.report.show import document_summary
from gzinertia.sdf import read_sdf_bytes

MODEL = b'<sdf version="1.10"><model name="m"><link name="a">%s</link></model></sdf>'

CASES = {
    "billion laughs": (
        b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        b'<sdf version="1.10"><model name="&b;"/></sdf>',
        "refusing a DTD that declares entities",
    ),
    "external entity": (
        b'<?xml version="1.0"?><!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<sdf version="1.10"><model name="m"><link name="&x;"/></model></sdf>',
        "refusing a DTD that declares entities",
    ),
    "too deep": (
        b'<sdf version="1.10"><model name="m">' + b"<a>" * 400 + b"</a>" * 400 + b"</model></sdf>",
        "nested deeper than",
    ),
    "nan mass": (MODEL % b"<inertial><mass>nan</mass></inertial>", "<mass> value 'nan' is not finite"),
    "inf inertia": (
        MODEL % b"<inertial><inertia><ixx>inf</ixx></inertia></inertial>",
        "<ixx> value 'inf' is not finite",
    ),
    "overflow": (MODEL % b"<inertial><mass>1e999</mass></inertial>", "not finite"),
    "out of range": (
        MODEL % b"<inertial><inertia><ixx>-3e200</ixx></inertia></inertial>", "out of range"
    ),
    # (an empty <mass> is libsdformat's 1 kg, GZI112; an empty <ixx> is an error to it too)
    "empty value": (
        MODEL % b"<inertial><inertia><ixx> </ixx></inertia></inertial>", "<ixx> needs 1 numbers"
    ),
    "words in a pose": (MODEL % b"<pose>1 2 three 0 0 0</pose>", "'three' is not a number"),
    "short pose": (MODEL % b"<pose>1 2</pose>", "<pose>"),
    "truncated": (b'<sdf version="1.10"><model name="m"><link name="a"><inert', "not well-formed XML"),
    "binary garbage": (bytes(range(256)) * 4, "not well-formed XML"),
    "empty file": (b"   \n", "file is empty"),
    "no model name": (b'<sdf version="1.10"><model><link name="a"/></model></sdf>', "no name"),
    "bad encoding declaration": (
        b'<?xml version="1.0" encoding="no-such-codec"?><sdf version="1.10"/>',
        "",
    ),
    "invalid utf-8": (MODEL % b"<inertial><mass>\xff\xfe</mass></inertial>", "not well-formed XML"),
}


@pytest.mark.parametrize(("data", "expected"), CASES.values(), ids=CASES.keys())
def test_hostile_input_gives_one_clear_error(data: bytes, expected: str) -> None:
    with pytest.raises(SdfError) as err:
        read_sdf_bytes(data, "hostile.sdf")
    assert str(err.value).startswith("hostile.sdf")
    assert expected in str(err.value)


def test_cli_reports_the_file_and_line_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.sdf"
    path.write_bytes(b'<sdf version="1.10">\n<model name="m">\n<link name="a">\n'
                     b"<inertial><mass>abc</mass></inertial>\n</link></model></sdf>\n")
    status, out, err = run_cli(["show", str(path)], capsys)
    assert status == 2 and out == ""
    assert err == f"gzinertia: error: {path}:4: <mass> value 'abc' is not a number\n"


def test_include_cycles_are_reported(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for name, other in (("a", "b"), ("b", "a")):
        (tmp_path / name / "model.config").write_text(
            f"<model><name>{name}</name><sdf version='1.10'>model.sdf</sdf></model>"
        )
        (tmp_path / name / "model.sdf").write_text(
            f'<sdf version="1.10"><model name="{name}"><link name="l"/>'
            f"<include><uri>model://{other}</uri><name>{other}_inc</name></include></model></sdf>"
        )
    from gzinertia.sdf import read_sdf_file

    with pytest.raises(GzInertiaError, match="include"):
        read_sdf_file(tmp_path / "a" / "model.sdf", [tmp_path])


# --- mutations of real files ------------------------------------------------------------------


def _seed_files() -> list[bytes]:
    files = sorted(EXAMPLES.rglob("*.sdf"))
    if CORPUS.is_dir():
        picks = ("box_rov", "tethys", "bluerov2", "pr2", "fluid_added_mass", "rexrov", "buoy")
        files += [p for p in sorted(CORPUS.rglob("*.sdf")) if any(k in str(p) for k in picks)][:12]
    return [p.read_bytes() for p in files]


SEEDS = _seed_files()


@st.composite
def mutated_sdf(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["value", "delete", "insert", "truncate", "duplicate"]))
        if kind == "value":
            # Replace the text of a random leaf element with a nasty value.
            starts = [i for i in range(len(data) - 1) if data[i] == ord(">") and data[i + 1] != ord("<")]
            if not starts:
                continue
            i = draw(st.sampled_from(starts)) + 1
            j = data.find(b"<", i)
            if j > i:
                data[i:j] = draw(st.sampled_from(NASTY_VALUES))
        elif kind == "delete":
            i = draw(st.integers(0, max(0, len(data) - 1)))
            data[i : i + draw(st.integers(1, 64))] = b""
        elif kind == "insert":
            i = draw(st.integers(0, len(data)))
            data[i:i] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "truncate":
            del data[draw(st.integers(0, len(data))) :]
        else:
            i = draw(st.integers(0, max(0, len(data) - 1)))
            data[i:i] = data[i : i + draw(st.integers(1, 200))]
    return bytes(data)


def _read_and_summarise(data: bytes) -> None:
    """Reading either fails with a clear error, or `show`'s summary and every audit rule run."""
    try:
        doc = read_sdf_bytes(data, "mutated.sdf", [EXAMPLES])
    except GzInertiaError as exc:
        assert str(exc).startswith("mutated.sdf"), str(exc)
        return
    document_summary(doc, list(doc.links), "angular-first")
    check_document(doc, AuditConfig())


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
@given(mutated_sdf())
def test_mutated_real_files_never_raise_anything_but_a_clear_error(data: bytes) -> None:
    _read_and_summarise(data)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("GZI_LONG_EXAMPLES", "10000")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(mutated_sdf())
def test_mutated_real_files_long_run(data: bytes) -> None:
    _read_and_summarise(data)
