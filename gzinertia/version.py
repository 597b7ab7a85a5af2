"""The package's version (``gzinertia.__version__``), in a module of its own so that what
stamps it into an output (the HTML report, ``--version``) imports no package face.

Floor: the words (no import)."""

__all__ = ["__version__"]

__version__ = "0.1.0"
