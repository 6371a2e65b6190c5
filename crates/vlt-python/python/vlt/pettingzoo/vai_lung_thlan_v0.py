"""Vai Lung Thlan as a PettingZoo AEC environment.

>>> from vlt.pettingzoo import vai_lung_thlan_v0
>>> env = vai_lung_thlan_v0.env()
>>> env.reset(seed=0)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else int(obs["action_mask"].argmax())
...     env.step(action)

Agents: ``player_0`` is B, who moves first (R2), ``player_1`` is A. An action is the number of
one of the mover's holes minus one (0-5). Each agent observes a dict: ``observation``
(float32[14]: its six holes, the opponent's six, its captures, the opponent's) and
``action_mask`` (int8[6], all zero when it is not to move). Rewards: ``"win"`` (+1/-1, 0 for a
draw, at the end: R6, R7) or ``"captures"`` (each move's captures, + for the mover and - for the
other: over a game they add up to the capture difference). An illegal action forfeits: the mover
loses (reward ``"captures"``: the stones left count for the opponent), ``infos[agent]["illegal"]``.
Games are cut (truncated) after ``max_moves`` moves.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from vlt._render import board_text as _board_text
from vlt._vlt import AecCore

__all__ = ["env", "raw_env"]

_AGENTS = ["player_0", "player_1"]


def env(**kwargs: Any) -> "raw_env":
    """The environment (it checks the order of calls and illegal actions itself, so it needs none
    of PettingZoo's wrappers)."""
    return raw_env(**kwargs)


class raw_env(AecCore, AECEnv):
    """Vai Lung Thlan for two agents (see the module's doc).

    ``step``, ``last``, ``observe``, ``legal_actions`` and ``reset`` are the native ones of
    ``vlt._vlt.AecCore``: a step is one call into Rust. The observation arrays are recycled: one
    that nobody holds any more is written again in place, one still held is never changed.
    """

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "vai_lung_thlan_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, reward: str = "win", max_moves: int = 1000, render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: expected ansi or human")
        self.render_mode = render_mode
        self.possible_agents = list(_AGENTS)
        obs = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 60.0, (14,), np.float32),
                "action_mask": spaces.Box(0, 1, (6,), np.int8),
            }
        )
        self._obs_spaces = {a: obs for a in _AGENTS}
        self._act_spaces = {a: spaces.Discrete(6) for a in _AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    def render(self) -> Optional[str]:
        text = _board_text(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text
