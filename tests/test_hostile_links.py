"""Hostile links: nothing outside the checkout is written or deleted through a symbolic link
that a pull request commits (issue 23, item 6).

Each attack of the issue is rebuilt in a checkout next to a folder ``outside`` that stands for
the rest of the machine; every test lists ``outside`` (names, kinds, bytes, link targets)
before and after and requires the two listings to be equal, and requires the command to still
do its job inside the checkout (or to refuse with one line and exit status 2 where writing
through the link was what the user asked for: a report named with ``--output``):

* ``.gzinertia_cache`` or ``.gzinertia_cache/audit`` a link to a folder of ten ``*.json``
  files (cache pruning kept the eight newest and deleted the others; the cache file was
  written there), also in a cache folder outside the checkout (as restored by
  ``actions/cache``);
* ``.gzinertia_cache/.gitignore`` (or ``CACHEDIR.TAG``) a dangling link (the marker was
  created at its target);
* ``--output gzinertia.sarif`` where ``gzinertia.sarif`` (or its folder) is a link, to an
  existing file or dangling (the report overwrote or created the target);
* ``audit --fix .`` over a ``.sdf`` link to a file outside (the file outside was rewritten);
  such a link is now skipped, with why, and never read;
* the BEM cache (``.gzinertia_cache/bem``) as a link;
* a folder swapped for a link after it was checked (the write that follows is refused).

``strace -f`` (``-y``: every descriptor decoded to the file it is) proves that no write-mode
open, creation, rename or deletion reached a path outside, and that the linked model was
never opened. The other editing commands (``fix``, ``addmass``, ``convert``, ``shift``,
``hydro``) take files by name only (no tree walk), so a path they write through a link is
one the user named: written through as before (``tests/test_safe_write_semantics.py``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sdf_builders as sdf
from test_hostile_files import run_cli_limited, run_limited

from gzinertia.errors import GzInertiaError

#: A link whose inertia breaks the triangle inequality by round-off (0.26 + 0.4 < 0.66001):
#: GZI104, which ``audit --fix`` repairs (a safe fix).
ROUNDED = np.array([[0.26, 0.0001, 0.0], [0.0001, 0.4, 0.0], [0.0, 0.0, 0.66001]])


def fixable(name: str = "m") -> str:
    return sdf.model(
        sdf.link("rounded", sdf.inertial(24.0, ROUNDED, posed=False), sdf.box((0.4, 0.3, 0.2))),
        name=name,
    )


#: The same near miss in a xacro file (izz written 1e-5 over ixx + iyy): ``audit --fix`` checks
#: the edited xacro by expanding a temporary copy beside it.
XACRO = (
    '<robot name="n" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="m" '
    'value="3"/><link name="b"><inertial><mass value="${m}"/><inertia ixx="0.1" ixy="0" '
    'ixz="0" iyy="0.2" iyz="0" izz="0.30001"/></inertial><collision><geometry><box '
    'size="0.5 0.4 0.3"/></geometry></collision></link></robot>\n'
)


def listing(folder: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every entry under ``folder`` (links not followed): kind and bytes or link target."""
    found: dict[str, tuple[str, bytes | str]] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            relative = str(path.relative_to(folder))
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                found[relative] = ("link", os.readlink(path))
            elif stat.S_ISDIR(mode):
                found[relative] = ("folder", "")
            else:
                found[relative] = ("file", path.read_bytes())
    return found


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    """``checkout`` (the working directory, one fixable model in ``models/``) and ``outside``
    (ten ``*.json`` files, the oldest first, and a fixable model)."""
    checkout, outside = tmp_path / "checkout", tmp_path / "outside"
    (checkout / "models").mkdir(parents=True)
    (checkout / "models" / "rounded.sdf").write_text(fixable())
    outside.mkdir()
    for i in range(10):
        path = outside / f"precious{i}.json"
        path.write_text(json.dumps({"n": i}))
        os.utime(path, ns=(10**18 + i * 10**9, 10**18 + i * 10**9))
    (outside / "rounded.sdf").write_text(fixable("outside"))
    return checkout, outside


