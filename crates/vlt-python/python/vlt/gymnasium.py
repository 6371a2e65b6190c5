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

from vlt._render import board_text as _board_text
from vlt._vlt import GymCore, Tablebase

__all__ = ["VaiLungThlanEnv"]


class VaiLungThlanEnv(GymCore, gymnasium.Env):
    """Vai Lung Thlan for one agent against a built-in opponent (see the module's doc).

    ``step``, ``legal_actions`` and ``action_masks`` are the native ones of ``vlt._vlt.GymCore``:
    a step (the agent's move, the opponent's replies, reward, end, observation, mask) is one call
    into Rust. The observation arrays are recycled: one that nobody holds any more is written
    again in place, one still held is never changed.
    """

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
        # The options were read and checked by GymCore (Python passes them to both).
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: expected ansi or human")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 60.0, (14,), np.float32)
        self.action_space = spaces.Discrete(6)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        # A seed seeds np_random, and np_random the game's own generator (sides, opponent's
        # choices); unseeded resets continue that generator.
        return self._start(None if seed is None else int(self.np_random.integers(2**63)))

    def render(self) -> Optional[str]:
        text = _board_text(self.position)
        if self.render_mode == "human":
            print(text)
            return None
        return text


# The environment checks the order of calls itself (step before reset raises ResetNeeded) and
# passes gymnasium's check_env in the package's tests, so gym.make adds neither OrderEnforcing nor
# PassiveEnvChecker (each would add a Python call to every step); gym.make(...,
# disable_env_checker=False) still adds the checker.
gymnasium.register(
    id="vlt/VaiLungThlan-v0",
    entry_point=VaiLungThlanEnv,
    order_enforce=False,
    disable_env_checker=True,
)
