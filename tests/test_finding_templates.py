"""Findings carry their message as a template and its arguments, the link's own name an
argument (issue 26 item 7): every rendering equals the message, no finding names its link
outside those arguments, and grouping findings on identical links compares templates and the
other arguments, never a link's name looked for in text (a link named like a word of the
message groups as any other; two findings whose texts name different links do not).

The findings come from the audit of the examples and the corpus (when present) and of generated
models whose counts follow from their construction.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import numpy as np
import pytest
from audit_helpers import findings_of, run
from conftest import CORPUS, EXAMPLES, REPO, run_cli
from sdf_builders import cylinder, inertial, link, model

from gzinertia.audit.cache_file import finding_from_json, finding_to_json
from gzinertia.audit.emit import finding
from gzinertia.audit.findings import LINK_ARGS, MACRO_CALL_ARG, Finding
from gzinertia.audit.message import Message, link_list, link_name
from gzinertia.records import SourceRef
from gzinertia.report.audit.lines import group_findings

#: Words of GZI105's and GZI107's messages (and of their plot hint) that name links here.
WORDS = {"GZI105": ("solid", "inertia", "see", "body", "check"),
         "GZI107": ("centre", "mass", "link", "frame", "see")}


@pytest.fixture(scope="module")
def audited() -> list[Finding]:
    """Every finding of the examples and, when present, the corpus."""
    paths = [EXAMPLES, *([CORPUS] if CORPUS.is_dir() else [])]
    return list(run(paths, model_paths=[str(CORPUS)] if CORPUS.is_dir() else []).findings)


def _without_link(f: Finding) -> str:
    """``f``'s message with the arguments that say its link (and its macro call) left empty."""
    template, args = f.said_apart_from_link
    return template.format_map({**dict(args), **dict.fromkeys((*LINK_ARGS, MACRO_CALL_ARG), "")})


def test_every_finding_is_its_template_rendered(audited: list[Finding]) -> None:
    assert len({f.code for f in audited}) >= 10  # many rules fired: the check is not vacuous
    for f in audited:
        assert f.message_template is not None
        assert f.message_template.format_map(f.message_args) == f.message, f.code


def test_no_finding_names_its_link_outside_its_arguments(audited: list[Finding]) -> None:
    on_links = [f for f in audited if f.link is not None and "::" in f.link]
    assert on_links
    for f in on_links:
        assert f.link is not None
        assert f.link not in _without_link(f), (f.code, f.message)
    # the rules that name their link do so through the arguments
    named = {f.code for f in on_links if LINK_ARGS & set(f.message_args)}
    assert {"GZI105", "GZI201", "GZI204"} <= named


def _rotor(name: str, i: int, izz: float, com: tuple[float, float, float]) -> str:
    """A rotor disk at x = i whose inertia is far too large for its collision (GZI105) and
    whose centre of mass is ``com`` (GZI107 when outside the disk)."""
    return link(name, inertial(0.05, np.diag([10.0, 10.0, izz]), com=com),
                cylinder(0.1, 0.01, pose=None), pose=(i, 0, 0, 0, 0, 0))


def _drone(names: tuple[str, ...], com: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> str:
    base = link("base", inertial(2.0, np.diag([0.02, 0.02, 0.04])), cylinder(0.2, 0.1, pose=None))
    return model(base, *(_rotor(n, i, 10.0, com) for i, n in enumerate(names)), name="x500")


@pytest.mark.parametrize("code", sorted(WORDS))
def test_links_named_like_words_of_the_message_are_one_group(
    code: str, tmp_path: Path
) -> None:
    names = ("rotor", *WORDS[code])
    found = findings_of(tmp_path, _drone(names, com=(0.0, 0.0, 1.0)), code)
    assert [f.link for f in found] == [f"x500::{n}" for n in names]
    for word in WORDS[code]:  # each name is a word of the message, outside its link's arguments
        assert re.search(rf"(?<!\w){word}(?!\w)", _without_link(found[0]))
    assert [len(g) for g in group_findings(found)] == [len(found)]


def test_text_output_gives_them_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x500.sdf"
    path.write_text(_drone(("rotor", *WORDS["GZI105"])))
    status, out, err = run_cli(["audit", str(path), "--format", "text", "--no-cache",
                                "--select", "GZI105"], capsys)
    assert status == 0, err
    (line,) = [ln for ln in out.splitlines() if " GZI105 " in ln]
    assert f"the same on {len(WORDS['GZI105'])} more identical links" in line


def _said(link: str, message: Message | str) -> Finding:
    return finding("GZI105", SourceRef("m.sdf", 3), link, message, {"factor": 2.0})


def test_grouping_compares_the_arguments_that_are_not_the_link() -> None:
    same = [_said(n, "link " + link_name(n, quoted=True) + " and " + "other") for n in "ab"]
    assert [len(g) for g in group_findings(same)] == [2]
    others = [_said(n, "link " + link_name(n) + " beside " + o) for n, o in ("ax", "by")]
    assert [len(g) for g in group_findings(others)] == [1, 1]


def test_grouping_never_looks_for_a_name_in_text() -> None:
    # the links' names written as plain text: different messages, never taken for the link
    said = [_said(n, f"link {n!r} is odd") for n in ("a", "b")]
    assert [len(g) for g in group_findings(said)] == [1, 1]


def test_a_link_list_names_the_findings_own_link_by_argument() -> None:
    message = link_list(["m::a", "m::b", "m::c", "m::d"], "m::b", shown=3)
    assert message.render() == "m::a, m::b, m::c and 1 more"
    assert dict(message.args) == {"link": "m::b"}


def test_a_message_alone_is_its_own_template_and_a_wrong_one_is_refused() -> None:
    plain = Finding("GZI101", "error", "a.sdf", 1, "m::l", "mass {kg} of 'm::l'")
    assert (plain.message_template, dict(plain.message_args)) == ("mass {{kg}} of 'm::l'", {})
    with pytest.raises(ValueError, match="not its template rendered"):
        Finding("GZI101", "error", "a.sdf", 1, "m::l", "x", message_template="{link}",
                message_args={"link": "m::l"})
    with pytest.raises(TypeError, match="joined with"):
        format(link_name('m::l'))  # as an f-string would: the arguments would be lost


def test_template_and_arguments_survive_the_cache_and_pickling() -> None:
    f = _said("m::a", "link " + link_name("m::a") + " {odd}")
    for back in (finding_from_json(finding_to_json(f)), pickle.loads(pickle.dumps(f))):
        assert (back.message, back.message_template, dict(back.message_args)) == (
            f.message, f.message_template, dict(f.message_args))


def test_no_rule_reads_a_note_by_its_text() -> None:
    """Rules read what a note records (its code, link, data), never its sentence."""
    reads = re.compile(r"\bin\s+[\w.]*\bmessage\b|\bmessage\.(startswith|endswith|find|index|"
                       r"split|partition|count)\(|re\.\w+\([^)]*\bmessage\b")
    for path in sorted((REPO / "gzinertia" / "audit" / "rules").glob("*.py")):
        for number, text in enumerate(path.read_text().splitlines(), 1):
            assert not reads.search(text), f"{path.name}:{number}: {text.strip()}"