def audit(checkout: Path, *args: str, cache: str = "") -> tuple[int, str, str]:
    """``gzinertia audit ARGS`` in ``checkout``; ``cache``: ``$GZINERTIA_CACHE_DIR`` (empty:
    the default, ``.gzinertia_cache`` in the working directory)."""
    proc = run_cli_limited(["audit", *args], env={"GZINERTIA_CACHE_DIR": cache}, cwd=checkout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def statuses(out: str) -> dict[str, tuple[str, str | None]]:
    return {f["path"]: (f["status"], f["message"]) for f in json.loads(out)["files"]}


def codes(checkout: Path, path: str) -> set[str]:
    """The rule codes the audit reports for ``path`` (no cache, no fix)."""
    status, out, err = audit(checkout, "--no-cache", "--format", "json", path)
    assert status in (0, 1), err
    return {f["code"] for f in json.loads(out)["findings"]}


# --- the cache ----------------------------------------------------------------------------------


@pytest.mark.parametrize("linked", [".gzinertia_cache", ".gzinertia_cache/audit", "restored"])
def test_a_cache_folder_link_leaves_the_files_outside_alone(
    places: tuple[Path, Path], linked: str
) -> None:
    """The cache folder, or its ``audit`` folder, a link to ten ``*.json`` files: none is
    deleted or changed and no file appears there; the audit reports as without a cache and
    says why nothing was kept. ``restored``: a cache folder outside the checkout (the
    Action's, restored by ``actions/cache``) whose ``audit`` is a link."""
    checkout, outside = places
    cache = ""
    if linked == "restored":
        folder = outside.parent / "runner-temp" / "gzinertia-cache"
        folder.mkdir(parents=True)
        (folder / "audit").symlink_to(outside, target_is_directory=True)
        cache, linked = str(folder), str(folder / "audit")
    else:
        link = checkout / linked
        link.parent.mkdir(exist_ok=True)
        link.symlink_to(outside, target_is_directory=True)
    before = listing(outside)
    fresh = audit(checkout, "--no-cache", "--format", "json", ".")
    for _ in range(2):  # the second run would read what the first wrote
        status, out, err = audit(checkout, "--format", "json", ".", cache=cache)
        assert listing(outside) == before
        assert (status, out) == fresh[:2], err
        assert f"{linked} is a symbolic link" in err, err


@pytest.mark.parametrize("marker", [".gitignore", "CACHEDIR.TAG"])
def test_a_dangling_marker_link_creates_nothing_outside(
    places: tuple[Path, Path], marker: str
) -> None:
    checkout, outside = places
    (checkout / ".gzinertia_cache").mkdir()
    (checkout / ".gzinertia_cache" / marker).symlink_to(outside / "created")
    before = listing(outside)
    status, out, err = audit(checkout, "--format", "json", ".")
    assert listing(outside) == before
    assert status == 1 and statuses(out) == {"models/rounded.sdf": ("ok", None)}, err
    assert f".gzinertia_cache/{marker} is a symbolic link" in err, err
    assert (checkout / ".gzinertia_cache" / marker).is_symlink()


def test_a_cache_in_a_real_folder_is_still_written_and_pruned(
    places: tuple[Path, Path],
) -> None:
    """The cache does its job in a real folder: the cache file and both markers are written;
    of ten older cache files, the newest seven remain beside this run's."""
    checkout, _ = places
    audit_folder = checkout / ".gzinertia_cache" / "audit"
    audit_folder.mkdir(parents=True)
    for i in range(10):
        old = audit_folder / f"{i:032x}.json"
        old.write_text("{}")
        os.utime(old, ns=(10**18 + i * 10**9, 10**18 + i * 10**9))
    status, _, err = audit(checkout, "--format", "json", ".")
    assert status == 1, err
    kept = sorted(p.name for p in audit_folder.iterdir())
    assert len(kept) == 8 and kept[:7] == [f"{i:032x}.json" for i in range(3, 10)], kept
    assert (checkout / ".gzinertia_cache" / ".gitignore").is_file()
    assert (checkout / ".gzinertia_cache" / "CACHEDIR.TAG").is_file()


def test_a_cache_folder_swapped_for_a_link_after_it_was_prepared(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race: ``audit/`` is checked (and created) as a real folder, then replaced by a link
    before the cache file is written: the write is refused, nothing appears outside."""
    from gzinertia.audit import cache as cache_module

    checkout, outside = places
    monkeypatch.chdir(checkout)
    folder = checkout / ".gzinertia_cache"
    prepare = cache_module.AuditCache._prepare_folder

    def prepare_then_swap(self: cache_module.AuditCache) -> None:
        prepare(self)
        shutil.rmtree(folder / "audit")
        (folder / "audit").symlink_to(outside, target_is_directory=True)

    monkeypatch.setattr(cache_module.AuditCache, "_prepare_folder", prepare_then_swap)
    before = listing(outside)
    cache = cache_module.AuditCache(folder, "0" * 32, [])
    path = "models/rounded.sdf"
    digest = cache_module.file_digest(path)
    assert digest is not None
    cache.store(path, digest, [], [])
    cache.save()
    assert listing(outside) == before
    assert len(cache.problems) == 1 and "is a symbolic link" in cache.problems[0]


def test_the_bem_cache_neither_reads_nor_writes_through_a_link(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``.gzinertia_cache/bem`` a link: a stored solve is not written there, and a record
    planted there (with the key asked for) is not read."""
    from gzinertia.physics import bem_cache

    checkout, outside = places
    monkeypatch.chdir(checkout)
    monkeypatch.setenv("GZINERTIA_CACHE_DIR", "")
    (checkout / ".gzinertia_cache").mkdir()
    (checkout / ".gzinertia_cache" / "bem").symlink_to(outside, target_is_directory=True)
    (outside / "planted.json").write_text(json.dumps({"key": "planted"}))
    before = listing(outside)
    bem_cache.store("fresh", {"key": "fresh"})
    assert bem_cache.load_cached("planted") is None
    assert listing(outside) == before
    (checkout / ".gzinertia_cache" / "bem").unlink()  # a real folder: written and read back
    bem_cache.store("fresh", {"key": "fresh"})
    assert bem_cache.load_cached("fresh") == {"key": "fresh"}


# --- reports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["existing", "dangling", "folder"])
def test_a_report_through_a_link_is_refused_and_its_target_left_alone(
    places: tuple[Path, Path], kind: str
) -> None:
    """``--output gzinertia.sarif`` where the pull request made it a link (to an existing file
    or dangling) or made its folder a link: one line, exit 2, before anything is audited;
    the same command writes the report once the link is gone."""
    checkout, outside = places
    (outside / "report.sarif").write_text("the runner's own file\n")
    output = "gzinertia.sarif"
    if kind == "folder":
        (checkout / "reports").symlink_to(outside, target_is_directory=True)
        output, linked = "reports/gzinertia.sarif", "reports"
    else:
        target = outside / ("report.sarif" if kind == "existing" else "created.sarif")
        (checkout / output).symlink_to(target)
        linked = output
    before = listing(outside)
    args = ["--no-cache", "--format", "sarif", "--output", output, "."]
    status, out, err = audit(checkout, *args)
    assert status == 2 and out == "", err
    assert err.splitlines() == [
        f"gzinertia: error: --output {output}: {linked} is a symbolic link: a report is "
        "never written through a link (name the real path)"
    ], err
    assert listing(outside) == before
    assert (checkout / linked).is_symlink()
    (checkout / linked).unlink()
    if kind == "folder":
        (checkout / "reports").mkdir()
    status, _, err = audit(checkout, *args)
    assert status == 1, err
    assert json.loads((checkout / output).read_text())["version"] == "2.1.0"


@pytest.mark.parametrize("kind", ["existing", "dangling"])
def test_the_action_neither_writes_nor_uploads_a_sarif_link(
    places: tuple[Path, Path], kind: str
) -> None:
    """The Action's audit step where the pull request committed ``gzinertia.sarif`` as a
    link: the audit exits 2, the target is neither written nor marked for upload (the upload
    step would read it through the link); the annotations still run."""
    import subprocess
    import sys

    import yaml
    from conftest import REPO

    checkout, outside = places
    (outside / "report.sarif").write_text("the runner's own file\n")
    target = outside / ("report.sarif" if kind == "existing" else "created.sarif")
    (checkout / "gzinertia.sarif").symlink_to(target)
    action = yaml.safe_load((REPO / "action.yml").read_text())
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "audit")
    github_output = outside.parent / "github_output"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GZI")},
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(REPO), "GZI_PATHS": ".", "GZI_FAIL_ON": "error", "GZI_ARGS": "",
           "GZI_SARIF": "gzinertia.sarif", "GITHUB_OUTPUT": str(github_output),
           "GZINERTIA_CACHE_DIR": str(outside.parent / "runner-temp")}
    before = listing(outside)
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert github_output.read_text().split() == ["exit-code=2"]
    assert "::error file=models/rounded.sdf" in done.stdout  # the annotations still ran
    assert listing(outside) == before
    upload = next(s for s in action["runs"]["steps"] if "upload-sarif" in s.get("uses", ""))
    assert "steps.audit.outputs.sarif-written == 'true'" in upload["if"]
    assert "hashFiles" not in upload["if"]  # it would hash the link's target


