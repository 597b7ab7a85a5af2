"""The per-process cache of parsed files (included models read by many files): a file is parsed
once while unchanged, again as soon as it changes, and the cache stays bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gzinertia.sdf import xml

# Inline texts: the parse cache keys on the file's bytes, size and time (two of the same size).


def test_an_unchanged_file_is_parsed_once_and_a_changed_one_again(tmp_path: Path) -> None:
    path = tmp_path / "model.sdf"
    path.write_text("<sdf version='1.10'><model name='a'/></sdf>", encoding="utf-8")
    first = xml.parse_xml_file_shared(path)
    assert xml.parse_xml_file_shared(path) is first
    st = path.stat()
    path.write_text("<sdf version='1.10'><model name='b'/></sdf>", encoding="utf-8")  # same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    second = xml.parse_xml_file_shared(path)
    assert second is not first
    assert second[0].get("name") == "b"


def test_the_cache_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xml, "SHARED_TREES_MAX", 3)
    monkeypatch.setattr(xml, "_SHARED_TREES", xml._TreeCache())
    paths = []
    for k in range(5):
        paths.append(tmp_path / f"m{k}.sdf")
        paths[-1].write_text(f"<sdf version='1.10'><model name='m{k}'/></sdf>", encoding="utf-8")
        xml.parse_xml_file_shared(paths[-1])
    cache = xml._SHARED_TREES
    assert list(cache.trees) == [str(p) for p in paths[2:]]  # the least recently used went
    assert cache.held == sum(p.stat().st_size for p in paths[2:])


def test_a_missing_file_is_the_usual_error(tmp_path: Path) -> None:
    from gzinertia.errors import SdfError

    with pytest.raises(SdfError, match="no such file"):
        xml.parse_xml_file_shared(tmp_path / "absent.sdf")
