"""Headless Chromium (Debian's ``chromium`` package) as the browser that opens the HTML report.

:func:`chromium_binary` finds it, or installs it with ``apt-get`` (as ``.ci/run`` installs
libsdformat) when it is missing and installing is allowed: ``apt-get`` present, root or
password-less ``sudo``, and ``GZINERTIA_NO_APT`` unset; ``None`` otherwise (the tests that need
it then skip, saying why). :func:`open_page` loads a page with every host name resolving to
nothing (no network while it loads) and returns its DOM after its scripts ran, and
:func:`screenshot` a PNG of it.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from oracles.machine_lock import machine_lock

#: Chromium's names on Debian and elsewhere.
NAMES = ("chromium", "chromium-browser", "google-chrome")
#: Every host name resolves to nothing: a page that fetched anything would fail to.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND"
#: How long the page's scripts may run (virtual time, ms) before the DOM is read.
BUDGET_MS = 10000


def _found() -> str | None:
    return next((path for name in NAMES if (path := shutil.which(name))), None)


def _install() -> str:
    """Why chromium could not be installed ("" when it was)."""
    if os.environ.get("GZINERTIA_NO_APT"):
        return "GZINERTIA_NO_APT is set"
    if shutil.which("apt-get") is None:
        return "no apt-get"
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and shutil.which("sudo") is None:
        return "not root and no sudo"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = [*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]
    for before in ([], [*sudo, "apt-get", "update", "-qq"]):  # the package lists may be stale
        try:
            if before:
                subprocess.run(before, capture_output=True, timeout=600, check=True, env=env)
            subprocess.run(install, capture_output=True, timeout=600, check=True, env=env)
            return ""
        except (subprocess.SubprocessError, OSError):
            continue
    return "apt-get install chromium failed"


@functools.cache
def chromium_binary() -> tuple[str | None, str]:
    """The browser's path (installed first when allowed), else ``None`` and why not."""
    found = _found()
    if found is None:
        with machine_lock("apt-get"):  # one install at a time (xdist's workers, other sessions)
            found = _found()
            why = "" if found else _install()
            found = found or _found()
        if found is None:
            return None, why or "chromium not found after apt-get install"
    return found, ""


def _run(url: str, *flags: str) -> str:
    binary, why = chromium_binary()
    if binary is None:
        raise RuntimeError(why)
    with tempfile.TemporaryDirectory(prefix="gzinertia-chromium-") as profile:
        done = subprocess.run(
            [binary, "--headless", "--no-sandbox", "--enable-unsafe-swiftshader",
             "--disable-extensions", "--no-first-run", f"--user-data-dir={profile}", OFFLINE,
             f"--virtual-time-budget={BUDGET_MS}", *flags, url],
            capture_output=True, text=True, timeout=120, check=False,
        )
    if done.returncode:
        raise RuntimeError(f"chromium exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def open_page(page: Path, fragment: str = "") -> str:
    """The page's DOM once its scripts ran (``--dump-dom``), loaded offline; ``fragment``
    (``#...``) is appended to its URL."""
    return _run(page.as_uri() + fragment, "--dump-dom")


def screenshot(page: Path, png: Path, size: tuple[int, int] = (1400, 900)) -> None:
    """A PNG of the page (``size`` pixels), loaded offline."""
    _run(page.as_uri(), f"--screenshot={png}", f"--window-size={size[0]},{size[1]}")
