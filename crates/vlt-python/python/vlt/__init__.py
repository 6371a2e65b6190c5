"""Vai Lung Thlan for AI research: the rules, the engine, exact endgame tables, and fast
reinforcement-learning environments, all backed by the vlt Rust crates.

>>> import vlt
>>> p = vlt.Position()
>>> p.legal_moves()
['1B', '2B', '3B', '4B', '5B', '6B']
>>> vlt.apply(p, "1B")["after"]
'0,6,6,6,6,6/5,5,5,5,5,5 A 0 0'

Environments live in submodules, each importing its framework only when imported itself:
``vlt.vector`` (numpy only), ``vlt.gymnasium``, ``vlt.pettingzoo``, ``vlt.openspiel``.
"""

from vlt._vlt import (
    Engine,
    Game,
    Position,
    Tablebase,
    __version__,
    analyse,
    apply,
    perft,
    read_records,
)

__all__ = [
    "Engine",
    "Game",
    "Position",
    "Tablebase",
    "__version__",
    "analyse",
    "apply",
    "perft",
    "read_records",
]
