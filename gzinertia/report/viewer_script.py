"""The JavaScript the HTML report inlines: three.js (r130, MIT, with its OrbitControls) as the
``jupyter-threejs-sage`` package ships it (the ``gzinertia[report]`` extra), and the report's
own viewer (``viewer.js`` next to this module).

Inlined, never linked: the page needs no network when it is opened. A script's text is made
safe for an HTML ``<script>`` element (no ``</script`` inside it).
"""

from __future__ import annotations

from importlib import resources

from gzinertia.errors import GzInertiaError

__all__ = ["THREE_PACKAGE", "THREE_VERSION", "inline_json", "inline_script", "three_js",
           "viewer_js"]

#: The PyPI package that ships three.js, and the build it ships that the viewer is written for.
THREE_PACKAGE = "jupyter-threejs-sage"
THREE_VERSION = "r130"


def inline_script(text: str) -> str:
    r"""JavaScript ``text`` as it may stand inside ``<script>...</script>``: ``</`` written
    ``<\/`` (the same string or pattern to JavaScript; neither build has one outside them).
    Data goes through :func:`inline_json` instead."""
    return text.replace("</", "<\\/")


def inline_json(text: str) -> str:
    r"""JSON ``text`` as it may stand inside ``<script type="application/json">``: every ``<``
    written ``\u003c`` (the same JSON value; no ``</script`` or ``<!--`` can end or hide the
    element)."""
    return text.replace("<", "\\u003c")


def three_js() -> str:
    """three.js's minified build (its licence header kept). Raises
    :class:`~gzinertia.errors.GzInertiaError` with the install hint when the package is
    missing."""
    try:
        root = resources.files("jupyter_threejs_sage")
    except ModuleNotFoundError:
        raise GzInertiaError(
            f"the HTML report needs three.js from the {THREE_PACKAGE} package: "
            "pip install 'gzinertia[report]'"
        ) from None
    script = root / "static" / THREE_VERSION / "three.min.js"
    if not script.is_file():
        raise GzInertiaError(f"the HTML report needs three.js {THREE_VERSION}, which this "
                             f"{THREE_PACKAGE} does not ship: pip install 'gzinertia[report]'")
    return script.read_text(encoding="utf-8")


def viewer_js() -> str:
    """The report's viewer (``viewer.js``: builds the scenes from the page's data, the toggles,
    the findings' links and the test hook ``window.gzinertiaScene``)."""
    return (resources.files("gzinertia.report") / "viewer.js").read_text(encoding="utf-8")
