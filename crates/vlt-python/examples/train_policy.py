"""Trains a small policy with REINFORCE (and a running baseline) against the built-in opponents of
the Gymnasium environment, and plots the learning curve to a PNG.

    python crates/vlt-python/examples/train_policy.py [episodes] [out.png] [--backend auto|numpy|torch]

Two policies, the same features (the observation scaled, each hole's "the last stone lands in an
empty hole" bit, a bias): with numpy, a linear softmax over the 6 holes; with torch (when it is
installed, or asked for), a small network (one hidden layer of 32) trained by Adam. ``auto``
takes torch when it can be imported, numpy otherwise.

Rewards are the capture difference (the environment's "captures" reward), so the curve is the
average final capture difference per game against each opponent. Needs gymnasium, and matplotlib
for the plot (``pip install gymnasium matplotlib``). A few minutes for the default 3000 episodes.
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np

import vlt.gymnasium  # noqa: F401  (registers vlt/VaiLungThlan-v0)

N_FEATURES = 14 + 6 + 1


def features(obs: np.ndarray) -> np.ndarray:
    """The observation scaled, with each hole's "sowing lands in an empty hole" bit and a bias."""
    own = obs[:6]
    board = obs[:12]
    lands = np.array([(k + own[k]) % 12 for k in range(6)], dtype=int)
    empty_target = (board[lands] == 0) & (own > 0) & (own < 12)
    return np.concatenate([obs / 10.0, empty_target.astype(np.float32), [1.0]]).astype(np.float32)


class NumpyPolicy:
    """A linear softmax over the legal holes, its gradient written out."""

    name = "numpy, linear softmax"

    def __init__(self, lr: float = 0.01) -> None:
        self.w = np.zeros((N_FEATURES, 6))
        self.lr = lr

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask > 0, x @ self.w, -1e9)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def update(self, xs: list, actions: list, masks: list, advantage: float) -> None:
        grad = np.zeros_like(self.w)
        for x, a, m in zip(xs, actions, masks):
            p = self.probs(x, m)
            g = -np.outer(x, p)
            g[:, a] += x
            grad += g
        self.w += self.lr * advantage * grad / max(len(xs), 1)


class TorchPolicy:
    """A network with one hidden layer, masked logits, trained by Adam."""

    name = "torch, one hidden layer of 32"

    def __init__(self, lr: float = 3e-3, seed: int = 0) -> None:
        import torch

        self.torch = torch
        torch.manual_seed(seed)
        self.net = torch.nn.Sequential(
            torch.nn.Linear(N_FEATURES, 32), torch.nn.Tanh(), torch.nn.Linear(32, 6)
        )
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def _logits(self, x, mask):
        t = self.torch
        return self.net(x).masked_fill(mask == 0, -1e9).to(t.float64)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        t = self.torch
        with t.no_grad():
            logits = self._logits(t.from_numpy(x), t.from_numpy(mask.astype(np.int64)))
            return t.softmax(logits, -1).numpy()

    def update(self, xs: list, actions: list, masks: list, advantage: float) -> None:
        t = self.torch
        x = t.from_numpy(np.stack(xs))
        m = t.from_numpy(np.stack(masks).astype(np.int64))
        logp = t.log_softmax(self._logits(x, m), -1)
        chosen = logp[t.arange(len(actions)), t.tensor(actions)]
        loss = -advantage * chosen.mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def make_policy(backend: str):
    """The policy of `backend` ("auto": torch when it can be imported, numpy otherwise)."""
    if backend in ("auto", "torch"):
        try:
            return TorchPolicy()
        except ImportError:
            if backend == "torch":
                raise SystemExit("--backend torch: torch is not installed (pip install torch)")
    return NumpyPolicy()


def run(opponent: str, episodes: int, rng: np.random.Generator, policy) -> np.ndarray:
    """Trains `policy` for `episodes` games against `opponent`; each game's capture difference."""
    env = gym.make("vlt/VaiLungThlan-v0", opponent=opponent, agent="random")
    curve, baseline = [], 0.0
    for _ in range(episodes):
        obs, info = env.reset(seed=int(rng.integers(2**31)))
        xs, actions, masks, total, done = [], [], [], 0.0, False
        while not done:
            x, mask = features(obs), info["action_mask"]
            a = int(rng.choice(6, p=policy.probs(x, mask)))
            xs.append(x)
            actions.append(a)
            masks.append(mask)
            obs, reward, term, trunc, info = env.step(a)
            total += reward
            done = term or trunc
        policy.update(xs, actions, masks, total - baseline)
        baseline += 0.02 * (total - baseline)
        curve.append(total)
    return np.array(curve)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("episodes", type=int, nargs="?", default=3000)
    ap.add_argument("out", nargs="?", default="learning_curve.png")
    ap.add_argument("--backend", choices=["auto", "numpy", "torch"], default="auto")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    curves, name = {}, ""
    for opponent in ["random", "greedy"]:
        policy = make_policy(args.backend)
        name = policy.name
        curves[opponent] = run(opponent, args.episodes, rng, policy)
        k = min(200, max(len(curves[opponent]) // 2, 1))
        first, last = curves[opponent][:k].mean(), curves[opponent][-k:].mean()
        print(f"{name}: vs {opponent}: mean capture difference {first:+.1f} (first {k}) -> {last:+.1f} (last {k})")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    k = max(min(100, args.episodes // 10), 1)
    for opponent, c in curves.items():
        ax.plot(np.convolve(c, np.ones(k) / k, mode="valid"), label=f"vs {opponent}")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("episode")
    ax.set_ylabel(f"capture difference (mean of {k})")
    ax.set_title(f"REINFORCE ({name}), Vai Lung Thlan")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"learning curve written to {args.out}")


if __name__ == "__main__":
    main()
