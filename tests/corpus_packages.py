"""The corpus's xacro files in a ROS-like package tree, as ``$(find pkg)`` needs them.

The corpus (``/work/shared/corpus``, read-only) holds repositories without their
``package.xml`` files. :func:`package_tree` copies the repositories that hold xacro files
(meshes and images left out) and makes a package of each folder, below a repository's own
folder, that holds ``urdf/``, ``description/`` or ``models/`` (named by the folder, as ROS
packages are): ``$(find uuv_descriptions)`` then resolves to the corpus's
``uuv_simulator/uuv_descriptions``. Packages do not nest, so a repository's root (which may
hold ``urdf/`` too) is never one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

PACKAGE_MARKERS = ("urdf", "description", "models")


def corpus_xacros(corpus: Path) -> list[Path]:
    """Every ``*.xacro`` file of the corpus (generated files excluded), sorted."""
    if not corpus.is_dir():
        return []
    return sorted(p for p in corpus.rglob("*.xacro")
                  if p.relative_to(corpus).parts[0] != "_generated")


def package_tree(corpus: Path, dest: Path) -> Path:
    """A copy of the corpus's repositories holding xacro files, with a ``package.xml`` in
    each package folder; returns the tree's root (the package path to give)."""
    repos = sorted({p.relative_to(corpus).parts[0] for p in corpus_xacros(corpus)})
    tree = dest / "ws"
    for repo in repos:
        shutil.copytree(corpus / repo, tree / repo, symlinks=False,
                        ignore=shutil.ignore_patterns("*.dae", "*.stl", "*.obj", "*.png"))
    for folder in sorted(tree.rglob("*")):
        depth = len(folder.relative_to(tree).parts)
        if folder.is_dir() and depth >= 2 and any((folder / m).is_dir() for m in PACKAGE_MARKERS):
            (folder / "package.xml").write_text(f"<package><name>{folder.name}</name></package>")
    return tree


def in_tree(tree: Path, corpus: Path, path: Path) -> Path:
    """The copy of the corpus file ``path`` in ``tree``."""
    return tree / path.relative_to(corpus)
