"""Gymnasium: Vai Lung Thlan against a built-in opponent, registered as ``vlt/VaiLungThlan-v0``.

>>> import gymnasium as gym, vlt.gymnasium
>>> env = gym.make("vlt/VaiLungThlan-v0", opponent="greedy")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The agent plays side ``agent`` ("B", who moves first, "A", or "random" per episode). An action is
the number of one of its holes minus one (0-5); ``info["action_mask"]`` (and ``action_masks()``)
tell the legal ones. The observation (float32[14]) is the agent's six holes, the opponent's six,
its captures and the opponent's. Each step plays the agent's move and the opponent's replies (R5
lets a side move again when the other's row is empty). Rewards: ``"captures"`` (the change of the
agent's capture difference: over a game they add up to the final difference) or ``"win"`` (+1,
-1, 0 at the end). An illegal action ends the episode as a forfeit (``info["illegal"]``): the
stones left count for the opponent (reward ``"win"``: -1).

Opponents: ``"random"``, ``"greedy"`` (captures the most, R4), ``"level:N"`` (the engine's level
1-10) and ``"perfect"`` (the tables' best move where they cover the position, the engine with the
tables elsewhere; needs ``tablebase=vlt.Tablebase(dir)``).
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from vlt._legal import LEGAL
from vlt._render import board_text as _board_text
from vlt._vlt import EnvCore, Tablebase

__all__ = ["VaiLungThlanEnv"]


class VaiLungThlanEnv(gymnasium.Env):
    """Vai Lung Thlan for one agent against a built-in opponent (see the module's doc)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        opponent: str = "random",
        agent: str = "B",
        reward: str = "captures",
        tablebase: Optional[Tablebase] = None,
        max_moves: int = 1000,
        render_mode: Optional[str] = None,
    ) -> None:
        if agent not in ("B", "A", "random"):
            raise ValueError(f'agent: expected "B", "A" or "random", found {agent!r}')
        if reward not in ("captures", "win"):
            raise ValueError(f'unknown reward {reward!r}: expected "captures" or "win"')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: expected ansi or human")
        if max_moves < 1:
            raise ValueError("max_moves must be positive")
        self._core = EnvCore(opponent=opponent, tablebase=tablebase, agent="B")
        self._side = agent
        self._win = reward == "win"
        self._max_moves = max_moves
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 60.0, (14,), np.float32)
        self.action_space = spaces.Discrete(6)
        self._me = 0
        self._step = self._core.step_against

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        side = self._side
        if side == "random":
            side = "BA"[int(self.np_random.integers(2))]
        self._core.reset(seed=int(self.np_random.integers(2**63)), agent=side)
        self._me = self._core.agent
        return self._core.observation(self._me), {"action_mask": self._core.action_mask(self._me)}

    def step(self, action: Any):
        status, r = self._step(int(action))
        core, me = self._core, self._me
        info = {"action_mask": core.action_mask(me)}
        if status == 0:
            truncated = core.plies >= self._max_moves
            return core.observation(me), (0.0 if self._win else float(r)), False, truncated, info
        if status == 2:
            info["illegal"] = True
            reward = -1.0 if self._win else float(r)
        elif self._win:
            w = core.winner
            reward = 0.0 if w is None else (1.0 if w == me else -1.0)
        else:
            reward = float(r)
        return core.observation(me), reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as bool[6] (the convention of maskable policies)."""
        return self._core.action_mask(self._me).astype(bool)

    def legal_actions(self) -> tuple[int, ...]:
        """The agent's legal actions (0-5), ascending."""
        return LEGAL[self._core.legal_bits]

    @property
    def position(self):
        """The current ``vlt.Position``."""
        return self._core.position

    def render(self) -> Optional[str]:
        text = _board_text(self._core.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text


gymnasium.register(id="vlt/VaiLungThlan-v0", entry_point=VaiLungThlanEnv)
