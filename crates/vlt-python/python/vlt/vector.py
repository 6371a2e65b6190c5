"""Many games stepped at once from numpy arrays, with no copies: see ``VectorGames``.

>>> import numpy as np
>>> from vlt.vector import VectorGames, random_actions
>>> v = VectorGames(1024, seed=0)
>>> rng = np.random.default_rng(0)
>>> actions = random_actions(v.legal_mask(), rng)
>>> obs, rewards, dones = v.step(actions)
>>> obs.shape, rewards.shape, dones.shape
((1024, 14), (1024,), (1024,))
"""

import numpy as np

from vlt._vlt import VectorGames

__all__ = ["VectorGames", "random_actions"]


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a bool (n, 6) mask, as int64 (n,).

    The largest of six random numbers in [1, 2), the illegal ones zeroed: a legal action, each
    equally likely (every row has one while its game goes on; [1, 2) so that no legal action can
    draw the zero of an illegal one).
    """
    r = rng.random(mask.shape, dtype=np.float32)
    r += 1.0
    r *= mask
    return r.argmax(1)