def test_a_report_outside_the_checkout_is_taken_as_named(places: tuple[Path, Path]) -> None:
    """Outside the working directory the user chose the place: ``/dev/null`` is written to
    (not replaced), and a link the user made there is written through, as before."""
    checkout, outside = places
    status, out, err = audit(checkout, "--no-cache", "--format", "sarif", "--output",
                             os.devnull, ".")
    assert (status, out) == (1, "") and "Traceback" not in err, err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    (outside / "mine.sarif").symlink_to("real.sarif")
    status, _, err = audit(checkout, "--no-cache", "--format", "sarif", "--output",
                           str(outside / "mine.sarif"), ".")
    assert status == 1, err
    assert (outside / "mine.sarif").is_symlink()
    assert json.loads((outside / "real.sarif").read_text())["version"] == "2.1.0"


# --- the tree walk and audit --fix --------------------------------------------------------------


def test_audit_fix_does_not_write_through_a_link_leaving_the_tree(
    places: tuple[Path, Path],
) -> None:
    """``models/evil.sdf`` a link to a fixable model outside: skipped with why (text and
    JSON), never read nor fixed; the model in the checkout and one reached by a link that
    stays in the checkout are fixed (the link stays a link)."""
    checkout, outside = places
    (checkout / "models" / "evil.sdf").symlink_to(outside / "rounded.sdf")
    (checkout / "shared").mkdir()
    (checkout / "shared" / "other.sdf").write_text(fixable("other"))
    (checkout / "models" / "alias.sdf").symlink_to(Path("..") / "shared" / "other.sdf")
    assert "GZI104" in codes(checkout, "models/rounded.sdf")
    assert "GZI104" in codes(checkout, str(outside / "rounded.sdf"))
    before = listing(outside)
    why = ("a symbolic link to a file outside the folder audited (.): not read; name it on "
           "the command line to audit it")
    status, out, err = audit(checkout, "--fix", "--no-cache", "--format", "json", ".")
    assert status == 0, err
    assert statuses(out) == {
        "models/alias.sdf": ("ok", None),
        "models/evil.sdf": ("skipped", why),
        "models/rounded.sdf": ("ok", None),
    }
    assert listing(outside) == before
    assert "GZI104" not in codes(checkout, "models/rounded.sdf")
    assert "GZI104" not in codes(checkout, "shared/other.sdf")
    assert (checkout / "models" / "alias.sdf").is_symlink()
    status, out, err = audit(checkout, "--no-cache", "--format", "text", ".")
    assert status == 0 and f"models/evil.sdf: skipped: {why}" in out.splitlines(), out


