"""How a message names a setting the user can change: the one home of the options' spellings.

Library code (:mod:`gzinertia.physics`, :mod:`gzinertia.sdf`, :mod:`gzinertia.edit`) never
writes a command-line flag into a message. A refusal of one argument's value raises
:class:`~gzinertia.errors.SettingError`, which carries the setting's key and is spelled by
whoever prints it (:func:`spell`: the library's ``str()`` names the keyword argument, the
command line's renderer the flag). Prose that names a setting in passing (a hint in a refusal,
a skipped link's way out) calls :func:`option` with a key, which spells the setting the way the
interface running the call does: the Python keyword argument (``force=True``) by default, the
command line's flag (``--force``) inside :func:`interface` ``("command line")``, which
:func:`gzinertia.cli.app.main` enters around a command. The interface is a context variable
(as :func:`gzinertia.physics.mesh_body.hull_fallback` is), never process-wide state: two
threads, or a library call beside a command, each spell for their own caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

__all__ = ["OPTIONS", "Interface", "interface", "option", "spell", "spelling"]

#: Who is calling: a Python program (``"library"``) or the ``gzinertia`` command.
Interface = Literal["library", "command line"]

#: Settings spelled alike in both interfaces: ``--panel-size`` on the command line,
#: ``panel_size`` in Python (the key).
_SAME_NAME = (
    "about", "buoyancy", "center", "density", "depth", "docs_url", "engine", "fit", "fluid",
    "frequency", "gazebo", "geometry",
    "fins", "jobs", "mass", "method", "panel_size", "quality", "rpy", "select", "semi_axes", "sign",
    "speed", "tolerance", "viscosity", "wamit_length", "waterline",
)
#: Switches: ``--allow-overlap`` on the command line, ``allow_overlap=True`` in Python.
_SWITCHES = ("allow_overlap", "force", "force_readonly", "remove_plugin_terms",
             "replace_plugin_added_mass", "together")
#: Settings whose Python keyword is another word: key → (the flag's word, the keyword), e.g.
#: ``--link`` on the command line, ``links`` in Python.
_RENAMED = {
    "link": ("link", "links"), "from": ("from", "source"),
    "model_path": ("model-path", "model_paths"),
    "max_links_count": ("max-links", "max_links"),
    "max_included_models_count": ("max-included-models", "max_included_models"),
    "ellipsoid_scale": ("ellipsoid-scale", "scale"), "axes": ("axes", "axes_rpy"),
    "with_entry": ("with", "entry"),
}
#: Values of a setting, one or alternatives: key → (setting, values), e.g. ``--quality fine``
#: on the command line, ``quality="fine"`` in Python; ``--sign fossen or --sign physical``.
_CHOICES = {
    "quality_fine": ("quality", ("fine",)), "waterline_auto": ("waterline", ("auto",)),
    "frequency_infinite": ("frequency", ("infinite",)),
    "method_geometry": ("method", ("geometry",)), "engine_dartsim": ("engine", ("dartsim",)),
    "gazebo_harmonic": ("gazebo", ("harmonic",)),
    "sign_fossen_or_physical": ("sign", ("fossen", "physical")),
}
#: ``convert``'s directions: ``--hydro-to-sdf`` on the command line, ``convert(to="sdf")`` in
#: Python.
_DIRECTIONS = {"hydro_to_sdf": "sdf", "sdf_to_hydro": "hydro"}
#: Settings named together: key → the settings (``--density, --mass and --geometry``).
_TOGETHER = {"fix_geometry_only": ("density", "mass", "move_com", "geometry")}
#: The read limits: ``audit --max-links`` on the command line, ``ReadLimits.max_links`` in
#: Python.
_LIMITS = ("max_links", "max_included_models")
#: The modes of ``addmass``: key → (its flag's word, the library function that computes it).
_MODES = {"bem": ("bem", "addmass_bem"), "bem_from": ("from", "addmass_from"),
          "ellipsoid": ("ellipsoid", "addmass")}
#: The library's function of an explicit ellipsoid (``--semi-axes`` on the command line).
_EXPLICIT_FIT = "gzinertia.physics.fits.explicit_fit"
#: The settings spelled otherwise in a phrase: key → (command line, library).
_PHRASES: dict[str, tuple[str, str]] = {
    "keep_version": ("--keep-version", "upgrade_version=False"),
    "hull_convex": ("--hull convex", 'gzinertia.physics.mesh_body.hull_fallback("convex")'),
    "hull_wrap": ("--hull wrap", 'hull_fallback("wrap")'),
    "sign_fossen_negative_or_physical": (
        "--sign fossen (negative derivatives) or --sign physical",
        'sign="fossen" (negative derivatives) or sign="physical"',
    ),
    "engine_without_element": ("--engine bullet-featherstone (or bullet, tpe)",
                               'engine="bullet-featherstone" (or "bullet", "tpe")'),
    "hydro_to_sdf_command": ("gzinertia convert {path} --hydro-to-sdf",
                             'gzinertia.convert("{path}", to="sdf")'),
    "explicit_ellipsoid": ("--semi-axes a,b,c [--center x,y,z] [--rpy r,p,y]",
                           f"an explicit ellipsoid ({_EXPLICIT_FIT})"),
    "explicit_ellipsoid_short": ("--semi-axes --center", _EXPLICIT_FIT),
    "parser_sdformat": ("--parser sdformat", "the libsdformat parser"),
    "diff_or_check": ("--diff or --check", "an edit function that returns the text"),
    "frequency_choice": ("--frequency VALUE|zero|infinite",
                         'frequency="zero", "infinite" or omega in rad/s as text'),
    "frequency_zero_infinite_omega": ("--frequency zero|infinite|OMEGA (rad/s)",
                                      'frequency="zero", "infinite" or OMEGA (rad/s) as text'),
    "density_or_fluid": ("--density or --fluid", "density"),
    "from_link": ("--from needs --link", "addmass_from needs link="),
    "waterline_z": ("--waterline Z", "waterline=Z (a height in m)"),
}


def _flag(key: str) -> str:
    return "--" + key.replace("_", "-")


def _listed(words: list[str], last: str) -> str:
    """``a, b and c`` (``last``: the word before the last one)."""
    return f"{', '.join(words[:-1])} {last} {words[-1]}" if len(words) > 1 else words[0]


#: key → (command-line spelling, library spelling).
OPTIONS: dict[str, tuple[str, str]] = {
    **{key: (_flag(key), key) for key in _SAME_NAME},
    **{key: (_flag(key), f"{key}=True") for key in _SWITCHES},
    **{key: ("--" + word, keyword) for key, (word, keyword) in _RENAMED.items()},
    **{key: (_listed([f"{_flag(name)} {v}" for v in values], "or"),
             _listed([f'{name}="{v}"' for v in values], "or"))
       for key, (name, values) in _CHOICES.items()},
    **{key: (_flag(key), f'convert(to="{to}")') for key, to in _DIRECTIONS.items()},
    **{key: (_listed([_flag(k) for k in keys], "and"), _listed(list(keys), "and"))
       for key, keys in _TOGETHER.items()},
    **{key: (f"audit {_flag(key)}", f"ReadLimits.{key}") for key in _LIMITS},
    **{key: ("--" + word, f"gzinertia.{function}") for key, (word, function) in _MODES.items()},
    **_PHRASES,
}

_INTERFACE: ContextVar[Interface] = ContextVar("gzinertia_interface", default="library")


@contextmanager
def interface(name: Interface) -> Iterator[None]:
    """Within the block, :func:`option` spells settings as ``name``'s interface does (in this
    thread or task only; restored when the block ends)."""
    token = _INTERFACE.set(name)
    try:
        yield
    finally:
        _INTERFACE.reset(token)


def spelling() -> Interface:
    """``"command line"`` or ``"library"``: how :func:`option` spells options here and now."""
    return _INTERFACE.get()


def spell(key: str, name: Interface, **fields: object) -> str:
    """The setting ``key`` (a key of :data:`OPTIONS`) as the interface ``name`` spells it;
    ``fields`` fill its ``{placeholders}`` (e.g. ``path``)."""
    cli, library = OPTIONS[key]
    text = cli if name == "command line" else library
    return text.format(**fields) if fields else text


def option(key: str, **fields: object) -> str:
    """The setting ``key`` (a key of :data:`OPTIONS`) as the running interface spells it
    (:func:`spell` for :func:`spelling`)."""
    return spell(key, _INTERFACE.get(), **fields)
