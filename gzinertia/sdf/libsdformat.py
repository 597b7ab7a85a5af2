"""Optional backend: link poses and rigid inertials from libsdformat's own Python module.

Used by ``--parser sdformat`` when ``sdformat14``, ``sdformat13``, ``sdformat15`` or ``sdformat``
is importable (Gazebo's bindings are not on PyPI). libsdformat's API does not expose
``<fluid_added_mass>`` to Python, so everything else (added mass, collisions, plugins, notes)
still comes from our reader; this adapter only replaces ``X_WB`` and the rigid inertial.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from gzinertia.errors import GzInertiaError, SdfError
from gzinertia.options import option
from gzinertia.records import SdfDocument
from gzinertia.sdf.reader import read_sdf_file
from gzinertia.spatial.rotation import Pose, rotation_from_quaternion_xyzw

__all__ = ["MODULE_NAMES", "find_module", "read_with_libsdformat"]

MODULE_NAMES = ("sdformat14", "sdformat13", "sdformat15", "sdformat")


def find_module() -> ModuleType | None:
    """The first importable libsdformat Python module, or ``None``."""
    for name in MODULE_NAMES:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def _pose(p: Any) -> Pose:
    q = p.rot()
    return Pose(
        np.array([p.pos().x(), p.pos().y(), p.pos().z()]),
        rotation_from_quaternion_xyzw(q.x(), q.y(), q.z(), q.w()),
    )


def _links(model: Any, X_WM: Pose, prefix: str) -> Iterator[tuple[str, Pose, Any]]:
    scope = f"{prefix}::{model.name()}" if prefix else model.name()
    for i in range(model.link_count()):
        link = model.link_by_index(i)
        X_MB = _pose(link.semantic_pose().resolve("__model__"))
        yield f"{scope}::{link.name()}", X_WM @ X_MB, link
    for j in range(model.model_count()):
        nested = model.model_by_index(j)
        yield from _links(nested, X_WM @ _pose(nested.semantic_pose().resolve()), scope)


def read_with_libsdformat(path: str | Path, model_paths: Sequence[str | Path] = ()) -> SdfDocument:
    """Our reading of ``path`` with link poses and rigid inertials taken from libsdformat."""
    sdformat = find_module()
    if sdformat is None:
        raise GzInertiaError(
            f"{option('parser_sdformat')} needs libsdformat's Python module "
            f"({', '.join(MODULE_NAMES)}); none is importable"
        )
    doc = read_sdf_file(path, model_paths)
    root = sdformat.Root()
    saved = os.environ.get("SDF_PATH")
    os.environ["SDF_PATH"] = os.pathsep.join(
        filter(None, [*(str(p) for p in model_paths), saved])
    )  # libsdformat finds model:// through SDF_PATH; restored below
    try:
        errors = root.load(str(path))
    except Exception as exc:  # the bindings raise SDFErrorsException
        raise SdfError(str(path), None, f"libsdformat: {exc}") from None
    finally:
        if saved is None:
            os.environ.pop("SDF_PATH", None)
        else:
            os.environ["SDF_PATH"] = saved
    if errors:
        raise SdfError(str(path), None, f"libsdformat: {errors[0]}")
    theirs: dict[str, tuple[Pose, Any]] = {}
    if root.world_count() > 0:
        world = root.world_by_index(0)
        for i in range(world.model_count()):
            model = world.model_by_index(i)
            for name, X_WB, link in _links(model, _pose(model.semantic_pose().resolve()), ""):
                theirs[name] = (X_WB, link)
    elif root.model() is not None:
        model = root.model()
        for name, X_WB, link in _links(model, _pose(model.semantic_pose().resolve()), ""):
            theirs[name] = (X_WB, link)
    links = []
    for record in doc.links:
        if record.name not in theirs:
            links.append(record)
            continue
        X_WB, link = theirs[record.name]
        inertial = link.inertial()
        moi = inertial.mass_matrix().moi()
        I_BBcm_I = np.array([[moi(r, c) for c in range(3)] for r in range(3)])
        new_inertial = replace(
            record.inertial,
            mass=inertial.mass_matrix().mass(),
            X_BI=_pose(inertial.pose()),
            I_BBcm_I=I_BBcm_I,
        )
        links.append(replace(record, X_WB=X_WB, inertial=new_inertial))
    return replace(doc, links=tuple(links))
