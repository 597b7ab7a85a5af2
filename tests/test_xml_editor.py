"""The minimal-diff XML editor: element spans match lxml's elements, and edits change exactly the
bytes they are about, whatever the file's layout (comments, CDATA, quoted '>', one-line
elements, self-closing tags, tabs, CRLF)."""

# The SDF texts here stay inline: their layout (comments, CRLF, tabs, encodings) is the point.

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, EXAMPLES
from lxml import etree

from gzinertia.edit.editor import XmlEditor
from gzinertia.edit.spans import element_spans
from gzinertia.errors import GzInertiaError
from gzinertia.sdf.xml import parse_xml_bytes

AWKWARD = b"""<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <tags> and > inside -->
<sdf version='1.10'>
  <model name="m" note="a > b">
    <![CDATA[ <not><an><element> ]]>
    <link name='a'><inertial><mass>1</mass></inertial></link>
    <link name="b">
      <inertial/>
    </link>
    <?pi with <angle> brackets ?>
    <link name="c"><!-- <inertial> commented out --></link>
  </model>
</sdf>
"""


def _files() -> list[Path]:
    files = sorted(EXAMPLES.rglob("*.sdf"))
    if CORPUS.is_dir():
        files += sorted(CORPUS.rglob("*.sdf"))
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_spans_are_lxmls_elements_in_document_order(path: Path) -> None:
    data = path.read_bytes()
    try:
        root = parse_xml_bytes(data, str(path))
    except GzInertiaError:
        pytest.skip("not XML")
    elements = list(root.iter(etree.Element))
    spans = element_spans(data, str(path))
    assert len(spans) == len(elements)
    for elem, span in zip(elements, spans, strict=True):
        assert span.tag.split(b":")[-1].decode() == etree.QName(elem).localname
        # libxml2 numbers an element by a line of its start tag (which may span lines).
        first, last = (data.count(b"\n", 0, pos) + 1 for pos in (span.start, span.start_tag_end))
        assert first <= elem.sourceline <= last
        assert data[span.start : span.start + 1] == b"<" and data[span.end - 1 : span.end] == b">"


def test_awkward_layout_maps_and_edits_exactly() -> None:
    editor = XmlEditor(AWKWARD, "awkward.sdf")
    links = {e.get("name"): e for e in editor.root.iter("link")}
    editor.append_child_lines(links["a"].find("inertial"), ["<pose>0 0 0 0 0 0</pose>"])
    editor.append_child_lines(links["b"].find("inertial"), ["<mass>2</mass>"])
    editor.set_text(links["a"].find("inertial/mass"), "3")
    new = editor.result()
    tree = etree.fromstring(new)
    assert tree.find("model/link[@name='a']/inertial/mass").text == "3"
    assert tree.find("model/link[@name='a']/inertial/pose") is not None
    assert tree.find("model/link[@name='b']/inertial/mass").text == "2"
    # Everything before the first edit and after the last is untouched.
    first = AWKWARD.index(b"<link name='a'>")
    assert new.startswith(AWKWARD[:first])
    tail = AWKWARD[AWKWARD.index(b"    </link>\n    <?pi") :]
    assert new.endswith(tail)
    assert b"<inertial>\n        <mass>2</mass>\n      </inertial>" in new


def test_crlf_and_tabs_are_kept() -> None:
    data = b'<sdf version="1.10">\r\n\t<model name="m">\r\n\t\t<link name="a">\r\n\t\t</link>\r\n\t</model>\r\n</sdf>\r\n'
    editor = XmlEditor(data, "tabs.sdf")
    editor.append_child_lines(next(editor.root.iter("link")), ["<inertial>", "\t<mass>1</mass>", "</inertial>"])
    new = editor.result()
    assert b"\t\t\t<inertial>\r\n\t\t\t\t<mass>1</mass>\r\n\t\t\t</inertial>\r\n\t\t</link>" in new
    assert new.count(b"\r\n") == new.count(b"\n")


def test_replace_and_remove_take_whole_lines_and_our_comment() -> None:
    data = (b'<sdf version="1.10">\n  <model name="m">\n    <link name="a">\n      <inertial>\n'
            b"        <!-- gzinertia addmass: old -->\n        <fluid_added_mass><xx>1</xx></fluid_added_mass>\n"
            b"      </inertial>\n    </link>\n  </model>\n</sdf>\n")
    editor = XmlEditor(data, "a.sdf")
    fam = next(editor.root.iter("fluid_added_mass"))
    editor.replace_element(fam, ["<!-- gzinertia addmass: new -->", "<fluid_added_mass/>"], True)
    new = editor.result()
    assert b"old" not in new
    assert b"      <inertial>\n        <!-- gzinertia addmass: new -->\n        <fluid_added_mass/>\n      </inertial>" in new
    editor = XmlEditor(data, "a.sdf")
    editor.remove_element(next(editor.root.iter("fluid_added_mass")), with_comment=True)
    assert editor.result() == data.replace(
        b"        <!-- gzinertia addmass: old -->\n        <fluid_added_mass><xx>1</xx></fluid_added_mass>\n", b""
    )


def test_overlapping_edits_are_refused() -> None:
    editor = XmlEditor(AWKWARD, "awkward.sdf")
    mass = next(editor.root.iter("mass"))
    editor.set_text(mass, "2")
    with pytest.raises(GzInertiaError, match="overlapping"):
        editor.set_text(mass, "3")


def test_files_that_cannot_be_edited_say_why() -> None:
    with pytest.raises(GzInertiaError, match="UTF-16"):
        XmlEditor('<sdf version="1.10"/>'.encode("utf-16"), "u16.sdf")


def test_latin1_files_get_latin1_bytes() -> None:
    data = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<sdf version="1.10">\n  <model name="m\u00e9">\n  </model>\n</sdf>\n'.encode("latin-1")
    editor = XmlEditor(data, "l1.sdf")
    editor.append_child_lines(next(editor.root.iter("model")), ["<!-- caf\u00e9 -->"])
    new = editor.result()
    assert "caf\u00e9".encode("latin-1") in new
    assert etree.fromstring(new).find("model").get("name") == "m\u00e9"