def test_audit_fix_of_a_walked_xacro_keeps_its_temporary_copy_in_the_tree(
    places: tuple[Path, Path],
) -> None:
    """A xacro found by walking is fixed (its check expands a temporary copy beside the real
    file, inside the tree, removed after); a xacro link leading out is skipped, its target
    untouched; no temporary is left anywhere."""
    checkout, outside = places
    (checkout / "robots").mkdir()
    (checkout / "robots" / "n.urdf.xacro").write_text(XACRO)
    (outside / "n.urdf.xacro").write_text(XACRO)
    (checkout / "robots" / "evil.urdf.xacro").symlink_to(outside / "n.urdf.xacro")
    before = listing(outside)
    status, out, err = audit(checkout, "--fix", "--no-cache", "--format", "json", "robots")
    assert status == 0, err
    assert statuses(out)["robots/evil.urdf.xacro"][0] == "skipped"
    assert "fixed robots/n.urdf.xacro" in err, err
    assert "GZI104" not in codes(checkout, "robots/n.urdf.xacro")
    assert listing(outside) == before
    assert sorted(p.name for p in (checkout / "robots").iterdir()) == [
        "evil.urdf.xacro", "n.urdf.xacro"]


def test_a_link_named_on_the_command_line_is_still_audited_and_fixed(
    places: tuple[Path, Path],
) -> None:
    """A path the user names may be read and written through a link, as before."""
    checkout, outside = places
    (checkout / "named.sdf").symlink_to(outside / "rounded.sdf")
    status, out, err = audit(checkout, "--fix", "--no-cache", "--format", "json", "named.sdf")
    assert status == 0 and statuses(out) == {"named.sdf": ("ok", None)}, err
    assert "GZI104" not in codes(checkout, str(outside / "rounded.sdf"))
    assert (checkout / "named.sdf").is_symlink()


