"""``gzinertia addmass``'s flags: their declarations and help texts (the command in
:mod:`gzinertia.cli.addmass` names them), one alias per flag in the order ``--help`` lists them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from gzinertia.cli.options import FitChoice

__all__ = [
    "AboutFlag",
    "AllowOverlapFlag",
    "AxesFlag",
    "BemFlag",
    "CenterFlag",
    "DepthFlag",
    "EllipsoidFlag",
    "FitFlag",
    "FrequencyFlag",
    "FromResultFlag",
    "GeometryFlag",
    "ModelFileArgument",
    "NoCacheFlag",
    "PanelSizeFlag",
    "ProgressBarFlag",
    "QualityFlag",
    "ReplacePluginAddedMassFlag",
    "RpyFlag",
    "SemiAxesFlag",
    "TogetherFlag",
    "UpgradeVersionFlag",
    "WamitLengthFlag",
    "WaterlineFlag",
]

ModelFileArgument = Annotated[
    Path,
    typer.Argument(
        help="SDFormat model or world file to edit; or URDF/xacro (gets a <gazebo> "
        "Hydrodynamics block); - reads SDFormat from "
        "standard input and writes the edited file to standard output (or -o OUT)."
    ),
]
EllipsoidFlag = Annotated[
    bool,
    typer.Option(
        "--ellipsoid", help="Ellipsoid added mass (Tuckerman's closed form); required."
    ),
]
BemFlag = Annotated[
    bool,
    typer.Option(
        "--bem",
        help="Added mass of the link's collision geometry by a boundary-element solve "
        "(Capytaine, unbounded fluid; needs pip install 'gzinertia[bem]'). docs/bem.md.",
    ),
]
GeometryFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--geometry",
        help="With --bem: the collisions to mesh, comma-separated names (default: all of "
        "the link's collisions, united); 'visual' meshes the link's visuals instead (when "
        "the collision is a buoyancy proxy), 'visual:NAME,...' the visuals named. With "
        "--from: the geometry the result describes (GZI212 watches it).",
    ),
]
PanelSizeFlag = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option("--panel-size", help="With --bem: longest panel edge in metres."),
]
QualityFlag = Annotated[
    str,
    typer.Option(
        "--quality",
        help="With --bem and no --panel-size: fast (~900 panels), default (~2000), "
        "fine (~5000).",
    ),
]
FromResultFlag = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(
        "--from",
        help="Import an added mass computed elsewhere: a Capytaine NetCDF dataset "
        "(assemble_dataset), for the one link --link names. docs/bem.md.",
    ),
]
AboutFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--about",
        help="With --from: the point the result is about, x,y,z in the link frame (default: "
        "the dataset's rotation_center, read as link coordinates).",
    ),
]
AxesFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--axes",
        help="With --from: orientation of the result's axes in the link, roll,pitch,yaw "
        "(radians; default 0,0,0).",
    ),
]
FrequencyFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--frequency",
        help="With --from: the dataset's frequency to use, zero, infinite or omega in rad/s "
        "(required when it holds several).",
    ),
]
WamitLengthFlag = Annotated[
    float,
    typer.Option(
        "--wamit-length",
        help="With --from FILE.1: WAMIT's length scale ULEN in metres (default 1).",
    ),
]
WaterlineFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--waterline",
        help="With --bem: a free surface at this height z in the world frame (m); the body "
        "is clipped there. 'auto': at the floating draft, heel and trim of the hydrostatic "
        "equilibrium (as hydrostatics --waterline finds it). Default: fully submerged "
        "(unbounded fluid).",
    ),
]
DepthFlag = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--depth",
        help="With --waterline: water depth below it in metres (default deep). Refused "
        "today at either frequency (the solver cannot take a sea bed reliably: docs/bem.md).",
    ),
]
TogetherFlag = Annotated[
    bool,
    typer.Option(
        "--together",
        help="With --bem: solve the selected links in one problem, so hulls that shadow "
        "each other (a catamaran's) get their interaction; each link gets its own block.",
    ),
]
NoCacheFlag = Annotated[
    bool,
    typer.Option("--no-cache", help="With --bem: neither read nor write the result cache."),
]
ProgressBarFlag = Annotated[
    Optional[bool],  # noqa: UP045
    typer.Option(
        "--progress/--no-progress",
        help="With --bem: progress bars per link and per solve on stderr (default: on a "
        "terminal outside CI; otherwise one line per solve).",
    ),
]
FitFlag = Annotated[
    FitChoice,
    typer.Option(
        help="Ellipsoid fitted to the link: volume (same volume, centroid and principal "
        "axes as its collisions), mujoco (MuJoCo's rule per collision), inertia "
        "(equivalent ellipsoid of the rigid inertia)."
    ),
]
SemiAxesFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--semi-axes", help="Explicit ellipsoid semi-axes a,b,c in metres."),
]
CenterFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--center", help="Explicit ellipsoid centre x,y,z in the link frame."),
]
RpyFlag = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--rpy", help="Explicit ellipsoid orientation roll,pitch,yaw (radians)."),
]
UpgradeVersionFlag = Annotated[
    bool,
    typer.Option(
        "--upgrade-version/--keep-version",
        help="Declare SDF 1.10 (the version of <fluid_added_mass>) in older files whose "
        "content means the same under 1.10; files where it would not are refused. "
        "--keep-version writes under the old version (the audit then reports GZI201).",
    ),
]
ReplacePluginAddedMassFlag = Annotated[
    bool,
    typer.Option(
        "--replace-plugin-added-mass",
        help="For links whose Hydrodynamics plugin applies added mass (<iDotJ>): write the "
        "ellipsoid estimate and set <disable_added_mass>true</disable_added_mass> on the "
        "plugin. Without it such links are skipped (their added mass would count twice).",
    ),
]
AllowOverlapFlag = Annotated[
    bool,
    typer.Option(
        "--allow-overlap",
        help="Also write links whose fluid ellipsoid overlaps that of a link with added "
        "mass (skipped by default: the shared fluid would count twice, GZI210).",
    ),
]
