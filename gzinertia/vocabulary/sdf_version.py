"""The SDFormat version a file declares (``<sdf version="1.10">``), as a value.

One parser and one answer for a version that is not dotted ASCII integers (``"1.1_0"``,
``"abc"``): it is *unreadable*, and each question says what that means for it: the reader reads
such a file as the newest version it knows (:attr:`SdfVersion.read_as`, libsdformat's
behaviour for a version it does not know), the audit does not call it old
(:meth:`SdfVersion.known_before`), and an edit does not take it for new enough
(:meth:`SdfVersion.known_at_least`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from gzinertia.numbers import dotted_integers
from gzinertia.record_base import ValueRecord

__all__ = [
    "FLUID_ADDED_MASS_VERSION",
    "KNOWN_VERSIONS",
    "NEWEST_KNOWN_VERSION",
    "SdfVersion",
]

#: The newest SDFormat version gzinertia reads (an unreadable or unknown one is read as it).
NEWEST_KNOWN_VERSION: Final = (1, 12)
#: Every version the reader knows, as files spell them: ``"1.0"`` … ``"1.12"``.
KNOWN_VERSIONS: Final = tuple(f"1.{minor}" for minor in range(NEWEST_KNOWN_VERSION[1] + 1))
#: The version that introduced ``<inertial><fluid_added_mass>`` (libsdformat 13, Garden).
FLUID_ADDED_MASS_VERSION: Final = (1, 10)

@dataclass(frozen=True, repr=False, eq=False)
class SdfVersion(ValueRecord):
    """A declared version: ``text`` as written, ``numbers`` its dotted integers (``None`` when
    unreadable). Compare with a tuple through the methods, which say what unreadable means."""

    text: str
    numbers: tuple[int, ...] | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", dotted_integers(self.text))

    @property
    def readable(self) -> bool:
        """Whether the text is dotted integers."""
        return self.numbers is not None

    @property
    def read_as(self) -> tuple[int, ...]:
        """The version the reader applies: the numbers, or :data:`NEWEST_KNOWN_VERSION` when
        unreadable."""
        return NEWEST_KNOWN_VERSION if self.numbers is None else self.numbers

    def known_before(self, version: tuple[int, ...]) -> bool:
        """Whether it is readable and older than ``version``."""
        return self.numbers is not None and self.numbers < version

    def known_at_least(self, version: tuple[int, ...]) -> bool:
        """Whether it is readable and ``version`` or newer."""
        return self.numbers is not None and self.numbers >= version

    def __str__(self) -> str:
        return self.text
