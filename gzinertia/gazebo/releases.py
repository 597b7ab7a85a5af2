"""What each Gazebo release and physics engine does with a model: the one table, data only.

Read from the public repositories' history (gazebosim/gz-sim, gz-physics, gz-common, sdformat; each
release's newest tag, ``git tag --contains COMMIT``). A release is named by its codename and
stands for its **newest tag** (what a current install of it runs): a change is in a release
when that tag contains it (:meth:`Change.in_release`). NumPy-free: the command line's help and
the settings reader import it.

* :data:`RELEASES`: Fortress to Jetty, with the majors of gz-sim, gz-physics, gz-common and
  libsdformat their gz-sim's ``CMakeLists.txt`` asks for at that tag.
* :data:`ENGINES`: the engines gz-physics ships (its folders ``dartsim``, ``bullet``,
  ``bullet-featherstone``, ``tpe``, ``mujoco``), each with the gz-physics tag it first came in.
* :data:`CHANGES`: each behaviour that differs between releases, with its source (pull request
  and commit) and the first tag of each release that has it.

The default target (:data:`DEFAULT_RELEASE`, :data:`DEFAULT_ENGINE`) is the newest stable
release, Jetty (gz-sim10: no gz-sim11 tag exists), with gz-sim's default engine, dartsim
(``src/systems/physics/Physics.cc``: ``gz-physics-dartsim-plugin`` when neither the server
configuration nor the Physics system's ``<engine><filename>`` names one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gzinertia.record_base import ValueRecord

__all__ = [
    "CHANGES",
    "DEFAULT_ENGINE",
    "DEFAULT_RELEASE",
    "ENGINES",
    "RELEASES",
    "Change",
    "Engine",
    "Release",
    "change",
]


@dataclass(frozen=True, repr=False, eq=False)
class Release(ValueRecord):
    """A Gazebo release: its codename, the majors of the libraries it is made of, and the
    newest tag of its gz-sim (what the release stands for here)."""

    name: str
    title: str
    gz_sim: str
    gz_physics: str
    gz_common: str
    sdformat: str
    #: gz-sim's newest tag of the release (its date in the table of ``docs/releases.md``).
    newest: str
    date: str


@dataclass(frozen=True, repr=False, eq=False)
class Engine(ValueRecord):
    """A physics engine of gz-physics: its folder (the plugin ``gz-physics-NAME-plugin``) and
    the first gz-physics tag that has it."""

    name: str
    first: str
    source: str
    #: The releases whose gz-physics has it.
    releases: tuple[str, ...]


@dataclass(frozen=True, repr=False, eq=False)
class Change(ValueRecord):
    """A behaviour that differs between releases: ``key`` (the rules name it), what changed,
    its source (pull request, commit), and per release the first tag that has it (``None``:
    the release's newest tag has it not). ``backports``: the commit on a release's branch when
    it is not ``commit`` (a cherry-pick); ``untagged``: releases whose branch has it with no
    tag yet (they count as without it); ``known``: whether the tags could be read at all."""

    key: str
    summary: str
    source: str
    commit: str
    first: Mapping[str, str | None]
    backports: Mapping[str, str] = field(default_factory=dict)
    untagged: tuple[str, ...] = ()
    known: bool = True
    #: The library whose tags ``first`` names: ``gz-sim``, ``gz-physics``, ``gz-common`` or
    #: ``sdformat`` (libsdformat: a release stands for the newest tag of its major).
    library: str = "gz-sim"
    note: str = field(default="")

    def in_release(self, release: str) -> bool:
        """Whether the newest tag of ``release`` (a codename) has the change."""
        return self.first.get(release) is not None


#: The releases, oldest first.
RELEASES: Mapping[str, Release] = {
    r.name: r
    for r in (
        Release("fortress", "Fortress", "ignition-gazebo6", "ignition-physics5",
                "ignition-common4", "sdformat12", "ignition-gazebo6_6.18.0", "2026-06-09"),
        Release("garden", "Garden", "gz-sim7", "gz-physics6", "gz-common5", "sdformat13",
                "gz-sim7_7.9.0", "2024-08-21"),
        Release("harmonic", "Harmonic", "gz-sim8", "gz-physics7", "gz-common5", "sdformat14",
                "gz-sim8_8.14.0", "2026-06-18"),
        Release("ionic", "Ionic", "gz-sim9", "gz-physics8", "gz-common6", "sdformat15",
                "gz-sim9_9.5.0", "2025-10-24"),
        Release("jetty", "Jetty", "gz-sim10", "gz-physics9", "gz-common7", "sdformat16",
                "gz-sim10_10.4.0", "2026-06-04"),
    )
}

#: The newest stable release: the default target.
DEFAULT_RELEASE = "jetty"
#: gz-sim's default physics engine.
DEFAULT_ENGINE = "dartsim"

_ALL = tuple(RELEASES)

#: The engines of gz-physics, by folder name (mujoco only in gz-physics10's pre-release: in no
#: release yet).
ENGINES: Mapping[str, Engine] = {
    e.name: e
    for e in (
        Engine("dartsim", "ignition-physics_1.0.0", "gz-physics dartsim/", _ALL),
        Engine("bullet", "ignition-physics3_3.3.0", "gz-physics bullet/", _ALL),
        Engine("bullet-featherstone", "gz-physics6_6.1.0",
               "gz-physics bullet-featherstone/ (cd406519)", _ALL[1:]),
        Engine("tpe", "ignition-physics2_2.1.0", "gz-physics tpe/", _ALL),
        Engine("mujoco", "gz-physics10_10.0.0-pre1", "gazebosim/gz-physics#811 (fcbe4f7e)", ()),
    )
}


def _tags(fortress: str | None, garden: str | None, harmonic: str | None, ionic: str | None,
          jetty: str | None) -> dict[str, str | None]:
    return {"fortress": fortress, "garden": garden, "harmonic": harmonic, "ionic": ionic,
            "jetty": jetty}


_NONE = _tags(None, None, None, None, None)


def _spring_2026(key: str, summary: str, source: str, commits: tuple[str, str, str, str],
                 note: str = "") -> Change:
    """A change merged in gz-sim10 (``commits[0]``) and cherry-picked onto the Fortress,
    Harmonic and Ionic branches (``commits[1:]``) in 2026: in 6.18.0, 8.12.0 and 10.2.0, on
    the gz-sim9 branch with no tag yet."""
    return Change(key, summary, source, commits[0], _tags("6.18.0", None, "8.12.0", None, "10.2.0"),
                  backports=dict(zip(("fortress", "harmonic", "ionic"), commits[1:], strict=True)),
                  untagged=("ionic",), note=note)

#: Every behaviour that differs between releases, by key.
CHANGES: Mapping[str, Change] = {
    c.key: c
    for c in (
        Change("hydro-added-mass-sign",
               "Hydrodynamics applies +Ma·ν̇ (kAmassVec = -Ma·ν̇, then the wrench negated): "
               "Fossen-negative <iDotJ> resist acceleration; before, -Ma·ν̇ on the diagonal",
               "gazebosim/gz-sim#1617", "25bdef685",
               _tags("6.12.0", "7.1.0", "8.0.0", "9.0.0", "10.0.0")),
        Change("hydro-signed-quadratic",
               "Hydrodynamics reads <iJK> as the signed s_k·s_j term and <iJabsK> as |s_k|·s_j, "
               "with cross terms; before, only the diagonal <xUU>...<nRR>, as |u|·u",
               "gazebosim/gz-sim#1784", "713516dfe",
               _tags("6.14.0", "7.2.0", "8.0.0", "9.0.0", "10.0.0")),
        Change("hydro-xuu-warning",
               "Hydrodynamics warns on <xUU> (and the other diagonal signed terms): rename to "
               "<xUabsU>",
               "gazebosim/gz-sim#1888", "29c13bf03",
               _tags("6.15.0", "7.5.0", "8.0.0", "9.0.0", "10.0.0")),
        Change("fluid-added-mass-read",
               "gz-sim passes <fluid_added_mass> to the physics engine",
               "gazebosim/gz-sim#1592", "ad5fe37bf",
               _tags(None, "7.3.0", "8.0.0", "9.0.0", "10.0.0")),
        Change("dartsim-fluid-added-mass",
               "dartsim adds FluidAddedMass to the link's inertia (no other engine of "
               "gz-physics reads it: `git grep FluidAddedMass` finds it in dartsim/ only)",
               "gazebosim/gz-physics#384", "bab13ef1",
               _tags(None, "6.2.0", "7.0.0", "8.0.0", "9.0.0"), library="gz-physics"),
        Change("dartsim-added-mass-gravity",
               "dartsim applies gravity with the rigid mass only on links with added mass "
               "(before, DART's gravity acted on the added mass too)",
               "gazebosim/gz-physics#462", "65a0beb6",
               _tags(None, "6.3.0", "7.0.0", "8.0.0", "9.0.0"), library="gz-physics"),
        Change("hydro-added-mass-deprecated",
               "Hydrodynamics plugin added mass (<iDotJ>) deprecated in favour of "
               "<fluid_added_mass> (gz-sim#1923: the explicit scheme diverges)",
               "gazebosim/gz-sim#2493", "5c4f0cfdf",
               _tags(None, None, None, "9.0.0", "10.0.0")),
        _spring_2026("hydro-added-mass-engine-advice",
                     "the deprecation becomes advice for DART users only (other engines have "
                     "only the plugin's added mass); both added masses on one link an error",
                     "gazebosim/gz-sim#3456", ("e41c5c14b", "cf69b2e06", "bb74d89ef", "0b2b23ba9")),
        _spring_2026("graded-buoyancy-round-shapes",
                     "graded buoyancy counts cylinders, capsules, ellipsoids and cones (boxes "
                     "and spheres only before)",
                     "gazebosim/gz-sim#3423", ("9737aa872", "a352d3dfe", "1264b19c0", "5da5220c3"),
                     note="Fortress: no cones (SDFormat 1.9 has none)"),
        Change("buoyancy-centroid-mesh-scale",
               "Buoyancy puts a collision's centre of buoyancy at its centroid (not its origin) "
               "and honours mesh <scale>",
               "gazebosim/gz-sim#3909", "", _NONE, known=False,
               note="merged 2026-08-21, newer than the gz-sim mirror: first release unknown"),
        Change("mesh-volume-gz-common-877",
               "mesh volumes after gz-common#877 (the duck: 1.40186 to 1.18892 m³)",
               "gazebosim/gz-sim#3912", "", _NONE, known=False,
               note="newer than the gz-sim mirror: first release unknown"),
        Change("gz-common-mesh-volume",
               "gz-common's SubMesh::Volume takes |Σ v1·(v2×v3)/6| over a submesh's triangles "
               "(and Mesh::Centroid is added); before, Σ |v1·(v2×v3)/6| per triangle, more "
               "than the solid when the mesh does not enclose its origin",
               "gazebosim/gz-common#877", "252093cf", _NONE,
               backports={"fortress": "077be51e", "garden": "345a5832",
                          "harmonic": "345a5832", "ionic": "2e873c1e", "jetty": "17cf77d9"},
               untagged=_ALL, library="gz-common",
               note="backported to ign-common4, gz-common5, 6 and 7 on 2026-08-21 (#887 to "
                    "#890), in no tag of theirs yet"),
        Change("graded-buoyancy-rotated",
               "graded buoyancy slices a rotated collision by the true horizontal plane (the "
               "plane turned into the shape's axes); before, by the plane z = h in the "
               "shape's own axes (gz-sim#3892)",
               "gazebosim/gz-sim#3880", "", _NONE, known=False,
               note="merged 2026-08-13, newer than the gz-sim mirror: first release unknown; "
                    "gz-sim#3892 still reports the bug on the gz-sim8 branch"),
        Change("sdformat-fluid-added-mass",
               "libsdformat reads <inertial><fluid_added_mass> (SDFormat 1.10); libsdformat12 "
               "(SDFormat 1.9) has it not in its spec",
               "gazebosim/sdformat#1077", "23cb93a8",
               _tags(None, "13.0.0", "14.0.0", "15.0.0", "16.0.0"), library="sdformat"),
        Change("sdformat-auto-inertial",
               "libsdformat resolves <inertial auto=\"true\"> from the collisions' shapes and "
               "<density> (SDFormat 1.11); before, neither is in its spec and the written "
               "<mass>, <pose> and <inertia> (or their defaults) stay",
               "gazebosim/sdformat#1299", "7de58db5",
               _tags(None, None, "14.0.0", "15.0.0", "16.0.0"), library="sdformat"),
        Change("sdformat-auto-inertial-link-density",
               "auto inertia uses <inertial><density> for a collision without its own "
               "<density>; before, 1000 kg/m³",
               "gazebosim/sdformat#1335", "f3607761",
               _tags(None, None, "14.1.0", "15.0.0", "16.0.0"), library="sdformat"),
        Change("sdformat-auto-inertial-mass",
               "auto inertia keeps a written <inertial><mass>: the collisions' sum rescaled "
               "to it (centre of mass kept, inertia times m / Σm_C); before, <mass> overwritten "
               "by the collisions' sum (with a warning)",
               "gazebosim/sdformat#1513", "aaadeeaa",
               _tags(None, None, "14.7.0", "15.2.0", "16.0.0"),
               backports={"harmonic": "b6e1ea23", "ionic": "c68fd3d0"}, library="sdformat"),
        Change("sdformat-auto-inertial-failure-policy",
               "a collision whose auto inertia cannot be computed is an error by default "
               "(LINK_INERTIA_INVALID, no inertial written); a parser policy may instead use "
               "the default inertial (1 kg, unit inertia, origin) with a warning; before, "
               "only the error",
               "gazebosim/sdformat#1543", "5cd14409",
               _tags(None, None, "14.8.0", "15.3.0", "16.0.0"),
               backports={"ionic": "39826d49"}, library="sdformat"),
    )
}


def change(key: str) -> Change:
    """The row of :data:`CHANGES` named ``key``."""
    return CHANGES[key]
