"""``gzinertia addmass``'s arguments and flags: the FILE argument, and the flags declared once,
as the fields of :class:`AddmassFlags` in the order ``--help`` lists them (the command in
:mod:`gzinertia.cli.addmass` takes the record); ``--upgrade-version/--keep-version`` as the alias
:data:`UpgradeVersionFlag`, which ``migrate`` shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from gzinertia.cli.app import DensityOption, FluidOption, LinkOption
from gzinertia.cli.flags import Maybe, argument, flag, flag_with
from gzinertia.cli.options import FitChoice
from gzinertia.cli.target_options import engine_flag, gazebo_flag
from gzinertia.record_base import ValueRecord

__all__ = ["AddmassFlags", "ModelFileArgument", "UpgradeVersionFlag"]

ModelFileArgument = Annotated[Path, argument(
    "SDFormat model or world file to edit; or URDF/xacro (gets a <gazebo> Hydrodynamics block); "
    "- reads SDFormat from standard input and writes the edited file to standard output (or -o "
    "OUT).")]
UpgradeVersionFlag = Annotated[bool, flag("--upgrade-version/--keep-version",
    "Declare SDF 1.10 (the version of <fluid_added_mass>) in older files whose content means the "
    "same under 1.10; files where it would not are refused. --keep-version writes under the old "
    "version (the audit then reports GZI201).")]


@dataclass(frozen=True, repr=False, eq=False)
class AddmassFlags(ValueRecord):
    """``gzinertia addmass``'s flags, in the order ``--help`` lists them: the model
    (``--ellipsoid``, ``--bem``, ``--from``) and each one's own flags, the links, the fluid and
    what may be replaced."""

    ellipsoid: Annotated[bool, flag("--ellipsoid",
        "Ellipsoid added mass (Tuckerman's closed form); required.")] = False
    bem: Annotated[bool, flag("--bem",
        "Added mass of the link's collision geometry by a boundary-element solve (Capytaine, "
        "unbounded fluid; needs pip install 'gzinertia[bem]'). docs/bem.md.")] = False
    link: LinkOption = None
    geometry: Annotated[Maybe[str], flag_with("--bem", "--geometry",
        "the collisions to mesh, comma-separated names (default: all of the link's "
        "collisions, united); 'visual' meshes the link's visuals instead (when the collision is a "
        "buoyancy proxy), 'visual:NAME,...' the visuals named. With --from: the geometry the "
        "result describes (GZI212 watches it).")] = None
    panel_size: Annotated[Maybe[float], flag_with("--bem", "--panel-size",
        "longest panel edge in metres.")] = None
    quality: Annotated[str, flag("--quality",
        "With --bem and no --panel-size: fast (~900 panels), default (~2000), "
        "fine (~5000).")] = "default"
    from_result: Annotated[Maybe[Path], flag("--from",
        "Import an added mass computed elsewhere: a Capytaine NetCDF dataset (assemble_dataset), "
        "for the one link --link names. docs/bem.md.")] = None
    about: Annotated[Maybe[str], flag_with("--from", "--about",
        "the point the result is about, x,y,z in the link frame (default: the "
        "dataset's rotation_center, read as link coordinates).")] = None
    axes: Annotated[Maybe[str], flag_with("--from", "--axes",
        "orientation of the result's axes in the link, roll,pitch,yaw (radians; "
        "default 0,0,0).")] = None
    frequency: Annotated[Maybe[str], flag_with("--from", "--frequency",
        "the dataset's frequency to use, zero, infinite or omega in rad/s (required "
        "when it holds several).")] = None
    wamit_length: Annotated[float, flag("--wamit-length",
        "With --from FILE.1: WAMIT's length scale ULEN in metres (default 1).")] = 1.0
    waterline: Annotated[Maybe[str], flag_with("--bem", "--waterline",
        "a free surface at this height z in the world frame (m); the body is clipped "
        "there. 'auto': at the floating draft, heel and trim of the hydrostatic equilibrium (as "
        "hydrostatics --waterline finds it). Default: fully submerged (unbounded fluid).")] = None
    depth: Annotated[Maybe[float], flag_with("--waterline", "--depth",
        "water depth below it in metres (default deep). Refused today at either "
        "frequency (the solver cannot take a sea bed reliably: docs/bem.md).")] = None
    together: Annotated[bool, flag_with("--bem", "--together",
        "solve the selected links in one problem, so hulls that shadow each other (a "
        "catamaran's) get their interaction; each link gets its own block.")] = False
    no_cache: Annotated[bool, flag_with("--bem", "--no-cache",
        "neither read nor write the result cache.")] = False
    progress_bar: Annotated[Maybe[bool], flag_with("--bem", "--progress/--no-progress",
        "progress bars per link and per solve on stderr (default: on a terminal "
        "outside CI; otherwise one line per solve).")] = None
    fit: Annotated[FitChoice, flag("",
        "Ellipsoid fitted to the link: volume (same volume, centroid and principal axes as its "
        "collisions), mujoco (MuJoCo's rule per collision), inertia (equivalent ellipsoid of the "
        "rigid inertia).")] = "volume"
    semi_axes: Annotated[Maybe[str], flag("--semi-axes",
        "Explicit ellipsoid semi-axes a,b,c in metres.")] = None
    center: Annotated[Maybe[str], flag("--center",
        "Explicit ellipsoid centre x,y,z in the link frame.")] = None
    rpy: Annotated[Maybe[str], flag("--rpy",
        "Explicit ellipsoid orientation roll,pitch,yaw (radians).")] = None
    density: DensityOption = None
    fluid: FluidOption = None
    upgrade_version: UpgradeVersionFlag = True
    replace_plugin_added_mass: Annotated[bool, flag("--replace-plugin-added-mass",
        "For links whose Hydrodynamics plugin applies added mass (<iDotJ>): write the ellipsoid "
        "estimate and set <disable_added_mass>true</disable_added_mass> on the plugin. Without it "
        "such links are skipped (their added mass would count twice).")] = False
    allow_overlap: Annotated[bool, flag("--allow-overlap",
        "Also write links whose fluid ellipsoid overlaps that of a link with added mass (skipped "
        "by default: the shared fluid would count twice, GZI210).")] = False
    gazebo: Annotated[Maybe[str], gazebo_flag(
        "the settings' gazebo, else jetty",
        "SDFormat's <fluid_added_mass> is refused where the release ignores it (before Garden)")
    ] = None
    engine: Annotated[Maybe[str], engine_flag(
        "the settings' engine, else dartsim",
        "only dartsim applies <fluid_added_mass>, so SDFormat files are refused for the others "
        "(--engine dartsim writes it anyway; URDF gets the plugin's added mass whatever the "
        "engine).")] = None
