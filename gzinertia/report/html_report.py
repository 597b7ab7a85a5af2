"""``gzinertia report``'s output: one self-contained HTML file that a browser opens offline.

The page holds the data of each model file (:func:`gzinertia.report.scene.model_scene`) as a
JSON ``<script>`` element, three.js and the viewer inlined
(:mod:`gzinertia.report.viewer_script`): no ``src`` or ``href`` loads anything; the only
addresses in it are the rule pages the findings link to, opened when clicked.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from gzinertia.report.viewer_script import inline_json, inline_script, three_js, viewer_js
from gzinertia.version import __version__

__all__ = ["report_html"]

_STYLE = """
body { font: 14px system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 6px 12px; background: #f3f3f3; display: flex; gap: 16px; align-items: center; }
header h1 { font-size: 16px; margin: 0; }
main { display: flex; height: calc(100vh - 44px); }
#gzinertia-view-box { flex: 3; display: flex; flex-direction: column; min-width: 0; }
#gzinertia-view { flex: 1; min-height: 300px; }
#gzinertia-toggles { padding: 4px 8px; display: flex; flex-wrap: wrap; gap: 12px; }
#gzinertia-panels { flex: 2; overflow: auto; padding: 0 12px; border-left: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 12px; margin-bottom: 8px; }
td, th { border: 1px solid #ddd; padding: 2px 4px; text-align: left; }
tr[data-link] { cursor: pointer; }
.selected, .selected td { background: #fde7fd; }
.finding.error { color: #b00020; } .finding.warning { color: #8a5a00; }
h2 { font-size: 15px; margin: 12px 0 4px; }
pre { font-size: 11px; max-height: 300px; overflow: auto; }
"""

_BODY = """<header><h1>gzinertia {version} report</h1>
<label>model file <select id="gzinertia-file"></select></label>
<details id="gzinertia-skipped" hidden><summary></summary><ul></ul></details></header>
<main><div id="gzinertia-view-box"><div id="gzinertia-view"></div>
<div id="gzinertia-toggles"></div>
<p>Drag to turn, wheel to zoom, right-drag to pan. World frame, z up (link axes: x red,
y green, z blue). Red: G, blue: Gazebo's B, green: the exact B; orange: equivalent inertia
ellipsoids; teal mesh: fluid ellipsoids (volume fit); purple: the ellipsoid whose
added mass is the link's (true size); dark purple wire: the panels addmass --bem
solved on; pale blue: the waterline. Click a
finding's link or a row to highlight it. {findings_note}</p>
</div><div id="gzinertia-panels"></div></main>"""


def _script(text: str) -> str:

    return f"<script>{inline_script(text)}</script>"


def report_html(scenes: Sequence[dict[str, Any]], skipped: Sequence[str] = (),
                findings_note: str = "") -> str:
    """The report of ``scenes`` (one :func:`~gzinertia.report.scene.model_scene` per file, in
    the order given) as one HTML document; ``skipped``: a line per file left out (a folder's
    template or unreadable file), listed at the top of the page; ``findings_note``: what the
    page says of the findings' audit (HTML). Raises
    :class:`~gzinertia.errors.GzInertiaError` with the install hint without three.js."""
    data = json.dumps({"version": __version__, "models": list(scenes), "skipped": list(skipped)},
                      allow_nan=False,
                      separators=(",", ":"))
    title = html.escape(", ".join(str(s["file"]) for s in scenes))
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>gzinertia report: {title}</title>", f"<style>{_STYLE}</style></head><body>",
        _BODY.format(version=html.escape(__version__), findings_note=findings_note),
        f'<script type="application/json" id="gzinertia-data">{inline_json(data)}</script>',
        _script(three_js()), _script(viewer_js()), "</body></html>", "",
    ])
