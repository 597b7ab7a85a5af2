"""Each model file read once (issue 30): ``gzinertia report`` draws the document its audit of
the file read, and ``audit --report`` / ``--format html`` draw the documents the audit read and
judged; only a file the audit did not parse in this process (its result from the cache, or from
a worker process) is read by the page, once.

Counted at the reader's entry point (:func:`gzinertia.model_reader.read_model_file`, wherever a
module bound it); the pages are compared byte for byte with and without the cache and workers.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_cli

import gzinertia.api_report  # imported before any test patches the reader
import gzinertia.model_reader
from gzinertia.audit.runner import PARALLEL_MIN_FILES

pytest.importorskip("jupyter_threejs_sage", reason="needs the report extra (jupyter-threejs-sage)")

#: A model, a world that includes models by URI, a URDF file.
FILES = [EXAMPLES / "torpedo_auv" / "model.sdf", EXAMPLES / "harbour_world.sdf",
         EXAMPLES / "defects" / "urdf_massless_link" / "model.urdf"]
MODEL_PATH = ["-m", str(EXAMPLES)]


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """The number of times each model file is read, by path as read, in this process."""
    original = gzinertia.model_reader.read_model_file
    counted: Counter[str] = Counter()

    def counting(path: str | Path, *args: Any, **kwargs: Any) -> Any:
        counted[str(path)] += 1
        return original(path, *args, **kwargs)

    monkeypatch.setattr(gzinertia.model_reader, "read_model_file", counting)
    # a module that imported the function at its top holds its own name for it (the readers
    # are imported above, before any test patches: one imported under a patch would keep it)
    for module in list(sys.modules.values()):
        if getattr(module, "read_model_file", None) is original:
            monkeypatch.setattr(module, "read_model_file", counting)
    yield counted


def _page(run: Callable[[Path], list[str]], out: Path,
          capsys: pytest.CaptureFixture[str]) -> tuple[int, str, bytes]:
    code, stdout, err = run_cli(run(out), capsys)
    assert code in (0, 1), err
    return code, stdout, out.read_bytes()


def test_report_reads_each_file_once(reads: Counter[str], tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["report", *MODEL_PATH, *map(str, FILES), "-o",
                            str(tmp_path / "r.html")], capsys)
    assert code == 0, err
    assert reads == Counter({str(f): 1 for f in FILES})


@pytest.mark.parametrize("output", [["--format", "json"], ["--format", "html", "-o"]])
def test_audit_page_reads_each_file_once_with_and_without_cache(
    reads: Counter[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], output: list[str]
) -> None:
    """No cache, a cold cache, a warm one (the audit reads nothing, the page each file once):
    each file read once a run, and the same page and output each time."""
    def run(cache: list[str]) -> Callable[[Path], list[str]]:
        def args(out: Path) -> list[str]:
            page = [*output, str(out)] if "html" in output else [*output, "--report", str(out)]
            return ["audit", "-j", "1", *cache, *page, *MODEL_PATH, *map(str, FILES)]
        return args

    cache = ["--cache-dir", str(tmp_path / "cache")]
    pages = []
    for name, how in (("none", ["--no-cache"]), ("cold", cache), ("warm", cache)):
        reads.clear()
        pages.append(_page(run(how), tmp_path / f"{name}.html", capsys))
        assert reads == Counter({str(f): 1 for f in FILES}), name
    assert pages[0] == pages[1] == pages[2]


def test_files_audited_by_workers_are_read_once_by_the_page(
    reads: Counter[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Documents do not cross processes: a worker's file is read again by the page, once, in
    this process (the worker's own read is in its process); the page is the one-process one."""
    text = (EXAMPLES / "defects" / "positive_idotj" / "model.sdf").read_text()
    files = [tmp_path / "models" / f"m{i:02d}.sdf" for i in range(PARALLEL_MIN_FILES)]
    files[0].parent.mkdir()
    for f in files:
        f.write_text(text)

    def run(jobs: str) -> Callable[[Path], list[str]]:
        return lambda out: ["audit", "--no-cache", "-j", jobs, "--report", str(out),
                            str(tmp_path / "models")]

    _, _, one = _page(run("1"), tmp_path / "one.html", capsys)
    assert reads == Counter({str(f): 1 for f in files})
    reads.clear()
    _, _, two = _page(run("2"), tmp_path / "two.html", capsys)
    assert reads == Counter({str(f): 1 for f in files})
    assert one == two
