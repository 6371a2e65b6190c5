"""Trains a small numpy policy (linear softmax over the 6 holes, REINFORCE with a baseline) against
the built-in opponents of the Gymnasium environment, and plots the learning curve to a PNG.

    python crates/vlt-python/examples/train_policy.py [episodes] [out.png]

Rewards are the capture difference (the environment's "captures" reward), so the curve is the
average final capture difference per game against each opponent. Needs gymnasium, and matplotlib
for the plot (``pip install gymnasium matplotlib``). A few minutes for the default 3000 episodes.
"""

import sys

import gymnasium as gym
import numpy as np

import vlt.gymnasium  # noqa: F401  (registers vlt/VaiLungThlan-v0)


def features(obs: np.ndarray) -> np.ndarray:
    """The observation scaled, with each hole's "sowing lands in an empty hole" bit and a bias."""
    own = obs[:6]
    board = obs[:12]
    lands = np.array([(k + own[k]) % 12 for k in range(6)], dtype=int)
    empty_target = (board[lands] == 0) & (own > 0) & (own < 12)
    return np.concatenate([obs / 10.0, empty_target.astype(np.float32), [1.0]])


def run(opponent: str, episodes: int, rng: np.random.Generator, w: np.ndarray, lr: float = 0.01):
    env = gym.make("vlt/VaiLungThlan-v0", opponent=opponent, agent="random")
    curve, baseline = [], 0.0
    for ep in range(episodes):
        obs, info = env.reset(seed=int(rng.integers(2**31)))
        grads, total, done = [], 0.0, False
        while not done:
            x = features(obs)
            logits = x @ w
            logits = np.where(info["action_mask"] > 0, logits, -1e9)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(rng.choice(6, p=p))
            g = -np.outer(x, p)
            g[:, a] += x
            grads.append(g)
            obs, reward, term, trunc, info = env.step(a)
            total += reward
            done = term or trunc
        advantage = total - baseline
        baseline += 0.02 * (total - baseline)
        w += lr * advantage * np.sum(grads, axis=0) / max(len(grads), 1)
        curve.append(total)
    return np.array(curve)


def main() -> None:
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    out = sys.argv[2] if len(sys.argv) > 2 else "learning_curve.png"
    rng = np.random.default_rng(0)
    curves = {}
    for opponent in ["random", "greedy"]:
        w = np.zeros((14 + 6 + 1, 6))
        curves[opponent] = run(opponent, episodes, rng, w)
        first, last = curves[opponent][:200].mean(), curves[opponent][-200:].mean()
        print(f"vs {opponent}: mean capture difference {first:+.1f} (first 200) -> {last:+.1f} (last 200)")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    k = 100
    for opponent, c in curves.items():
        ax.plot(np.convolve(c, np.ones(k) / k, mode="valid"), label=f"vs {opponent}")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("episode")
    ax.set_ylabel(f"capture difference (mean of {k})")
    ax.set_title("Linear softmax policy, REINFORCE, Vai Lung Thlan")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"learning curve written to {out}")


if __name__ == "__main__":
    main()
