"""The rich classes the command line writes with, in one module that it reaches through
:mod:`gzinertia.report`'s face (``gzinertia.report.rich_text.Console()``): typer's ``--help``
needs none of rich, about 15 ms of start-up. Progress bars, 10 ms more, are
:mod:`gzinertia.report.rich_progress`'s.
"""

from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["Console", "Table", "Text"]
