"""Each catalogue entry's published numbers against the public file that carries them.

Every data file names, per source file, the repository, path and commit, and the name each
published value has in that file. This reads the file at that commit from a local mirror of
the repository (``$GZINERTIA_MIRRORS/<owner>+<name>/repo``, a git directory; default
``/work/.mirror``) and compares each value exactly. Without the mirror the file's test is
skipped with a message, so that CI without mirrors still runs the rest.

Readers (no code of the file is run): ``matlab`` (``name = number;``), ``cpp`` (a C++
declaration with its initialiser, ``double name = number;``), ``xml`` (an element's text, its
numbers separated by spaces, commas or brackets, ``NAME#I`` the I-th of them; ``property:NAME`` a
xacro property's value; ``attr:PATH.ATTR`` an attribute of the first element at ``PATH``), ``python-call`` (``VAR[i]``: the i-th literal argument of the call
assigned to ``VAR``, read with :mod:`ast`), ``empy`` (an EmPy template: ``py:VAR#N`` the N-th
literal assigned to ``VAR`` in its ``@{ ... }@`` block, in source order, read with :mod:`ast`;
otherwise ``XPATH#I``, the I-th number of the element at ``XPATH`` in the template's XML, the
whole text without ``#I``).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from gzinertia import catalogue
from gzinertia.catalogue.vehicle import SourceFile

MIRRORS = Path(os.environ.get("GZINERTIA_MIRRORS", "/work/.mirror"))
CASES = [(e.id, i) for e in catalogue.entries() for i in range(len(e.source.files))]


def _file_text(source: SourceFile) -> str:
    repo = MIRRORS / source.repo.replace("/", "+") / "repo"
    if not repo.is_dir():
        pytest.skip(f"no mirror of {source.repo} under {MIRRORS} (set GZINERTIA_MIRRORS)")
    shown = subprocess.run(["git", "-C", str(repo), "show", f"{source.commit}:{source.path}"],
                           capture_output=True, text=True, check=False)
    if shown.returncode != 0:
        pytest.skip(f"the mirror of {source.repo} lacks {source.commit}:{source.path}")
    return shown.stdout


def _floats(text: str) -> float | tuple[float, ...]:
    values = tuple(float(w) for w in re.split(r"[\s,\[\]]+", text) if w)
    return values[0] if len(values) == 1 else values


def _matlab(text: str, name: str) -> float | tuple[float, ...]:
    found = re.search(rf"^\s*{re.escape(name)}\s*=\s*([-+0-9.eE]+)\s*;", text, re.MULTILINE)
    assert found, name
    return float(found.group(1))


def _cpp(text: str, name: str) -> float:
    found = re.search(rf"^\s*(?:[\w:<>]+\s+)?{re.escape(name)}\s*=\s*([-+0-9.eE]+)\s*;", text,
                      re.MULTILINE)
    assert found, name
    return float(found.group(1))


def _indexed(values: float | tuple[float, ...], index: str) -> float | tuple[float, ...]:
    """The ``index``-th of ``values`` (all of them when ``index`` is empty)."""
    if not index:
        return values
    assert isinstance(values, tuple), index
    return values[int(index)]


def _xml(root: etree._Element, name: str) -> float | tuple[float, ...]:
    kind, _, rest = name.rpartition(":")
    if kind == "property":
        for e in root.iter("{*}property"):
            if e.get("name") == rest:
                return _floats(e.get("value") or "")
        raise AssertionError(name)
    if kind == "attr":
        path, _, attr = rest.rpartition(".")
        found = root.find(f".//{path}")
        assert found is not None, name
        return _floats(found.get(attr) or "")
    name, _, index = name.partition("#")
    element = next(root.iter(name), None)
    assert element is not None, name
    return _indexed(_floats(element.text or ""), index)


def _python_call(text: str, name: str) -> float | tuple[float, ...]:
    var, index = re.fullmatch(r"(\w+)\[(\d+)\]", name).groups()  # type: ignore[union-attr]
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and any(isinstance(t, ast.Name) and t.id == var for t in node.targets)):
            return float(ast.literal_eval(node.value.args[int(index)]))
    raise AssertionError(name)


def _empy(text: str, name: str) -> float | tuple[float, ...]:
    code, _, xml = text.partition("@{")[2].partition("}@")
    path, _, index = name.partition("#")
    if path.startswith("py:"):
        values = [node.value for node in ast.walk(ast.parse(code))
                  if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == path[3:] for t in node.targets)]
        values.sort(key=lambda v: (v.lineno, v.col_offset))
        return float(ast.literal_eval(values[int(index)]))
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True)
    element = etree.fromstring(xml.encode(), parser).find(path)
    assert element is not None, name
    return _indexed(_floats(element.text or ""), index)


def read_value(source: SourceFile, text: str, name: str) -> float | tuple[float, ...]:
    """The value named ``name`` in a source file's text, by the file's reader."""
    if source.reader == "empy":
        return _empy(text, name)
    if source.reader == "matlab":
        return _matlab(text, name)
    if source.reader == "cpp":
        return _cpp(text, name)
    if source.reader == "python-call":
        return _python_call(text, name)
    assert source.reader == "xml", source.reader
    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True)
    return _xml(etree.fromstring(text.encode(), parser), name)


@pytest.mark.parametrize(("entry_id", "index"), CASES)
def test_published_numbers_are_those_of_their_source_file(entry_id: str, index: int) -> None:
    entry = catalogue.entry(entry_id)
    source = entry.source.files[index]
    text = _file_text(source)
    for key, name in source.names.items():
        published = entry.published.value(key)
        assert read_value(source, text, name) == published, (entry_id, key, name)


def test_the_readers_read_what_they_are_given() -> None:
    """Each reader on a small text of its kind (so a reader that reads nothing cannot pass)."""
    source = SourceFile("o/r", "p", "0" * 40, "matlab", {})
    assert _matlab("Xuu   = -1.62;    % drag\nXuuu = 3;", "Xuu") == -1.62
    assert read_value(SourceFile("o/r", "p", "0" * 40, "python-call", {}),
                      "m = Model('m', 5.5, 12.7)", "m[2]") == 12.7
    xml = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="v" '
           'value="1.5"/><link><inertial><origin xyz="0 0 2"/></inertial></link>'
           '<added_mass>1 2\n3</added_mass></robot>')
    xml_source = SourceFile("o/r", "p", "0" * 40, "xml", {})
    assert read_value(xml_source, xml, "property:v") == 1.5
    assert read_value(xml_source, xml, "attr:inertial/origin.xyz") == (0.0, 0.0, 2.0)
    assert read_value(xml_source, xml, "added_mass") == (1.0, 2.0, 3.0)
    assert read_value(xml_source, "<p><m>[ 1 2 ]\n[ 3 4 ]</m><c> 0.5, 0, 7</c></p>", "m#2") == 3.0
    assert read_value(xml_source, "<p><c> 0.5, 0, 7</c></p>", "c") == (0.5, 0.0, 7.0)
    cpp = SourceFile("o/r", "p", "0" * 40, "cpp", {})
    assert read_value(cpp, "    double Yrr_ = +0.632;\n    double Yrr = 0.5;\n", "Yrr") == 0.5
    assert read_value(cpp, "    double Kpp = -0.00130;", "Kpp") == -0.0013
    empy = ('<?xml version="1.0" ?>\n@{\nif x:\n    v = 2.0\ntry:\n    v\nexcept NameError:\n'
            '    v = 3.5  # default\n}@\n<sdf><model><link name="a"><pose>0 0 -1.25 0 0 0</pose>'
            '</link><plugin><link_name>a</link_name><zW>@(v)</zW><xU>-4</xU></plugin></model>'
            '</sdf>')
    empy_source = SourceFile("o/r", "p", "0" * 40, "empy", {})
    assert read_value(empy_source, empy, "py:v#0") == 2.0
    assert read_value(empy_source, empy, "py:v#1") == 3.5
    assert read_value(empy_source, empy, ".//link[@name='a']/pose#2") == -1.25
    assert read_value(empy_source, empy, ".//plugin[link_name='a']/xU") == -4.0
    assert source.reader == "matlab"
