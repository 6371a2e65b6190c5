"""Steps per second of the environments from Python on one core, beside OpenSpiel's own C++
games driven the same way: one state at a time, uniformly random legal moves.

    python crates/vlt-python/benches/bench_envs.py [--seconds 2] [--runs 5]

Each figure is the median of ``--runs`` runs of ``--seconds`` each (the median, so that other work
on the machine spoils single runs rather than the figure).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np


def rate(loop, seconds: float) -> float:
    """Steps per second of ``loop(steps)``, which makes ``steps`` steps, over about ``seconds``."""
    steps, t0 = 0, time.perf_counter()
    chunk = 1000
    while True:
        loop(chunk)
        steps += chunk
        t = time.perf_counter() - t0
        if t >= seconds:
            return steps / t
        chunk = min(chunk * 2, 200_000)


def openspiel_loop(name: str):
    import pyspiel

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    choice = random.Random(0).choice

    def loop(n: int) -> None:
        nonlocal state
        for _ in range(n):
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(choice(state.legal_actions()))

    return loop


def pettingzoo_loop():
    from vlt.pettingzoo import vai_lung_thlan_v0

    env = vai_lung_thlan_v0.env()
    env.reset(seed=0)
    choice = random.Random(0).choice

    def loop(n: int) -> None:
        for _ in range(n):
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.reset()
                continue
            env.step(choice(env.legal_actions()))

    return loop


def gymnasium_loop():
    import gymnasium as gym

    import vlt.gymnasium  # noqa: F401  (registers the environment)

    env = gym.make("vlt/VaiLungThlan-v0", opponent="random")
    env.reset(seed=0)
    raw = env.unwrapped
    choice = random.Random(0).choice

    def loop(n: int) -> None:
        for _ in range(n):
            _, _, term, trunc, _ = env.step(choice(raw.legal_actions()))
            if term or trunc:
                env.reset()

    return loop


def vector_loop(n_games: int):
    from vlt.vector import VectorGames, random_actions

    v = VectorGames(n_games, seed=0)
    mask = v.legal_mask()
    rng = np.random.default_rng(0)

    def loop(n: int) -> None:
        for _ in range(max(1, n // n_games)):
            v.step(random_actions(mask, rng))

    return loop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    cases = [
        ("OpenSpiel oware (C++)", lambda: openspiel_loop("oware")),
        ("OpenSpiel mancala (C++)", lambda: openspiel_loop("mancala")),
        ("vlt PettingZoo AEC", pettingzoo_loop),
        ("vlt Gymnasium (gym.make, random opponent)", gymnasium_loop),
        ("vlt VectorGames n=4096", lambda: vector_loop(4096)),
    ]
    print(f"| environment | steps/s (median of {args.runs} x {args.seconds:g} s) | runs |")
    print("| --- | --- | --- |")
    for name, make in cases:
        try:
            loop = make()
        except ImportError as e:
            print(f"| {name} | not installed ({e.name}) | |")
            continue
        runs = [rate(loop, args.seconds) for _ in range(args.runs)]
        med = statistics.median(runs)
        spread = ", ".join(f"{r / 1e6:.2f}" for r in runs)
        print(f"| {name} | {med / 1e6:.2f} M | {spread} |", flush=True)


if __name__ == "__main__":
    main()
