"""``gzinertia addmass``'s flags: their declarations and help texts (the command in
:mod:`gzinertia.cli.addmass` names them), one alias per flag in the order ``--help`` lists them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from gzinertia.cli.flags import Maybe, argument, flag
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

ModelFileArgument = Annotated[Path, argument(
    "SDFormat model or world file to edit; or URDF/xacro (gets a <gazebo> Hydrodynamics block); "
    "- reads SDFormat from standard input and writes the edited file to standard output (or -o "
    "OUT).")]
EllipsoidFlag = Annotated[bool, flag("--ellipsoid",
    "Ellipsoid added mass (Tuckerman's closed form); required.")]
BemFlag = Annotated[bool, flag("--bem",
    "Added mass of the link's collision geometry by a boundary-element solve (Capytaine, "
    "unbounded fluid; needs pip install 'gzinertia[bem]'). docs/bem.md.")]
GeometryFlag = Annotated[Maybe[str], flag("--geometry",
    "With --bem: the collisions to mesh, comma-separated names (default: all of the link's "
    "collisions, united); 'visual' meshes the link's visuals instead (when the collision is a "
    "buoyancy proxy), 'visual:NAME,...' the visuals named. With --from: the geometry the result "
    "describes (GZI212 watches it).")]
PanelSizeFlag = Annotated[Maybe[float], flag("--panel-size",
    "With --bem: longest panel edge in metres.")]
QualityFlag = Annotated[str, flag("--quality",
    "With --bem and no --panel-size: fast (~900 panels), default (~2000), fine (~5000).")]
FromResultFlag = Annotated[Maybe[Path], flag("--from",
    "Import an added mass computed elsewhere: a Capytaine NetCDF dataset (assemble_dataset), for "
    "the one link --link names. docs/bem.md.")]
AboutFlag = Annotated[Maybe[str], flag("--about",
    "With --from: the point the result is about, x,y,z in the link frame (default: the dataset's "
    "rotation_center, read as link coordinates).")]
AxesFlag = Annotated[Maybe[str], flag("--axes",
    "With --from: orientation of the result's axes in the link, roll,pitch,yaw (radians; default "
    "0,0,0).")]
FrequencyFlag = Annotated[Maybe[str], flag("--frequency",
    "With --from: the dataset's frequency to use, zero, infinite or omega in rad/s (required "
    "when it holds several).")]
WamitLengthFlag = Annotated[float, flag("--wamit-length",
    "With --from FILE.1: WAMIT's length scale ULEN in metres (default 1).")]
WaterlineFlag = Annotated[Maybe[str], flag("--waterline",
    "With --bem: a free surface at this height z in the world frame (m); the body is clipped "
    "there. 'auto': at the floating draft, heel and trim of the hydrostatic equilibrium (as "
    "hydrostatics --waterline finds it). Default: fully submerged (unbounded fluid).")]
DepthFlag = Annotated[Maybe[float], flag("--depth",
    "With --waterline: water depth below it in metres (default deep). Refused today at either "
    "frequency (the solver cannot take a sea bed reliably: docs/bem.md).")]
TogetherFlag = Annotated[bool, flag("--together",
    "With --bem: solve the selected links in one problem, so hulls that shadow each other (a "
    "catamaran's) get their interaction; each link gets its own block.")]
NoCacheFlag = Annotated[bool, flag("--no-cache",
    "With --bem: neither read nor write the result cache.")]
ProgressBarFlag = Annotated[Maybe[bool], flag("--progress/--no-progress",
    "With --bem: progress bars per link and per solve on stderr (default: on a terminal outside "
    "CI; otherwise one line per solve).")]
FitFlag = Annotated[FitChoice, flag("",
    "Ellipsoid fitted to the link: volume (same volume, centroid and principal axes as its "
    "collisions), mujoco (MuJoCo's rule per collision), inertia (equivalent ellipsoid of the "
    "rigid inertia).")]
SemiAxesFlag = Annotated[Maybe[str], flag("--semi-axes",
    "Explicit ellipsoid semi-axes a,b,c in metres.")]
CenterFlag = Annotated[Maybe[str], flag("--center",
    "Explicit ellipsoid centre x,y,z in the link frame.")]
RpyFlag = Annotated[Maybe[str], flag("--rpy",
    "Explicit ellipsoid orientation roll,pitch,yaw (radians).")]
UpgradeVersionFlag = Annotated[bool, flag("--upgrade-version/--keep-version",
    "Declare SDF 1.10 (the version of <fluid_added_mass>) in older files whose content means the "
    "same under 1.10; files where it would not are refused. --keep-version writes under the old "
    "version (the audit then reports GZI201).")]
ReplacePluginAddedMassFlag = Annotated[bool, flag("--replace-plugin-added-mass",
    "For links whose Hydrodynamics plugin applies added mass (<iDotJ>): write the ellipsoid "
    "estimate and set <disable_added_mass>true</disable_added_mass> on the plugin. Without it "
    "such links are skipped (their added mass would count twice).")]
AllowOverlapFlag = Annotated[bool, flag("--allow-overlap",
    "Also write links whose fluid ellipsoid overlaps that of a link with added mass (skipped by "
    "default: the shared fluid would count twice, GZI210).")]
