"""OpenSpiel: ``import vlt.openspiel`` registers the Python game ``vai_lung_thlan`` with pyspiel.

>>> import pyspiel, vlt.openspiel
>>> game = pyspiel.load_game("vai_lung_thlan", {"returns": "captures"})
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3, 4, 5]
>>> state.apply_action(2)      # 3B

Player 0 is B, who moves first (R2), player 1 is A. An action is the number of one of the mover's
holes minus one (0-5). Parameters: ``returns`` ("win": +1/-1/0 by the captures at the end, R6 and
R7; "captures": the final capture difference) and ``max_moves`` (games are cut there and scored as
they stand). The observation tensor (float32[14]) is the observer's six holes, the opponent's
six, its captures and the opponent's.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from vlt._vlt import EnvCore

__all__ = ["VaiLungThlanGame", "VaiLungThlanState"]

_DEFAULTS = {"returns": "win", "max_moves": 1000}

_GAME_TYPE = pyspiel.GameType(
    short_name="vai_lung_thlan",
    long_name="Vai Lung Thlan",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


class VaiLungThlanGame(pyspiel.Game):
    """Vai Lung Thlan (see the module's doc)."""

    def __init__(self, params=None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        if p["returns"] not in ("win", "captures"):
            raise ValueError(f'returns: expected "win" or "captures", found {p["returns"]!r}')
        if int(p["max_moves"]) < 1:
            raise ValueError("max_moves must be positive")
        self.win = p["returns"] == "win"
        self.max_moves = int(p["max_moves"])
        top = 1.0 if self.win else 60.0
        info = pyspiel.GameInfo(
            num_distinct_actions=6,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-top,
            max_utility=top,
            utility_sum=0.0,
            max_game_length=self.max_moves,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return VaiLungThlanState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class VaiLungThlanState(pyspiel.State):
    """A position of a game with its history (R7 needs it)."""

    def __init__(self, game: VaiLungThlanGame):
        super().__init__(game)
        self._core = EnvCore()
        self._win = game.win
        self._max = game.max_moves

    def current_player(self):
        if self._core.is_over or self._core.plies >= self._max:
            return pyspiel.PlayerId.TERMINAL
        return self._core.to_move

    def _legal_actions(self, player):
        return self._core.legal_actions()

    def _apply_action(self, action):
        status, _ = self._core.step(action)
        if status == 2:
            raise ValueError(f"action {action} is illegal in {self._core.position}")

    def _action_to_string(self, player, action):
        return f"{action + 1}{'BA'[player]}"

    def is_terminal(self):
        return self._core.is_over or self._core.plies >= self._max

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        d = float(self._core.captured(0) - self._core.captured(1))
        if self._win:
            d = float(np.sign(d))
        return [d, -d]

    def position(self):
        """The current ``vlt.Position``."""
        return self._core.position

    def __str__(self):
        return str(self._core.position)


class _Observer:
    """The observation tensor and string of a state, from one player's side."""

    def __init__(self, params):
        if params:
            raise ValueError(f"observation parameters are not supported, found {params}")
        self.tensor = np.zeros(14, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state._core.observation(player)

    def string_from(self, state, player):
        return f"{state._core.position} (seen by {'BA'[player]})"


pyspiel.register_game(_GAME_TYPE, VaiLungThlanGame)