def test_a_folder_swapped_for_a_link_after_discovery_is_not_written(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The race: ``models/`` is a real folder when the tree is walked, then becomes a link to
    ``outside`` (which holds a fixable ``rounded.sdf`` too) before ``--fix`` writes: the write
    is refused with a note, the file outside keeps its bytes."""
    from gzinertia.audit import discover as discover_module
    from gzinertia.audit import projects  # noqa: F401  (binds discover before it is patched)
    from gzinertia.audit.catalogue import RULE_INFOS
    from gzinertia.cli.audit_fix import apply_safe_fixes

    checkout, outside = places
    monkeypatch.chdir(checkout)
    found = discover_module.discover

    def discover_then_swap(paths: list[str], *rest: Any) -> list[discover_module.Target]:
        targets = found(paths, *rest)
        (checkout / "models").rename(checkout / "moved")
        (checkout / "models").symlink_to(outside, target_is_directory=True)
        return targets

    monkeypatch.setattr(discover_module, "discover", discover_then_swap)
    before = listing(outside)
    known = frozenset(RULE_INFOS)
    assert apply_safe_fixes(["."], None, known, lambda c: c) == 0
    assert listing(outside) == before
    err = capsys.readouterr().err
    assert "--fix left models/rounded.sdf as it was" in err and "real path is outside" in err, err


# --- the writer itself --------------------------------------------------------------------------


def test_write_atomically_under_a_root_refuses_every_link_below_it(tmp_path: Path) -> None:
    from gzinertia.io.safe_write import write_atomically

    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "real").mkdir(parents=True)
    outside.mkdir()
    (outside / "file").write_bytes(b"outside\n")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "real" / "file").symlink_to(outside / "file")
    (root / "real" / "dangling").symlink_to(outside / "new")
    before = listing(outside)
    for relative, linked in (("linked/file", "linked"), ("real/file", "real/file"),
                             ("real/dangling", "real/dangling")):
        with pytest.raises(GzInertiaError, match=f"{re.escape(linked)} is a symbolic link"):
            write_atomically(root / relative, b"new\n", root=root)
    with pytest.raises(GzInertiaError, match="outside"):
        write_atomically(outside / "file", b"new\n", root=root)
    assert listing(outside) == before
    write_atomically(root / "real" / "new", b"new\n", root=root)
    assert (root / "real" / "new").read_bytes() == b"new\n"
    assert sorted(p.name for p in (root / "real").iterdir()) == ["dangling", "file", "new"]


# --- strace: the kernel's own account -----------------------------------------------------------

#: Runs ``gzinertia ARGV[3:]`` under ``strace -ff -y`` (one log per process, every descriptor
#: shown as the file it refers to), logging to ``ARGV[1]``.
_STRACED = (
    "import os, sys\n"
    "cli = \"from gzinertia.cli import main; import sys; sys.argv[0] = 'gzinertia'; main()\"\n"
    "os.execvp('strace', ['strace', '-ff', '-y', '-qq', '-s', '4096', '-e', 'trace=%file',\n"
    "          '-o', sys.argv[1], sys.executable, '-c', cli, *sys.argv[2:]])\n"
)
_CALL = re.compile(r"^(?P<name>\w+)\((?P<args>.*)\)\s+=\s+(?P<ret>-?\d+)(?:<(?P<fd>[^>]*)>)?")
_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
_MUTATING = {  # syscall: indexes of its (dirfd, path) pairs (dirfd None: the working directory)
    "unlink": [(None, 0)], "unlinkat": [(0, 1)], "rmdir": [(None, 0)],
    "rename": [(None, 0), (None, 1)], "renameat": [(0, 1), (2, 3)], "renameat2": [(0, 1), (2, 3)],
    "mkdir": [(None, 0)], "mkdirat": [(0, 1)], "link": [(None, 1)], "linkat": [(2, 3)],
    "symlink": [(None, 1)], "symlinkat": [(1, 2)], "truncate": [(None, 0)],
    "chmod": [(None, 0)], "fchmodat": [(0, 1)], "chown": [(None, 0)], "fchownat": [(0, 1)],
    "setxattr": [(None, 0)], "utimensat": [(0, 1)],
}


def _arguments(text: str) -> list[str]:
    """strace's argument list split at its top-level commas (strings, braces, brackets kept)."""
    args, depth, current, quoted, escaped = [], 0, "", False, False
    for ch in text:
        if quoted:
            quoted = ch != '"' or escaped
            escaped = ch == "\\" and not escaped
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(current.strip())
            current = ""
            continue
        current += ch
    return [*args, current.strip()]


def _path_arg(arg: str) -> str:
    return arg[1:-1].encode().decode("unicode_escape") if arg.startswith('"') else ""


def _affected(dirfd: str | None, path: str, cwd: str) -> str:
    """The real path a call on ``path`` (relative to ``dirfd``, decoded by ``-y``) acted on:
    its folder resolved now (the links are still there), its last component as named."""
    base = cwd
    if dirfd is not None:
        m = re.search(r"<([^>]*)>", dirfd)
        base = m.group(1) if m else cwd
    full = os.path.join(base, path)
    return os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))


