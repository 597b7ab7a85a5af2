"""``docs/releases.md`` shows the table of :mod:`gzinertia.gazebo.releases` as it is: the block
between its markers is what :func:`rendered` makes of the table (``python
tests/test_releases_docs.py`` writes it again)."""

from __future__ import annotations

import sys
from pathlib import Path

from gzinertia.gazebo.releases import CHANGES, DEFAULT_ENGINE, DEFAULT_RELEASE, ENGINES, RELEASES

PAGE = Path(__file__).resolve().parents[1] / "docs" / "releases.md"
BEGIN = "<!-- begin: generated from gzinertia/gazebo/releases.py -->\n"
END = "<!-- end: generated -->\n"


def _cell(text: str) -> str:
    """``text`` in a Markdown table cell: ``|`` escaped, ``<`` and ``>`` as entities."""
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def rendered() -> str:
    """The three tables (releases, engines, changes) in Markdown."""
    names = list(RELEASES)
    lines = ["### Releases", "",
             "| release | gz-sim (newest tag, date) | gz-physics | gz-common | libsdformat |",
             "|---|---|---|---|---|"]
    for r in RELEASES.values():
        default = " (default)" if r.name == DEFAULT_RELEASE else ""
        lines.append(f"| `{r.name}`{default} | {r.newest}, {r.date} | {r.gz_physics} | "
                     f"{r.gz_common} | {r.sdformat} |")
    lines += ["", "### Engines", "", "| engine | first in | source | in the releases |",
              "|---|---|---|---|"]
    for e in ENGINES.values():
        default = " (default)" if e.name == DEFAULT_ENGINE else ""
        lines.append(f"| `{e.name}`{default} | {e.first} | {e.source} | "
                     f"{', '.join(e.releases) or 'none yet'} |")
    lines += ["", "### Changes", "",
              "| key | what changed | source | " + " | ".join(n.title() for n in names) + " |",
              "|---|---|---|" + "---|" * len(names)]
    for c in CHANGES.values():
        source = f"{c.source} ({c.library} {c.commit})" if c.commit else c.source
        cells = []
        for n in names:
            first = c.first.get(n)
            cells.append(first if first else "branch, no tag" if n in c.untagged
                         else "unknown" if not c.known else "—")
        note = f" ({c.note})" if c.note else ""
        said = _cell(c.summary + note)
        lines.append(f"| `{c.key}` | {said} | {source} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def test_the_page_shows_the_table() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert text.split(BEGIN, 1)[1].split(END, 1)[0] == rendered()


def test_the_page_is_in_the_site() -> None:
    nav = (PAGE.parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    assert "releases.md" in nav


if __name__ == "__main__" and sys.argv[1:] == []:
    head, rest = PAGE.read_text(encoding="utf-8").split(BEGIN, 1)
    PAGE.write_text(head + BEGIN + rendered() + END + rest.split(END, 1)[1], encoding="utf-8")
