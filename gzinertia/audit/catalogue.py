"""Every audit rule's identity: code, kebab-case name, default severity and one-line summary.

This is the contract users configure against (``select``, ``ignore``, suppression comments) and
what the output formats describe (SARIF rule descriptors, the pages ``docs/rules/CODE.md``). It
imports nothing heavy: a run that serves every file from the result cache never loads the
checks (:mod:`gzinertia.audit.rules`, which need NumPy). Each check is marked with its
entry's code by :func:`gzinertia.audit.emit.link_rule` or
:func:`~gzinertia.audit.emit.document_rule` and collected by
:mod:`gzinertia.audit.rules.registry`.
"""

from __future__ import annotations

from gzinertia.audit.findings import RuleInfo, Severity

__all__ = ["RULE_INFOS", "rule_range"]


def _rule(code: str, name: str, severity: Severity, summary: str) -> tuple[str, RuleInfo]:
    return code, RuleInfo(code, name, severity, summary, f"docs/rules/{code}.md")


#: Every rule by code, sorted by code.
RULE_INFOS: dict[str, RuleInfo] = dict(
    [
        _rule(
            "GZI001",
            "include-not-resolved",
            "info",
            "An <include> did not resolve, so the models it names were not audited.",
        ),
        _rule(
            "GZI002",
            "uri-scheme-unknown",
            "warning",
            "An <include> or mesh <uri> has a scheme libsdformat does not know (models:// for "
            "model://): only gz-sim's search by path finds it.",
        ),
        _rule(
            "GZI003",
            "collision-mesh-unusable",
            "warning",
            "A collision mesh that is missing (not found, a git-lfs pointer), unreadable, empty "
            "or refused: the geometry rules could not judge its link.",
        ),
        _rule(
            "GZI101",
            "mass-not-positive",
            "error",
            "The link's mass is negative, not a number, or zero on a link that moves.",
        ),
        _rule(
            "GZI102",
            "inertial-missing",
            "warning",
            "The link has no <inertial> (or it is commented out), so it silently gets 1 kg "
            "and unit inertia.",
        ),
        _rule(
            "GZI103",
            "inertia-not-psd",
            "error",
            "The rotational inertia is not positive semi-definite (a principal moment is "
            "negative).",
        ),
        _rule(
            "GZI104",
            "inertia-triangle-inequality",
            "error",
            "The principal moments violate the triangle inequality: no rigid body has them.",
        ),
        _rule(
            "GZI105",
            "inertia-implausible-for-geometry",
            "warning",
            "The inertia's radius of gyration is far from that of the link's collision "
            "geometry.",
        ),
        _rule(
            "GZI106",
            "mass-implausible-for-volume",
            "warning",
            "Mass over collision volume gives a mean density outside any real material's "
            "range.",
        ),
        _rule(
            "GZI107",
            "com-outside-collisions",
            "warning",
            "The centre of mass lies outside the bounding box of the link's collisions.",
        ),
        _rule(
            "GZI108",
            "inertial-pose-relative-to",
            "warning",
            "<inertial><pose relative_to=...> is ignored by libsdformat since SDF 1.8.",
        ),
        _rule(
            "GZI109",
            "inertia-not-parsed",
            "error",
            "<inertia> has none of the spec's child elements (e.g. URDF-style attributes), so"
            " the defaults are used.",
        ),
        _rule(
            "GZI110",
            "inertial-duplicate-pose",
            "warning",
            "<inertial> has more than one <pose>: only the first is read.",
        ),
        _rule(
            "GZI111",
            "auto-inertial-failed",
            "error",
            '<inertial auto="true"> cannot be computed for a collision (no volume, bad '
            "density, none).",
        ),
        _rule(
            "GZI112",
            "mass-not-parsed",
            "error",
            "<mass> has no number as its text (e.g. URDF-style value=\"500\"), so libsdformat "
            "uses 1 kg: the inertia was written for another mass.",
        ),
        _rule(
            "GZI113",
            "inertia-not-judged",
            "info",
            "A moving link with no <collision> and no visual geometry to judge its mass and "
            "inertia by: the plausibility rules (GZI105, GZI106) could not check them.",
        ),
        _rule(
            "GZI201",
            "added-mass-sdf-version",
            "warning",
            "<fluid_added_mass> in a file that declares an SDFormat version below 1.10.",
        ),
        _rule(
            "GZI202",
            "added-mass-not-psd",
            "error",
            "<fluid_added_mass> is not positive semi-definite.",
        ),
        _rule(
            "GZI203",
            "rigid-plus-added-not-pd",
            "error",
            "Rigid inertia plus added mass about the link origin is not positive definite.",
        ),
        _rule(
            "GZI204",
            "added-mass-wrong-point",
            "warning",
            "<fluid_added_mass> looks computed about another point than the link origin.",
        ),
        _rule(
            "GZI205",
            "added-mass-counted-twice",
            "error",
            "Hydrodynamics plugin <iDotJ> terms and <fluid_added_mass> both active on one "
            "link.",
        ),
        _rule(
            "GZI206",
            "auto-inertial-drops-added-mass",
            "error",
            '<inertial auto="true"> together with <fluid_added_mass>: libsdformat drops the '
            "added mass.",
        ),
        _rule(
            "GZI207",
            "added-mass-implausible-magnitude",
            "warning",
            "Added mass an order of magnitude above or below the estimate for the displaced "
            "volume.",
        ),
        _rule(
            "GZI208",
            "hydrodynamics-added-mass-sign",
            "warning",
            "Hydrodynamics plugin <iDotJ> terms whose sign makes gz-sim apply negative added "
            "mass.",
        ),
        _rule(
            "GZI209",
            "hydrodynamics-cross-term-typo",
            "info",
            "A Hydrodynamics cross term whose diagonal twin is missing: likely a typo.",
        ),
        _rule(
            "GZI210",
            "fluid-ellipsoids-overlap",
            "info",
            "The fluid ellipsoids of two links of one model overlap: their shared fluid is "
            "counted twice in their added mass.",
        ),
        _rule(
            "GZI211",
            "hydrodynamics-link-missing",
            "warning",
            "A Hydrodynamics plugin names a link its model does not have: the plugin does "
            "nothing.",
        ),
        _rule(
            "GZI212",
            "bem-added-mass-stale",
            "warning",
            "<fluid_added_mass> written by `addmass --bem` (or imported by `addmass --from`) for "
            "geometry the link no longer has (its mesh digest does not match).",
        ),
        _rule(
            "GZI301",
            "buoyancy-centre-below-mass-centre",
            "warning",
            "A submerged, near-neutral body's centre of buoyancy lies below its centre of "
            "mass: it is statically unstable and rolls over.",
        ),
        _rule(
            "GZI302",
            "net-buoyancy",
            "info",
            "Buoyancy and weight differ by more than the configured fraction of the weight: "
            "the body rises or sinks.",
        ),
        _rule(
            "GZI303",
            "surface-craft-negative-gm",
            "warning",
            "A body that floats at a graded world's surface has a negative metacentric height "
            "at its equilibrium waterline: it capsizes.",
        ),
        _rule(
            "GZI304",
            "buoyancy-proxy-collision",
            "warning",
            "The link's collisions look like a buoyancy proxy: a small fraction of its "
            "visuals' volume, or away from their centre, changing its free body's buoyancy "
            "by more than 2 % of its weight; added mass fitted to them is wrong.",
        ),
        _rule(
            "GZI305",
            "buoyancy-not-as-geometry",
            "warning",
            "Gazebo's Buoyancy system computes a volume or centre of volume for the link that "
            "differs from its collision geometry (mesh <scale> or centroid ignored, meshes "
            "in a graded fluid, rotated shapes in layers).",
        ),
        _rule(
            "GZI401",
            "urdf-lumped-inertia-invalid",
            "error",
            "A URDF link lumped into its parent by a fixed joint has an invalid inertia of its "
            "own: Gazebo reports (or hides) it under the parent's name.",
        ),
        _rule(
            "GZI402",
            "urdf-massless-link-dropped",
            "warning",
            "A URDF link without mass that libsdformat does not model: it, its joints and the "
            "links below it are not in the simulation.",
        ),
        _rule(
            "GZI403",
            "urdf-lumping-miscomputed",
            "error",
            "libsdformat's fixed-joint lumping computes this link's inertia wrongly: a pitch "
            "within 0.26° of ±90° is snapped (wrong rotation), or a zero-mass <inertial> is "
            "lumped into a massless link (0/0: the model does not load).",
        ),
        _rule(
            "GZI404",
            "xacro-optenv-default",
            "info",
            "A xacro $(optenv NAME default) took its default because NAME is not among the "
            "environment variables gzinertia may read (--xacro-env): the audited model is the "
            "one built where NAME is unset.",
        ),
        _rule(
            "GZI405",
            "ros-package-duplicate",
            "warning",
            "A $(find pkg) or package://pkg names a package found in more than one place: the "
            "first on the package path was taken, as ROS takes it; the model may be built "
            "from the other.",
        ),
        _rule(
            "GZI501",
            "classic-added-mass-asymmetric",
            "warning",
            "A classic marine plugin's added-mass matrix (UUV Simulator, VRX) is not "
            "symmetric: the worst pair and their difference are named.",
        ),
        _rule(
            "GZI502",
            "classic-added-mass-not-psd",
            "error",
            "A classic marine plugin's added-mass matrix is not positive semi-definite: the "
            "plugin pushes the link along its acceleration.",
        ),
        _rule(
            "GZI503",
            "classic-volume-not-as-geometry",
            "warning",
            "UUV Simulator's plugin floats a declared <volume> that differs from the volume of "
            "the link's collisions, which gz-sim's Buoyancy system floats.",
        ),
        _rule(
            "GZI504",
            "classic-buoyancy-centre-not-as-geometry",
            "warning",
            "UUV Simulator's <center_of_buoyancy> is away from the centroid of the link's "
            "collisions, where gz-sim's Buoyancy system applies the buoyancy.",
        ),
        _rule(
            "GZI505",
            "classic-damping-injects-energy",
            "error",
            "A classic marine plugin's damping has signs that, in that plugin's convention, "
            "push the link along its motion.",
        ),
        _rule(
            "GZI506",
            "explicit-added-mass-unstable",
            "warning",
            "A plugin that applies added mass from the last steps' acceleration (UUV "
            "Simulator, VRX, gz-sim's Hydrodynamics) has an added-mass diagonal element larger "
            "than the rigid one: the explicit scheme diverges (gz-sim#1923).",
        ),
        _rule(
            "GZI507",
            "classic-plugin-unreadable",
            "warning",
            "A classic marine plugin block that the plugin itself would refuse (an unknown "
            "model type, a wrong number of values): the GZI5xx checks could not judge it.",
        ),
        _rule(
            "GZI508",
            "classic-plugin-ignores",
            "info",
            "What UUV Simulator's plugin does with a block that differs from what it says: "
            "tags it never reads, the diagonal taken of a full quadratic damping, shape "
            "models' quirks.",
        ),
        _rule(
            "GZI601",
            "fluid-added-mass-ignored",
            "warning",
            "<fluid_added_mass> that the target Gazebo release or physics engine never applies "
            "(only dartsim reads it, from Garden).",
        ),
        _rule(
            "GZI602",
            "hydrodynamics-added-mass-deprecated",
            "warning",
            "Hydrodynamics plugin added mass where the target release deprecates it and its "
            "engine applies <fluid_added_mass> instead (gz-sim#2493).",
        ),
        _rule(
            "GZI603",
            "hydrodynamics-quadratic-old-meaning",
            "warning",
            "<xUU> (or another diagonal signed term) written for its meaning before "
            "gz-sim#1784 (|u|·u): the target release applies u·u.",
        ),
        _rule(
            "GZI604",
            "buoyancy-release-differs",
            "warning",
            "A collision whose buoyancy (force or centre) the target release's Buoyancy system "
            "computes more than 2 % from its exact geometry (shapes it does not count, mesh "
            "volumes and <scale>, the centre at the origin, rotated shapes in layers).",
        ),
    ]
)


def rule_range() -> str:
    """``"GZI001–GZI604"``: the first and the last code of :data:`RULE_INFOS` (by code, an en
    dash between them), the one place help texts and docs take the rules' range from."""
    codes = sorted(RULE_INFOS)
    return f"{codes[0]}–{codes[-1]}"
