"""rich's progress bar for the command line, reached through :mod:`gzinertia.report`'s face
(``gzinertia.report.rich_progress.Progress(...)``) only by a run that shows one.
"""

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

__all__ = ["BarColumn", "MofNCompleteColumn", "Progress", "TaskID", "TextColumn"]
