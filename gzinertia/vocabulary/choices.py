"""The values of the settings that the library and the command line both name, each declared
once (issue 26 item 1: the command line keeps no copy of a library vocabulary). NumPy-free:
the command line's options read them when ``--help`` is built, in the order ``--help`` lists
them.

Each library module that takes a setting names its values with the type here
(:mod:`gzinertia.physics.ellipsoid_fit`, :mod:`gzinertia.spatial.algebra`,
:mod:`gzinertia.edit.convert`, :mod:`gzinertia.edit.shift`, :mod:`gzinertia.edit.fix_options`,
:mod:`gzinertia.audit.findings`, :mod:`gzinertia.report.audit`); the tolerances are
:mod:`gzinertia.checks.tolerance`'s and the hull choices :mod:`gzinertia.vocabulary.hull`'s.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "AuditFormat", "ConvertSign", "FitChoice", "FitMethod", "FixMethod", "Ordering",
    "OutputFormat", "Severity", "ShiftAxes",
]

#: The ellipsoid fits a user chooses by name (``--fit``, ``method=``), the default first.
FitChoice = Literal["volume", "mujoco", "inertia"]
#: Every fit: the named ones and ``explicit``, an ellipsoid given (``--semi-axes``).
FitMethod = Literal[FitChoice, "explicit"]
#: The orderings of a 6x6's rows and columns: ``[ω; v]`` (Drake, DART) or ``[v; ω]`` (SDFormat).
Ordering = Literal["angular-first", "linear-first"]
#: The signs of the Hydrodynamics plugin's ``<iDotJ>`` values (``convert --sign``).
ConvertSign = Literal["fossen", "physical", "auto"]
#: The axes an authored ``<fluid_added_mass>`` is expressed in (``shift --axes``).
ShiftAxes = Literal["link", "inertial"]
#: The inertia repair methods (``fix --method``).
FixMethod = Literal["nearest", "geometry", "balance"]
#: Finding severities, worst first.
Severity = Literal["error", "warning", "info"]
#: The formats the audit renders from its result.
AuditFormat = Literal["table", "json", "sarif", "junit", "github", "text"]
#: ``audit --format``'s choices, in ``--help``'s order: :data:`AuditFormat` and the HTML page,
#: which draws the audited models too.
OutputFormat = Literal["table", "text", "json", "sarif", "junit", "github", "html"]