def traced(checkout: Path, log: Path, *args: str) -> list[tuple[str, str, str]]:
    """Runs ``gzinertia ARGS`` in ``checkout`` under strace; (syscall, real path, "write" or
    "read") for every call that succeeded on a file."""
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (apt-get install strace)")
    proc = run_limited(_STRACED, str(log), *args, env={"GZINERTIA_CACHE_DIR": ""}, cwd=checkout)
    assert "Traceback" not in proc.stderr, proc.stderr
    calls: list[tuple[str, str, str]] = []
    for one in log.parent.glob(log.name + ".*"):
        for line in one.read_text(errors="replace").splitlines():
            m = _CALL.match(line)
            if m is None or int(m["ret"]) < 0:
                continue
            name, args_ = m["name"], _arguments(m["args"])
            if name in ("open", "openat", "openat2", "creat") and m["fd"]:
                flags = args_[2] if name.startswith("openat") else (
                    args_[1] if name == "open" else "O_CREAT")
                kind = "write" if any(f in flags for f in _WRITE_FLAGS) else "read"
                calls.append((name, m["fd"], kind))
            for dirfd, index in _MUTATING.get(name, []):
                path = _path_arg(args_[index])
                at = None if dirfd is None else args_[dirfd]
                calls.append((name, _affected(at, path, str(checkout)), "write"))
    assert calls, proc.stderr  # strace ran and logged
    return calls


def within(path: str, folder: Path) -> bool:
    real = os.path.realpath(folder)
    return path == real or path.startswith(real + os.sep)


def test_strace_no_write_reaches_outside_and_the_linked_model_is_never_opened(
    places: tuple[Path, Path], tmp_path: Path
) -> None:
    """Every attack at once (cache folders, marker, a model link leaving the tree) under
    ``audit --fix .``, then a report link: the kernel saw no write-mode open, creation,
    rename or deletion outside, and no open at all of the linked model; the runs still fixed
    the checkout's model (first run) and refused the report (second)."""
    checkout, outside = places
    (checkout / ".gzinertia_cache").mkdir()
    (checkout / ".gzinertia_cache" / "audit").symlink_to(outside, target_is_directory=True)
    (checkout / ".gzinertia_cache" / ".gitignore").symlink_to(outside / "created")
    (checkout / "models" / "evil.sdf").symlink_to(outside / "rounded.sdf")
    (checkout / "models" / "n.urdf.xacro").write_text(XACRO)
    (checkout / "gzinertia.sarif").symlink_to(outside / "precious0.json")
    before = listing(outside)
    calls = traced(checkout, tmp_path / "fix.log", "audit", "--fix", "--format", "json", ".")
    writes_inside = [c for c in calls if c[2] == "write" and within(c[1], checkout)]
    for fixed in ("rounded.sdf", "n.urdf.xacro"):
        assert any(c[1].endswith(f"models/{fixed}") and c[0].startswith("rename")
                   for c in writes_inside), fixed
    assert any(".gzinertia-tmp-" in c[1] and c[1].endswith(".xacro") and c[0] == "unlinkat"
               for c in writes_inside)  # the xacro's check: a copy made and removed inside
    calls += traced(checkout, tmp_path / "report.log", "audit", "--format", "sarif",
                    "--output", "gzinertia.sarif", ".")
    assert [c for c in calls if within(c[1], outside) and c[2] == "write"] == []
    assert [c for c in calls if c[1] == str(outside / "rounded.sdf")] == []
    assert listing(outside) == before
