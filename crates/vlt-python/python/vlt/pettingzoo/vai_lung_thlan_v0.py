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

from vlt._legal import LEGAL
from vlt._render import board_text as _board_text
from vlt._vlt import EnvCore

__all__ = ["env", "raw_env"]

_AGENTS = ["player_0", "player_1"]


def env(**kwargs: Any) -> "raw_env":
    """The environment (it checks the order of calls and illegal actions itself, so it needs none
    of PettingZoo's wrappers)."""
    return raw_env(**kwargs)


class raw_env(AECEnv):
    """Vai Lung Thlan for two agents (see the module's doc)."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "vai_lung_thlan_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(self, reward: str = "win", max_moves: int = 1000, render_mode: Optional[str] = None):
        super().__init__()
        if reward not in ("captures", "win"):
            raise ValueError(f'unknown reward {reward!r}: expected "captures" or "win"')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: expected ansi or human")
        self._core = EnvCore()
        self._win = reward == "win"
        self._max_moves = max_moves
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
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is not None:
            self._core.reset(seed=seed)
        else:
            self._core.reset()
        self.agents = list(_AGENTS)
        self.rewards = {a: 0 for a in _AGENTS}
        self._cumulative_rewards = {a: 0 for a in _AGENTS}
        self.terminations = {a: False for a in _AGENTS}
        self.truncations = {a: False for a in _AGENTS}
        self.infos = {a: {} for a in _AGENTS}
        self.agent_selection = _AGENTS[self._core.to_move]
        self._started = True

    def observe(self, agent: str) -> dict:
        i = 0 if agent == "player_0" else 1
        core = self._core
        return {"observation": core.observation(i), "action_mask": core.action_mask(i)}

    def legal_actions(self) -> tuple[int, ...]:
        """The legal actions (0-5) of the agent to move, ascending."""
        return LEGAL[self._core.legal_bits]

    @property
    def position(self):
        """The current ``vlt.Position``."""
        return self._core.position

    def step(self, action: Optional[int]) -> None:
        if not self._started:
            raise RuntimeError("reset() must be called before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("action: None is only for an agent whose game is over")
        status, captured = self._core.step(int(action))
        self._cumulative_rewards[agent] = 0
        rewards = self.rewards
        if status == 0:
            if not self._win:
                other = _AGENTS[agent == "player_0"]
                rewards[agent], rewards[other] = captured, -captured
                self._accumulate_rewards()
            if self._core.plies >= self._max_moves:
                self.truncations = {a: True for a in _AGENTS}
            self.agent_selection = _AGENTS[self._core.to_move]
            return
        other = _AGENTS[agent == "player_0"]
        if status == 2:
            self.infos[agent] = {"illegal": True}
            loss = 1 if self._win else self._core.position.stones_on_board
            rewards[agent], rewards[other] = -loss, loss
        elif self._win:
            w = self._core.winner
            r = 0 if w is None else 1
            win, lose = (("player_0", "player_1") if w == 0 else ("player_1", "player_0"))
            rewards[win], rewards[lose] = r, -r
        else:
            rewards[agent], rewards[other] = captured, -captured
        self.terminations = {a: True for a in _AGENTS}
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        text = _board_text(self._core.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._started = False
