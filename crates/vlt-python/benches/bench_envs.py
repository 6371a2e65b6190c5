"""Steps per second of the environments from Python on one core, beside OpenSpiel's own C++
games driven the same way: one state at a time, uniformly random legal moves.

    python crates/vlt-python/benches/bench_envs.py [--seconds 1] [--runs 5]

Each case runs ``--runs`` times for ``--seconds``, the cases taking turns (round after round), and
the figure is the best run: other work on the machine only ever slows a run down, and taking
turns exposes every case to the same load. The ratios to OpenSpiel's oware are of those bests.
Time is the thread's CPU time (``time.thread_time``: one core's rate even on a busy machine);
``--wall`` measures wall-clock time instead.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def rate(loop, seconds: float, clock=time.thread_time) -> float:
    """Steps per second of ``loop(steps)``, which makes ``steps`` steps, over about ``seconds``
    of ``clock``."""
    steps, t0 = 0, clock()
    chunk = 1000
    while True:
        loop(chunk)
        steps += chunk
        t = clock() - t0
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
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--wall", action="store_true", help="wall-clock time instead of CPU time")
    args = ap.parse_args()
    clock = time.perf_counter if args.wall else time.thread_time
    cases = [
        ("OpenSpiel oware (C++)", lambda: openspiel_loop("oware")),
        ("OpenSpiel mancala (C++)", lambda: openspiel_loop("mancala")),
        ("vlt PettingZoo AEC", pettingzoo_loop),
        ("vlt Gymnasium (gym.make, random opponent)", gymnasium_loop),
        ("vlt VectorGames n=4096", lambda: vector_loop(4096)),
    ]
    loops, runs = {}, {}
    for name, make in cases:
        try:
            loops[name] = make()
            runs[name] = []
        except ImportError as e:
            runs[name] = e.name
    for _ in range(args.runs):
        for name, loop in loops.items():
            runs[name].append(rate(loop, args.seconds, clock))
    oware = max(runs["OpenSpiel oware (C++)"]) if "OpenSpiel oware (C++)" in loops else None
    what = "wall-clock" if args.wall else "CPU"
    print(f"| environment | steps/s (best of {args.runs} x {args.seconds:g} s {what}) | x oware | the runs (M/s) |")
    print("| --- | --- | --- | --- |")
    for name, _ in cases:
        r = runs[name]
        if isinstance(r, str):
            print(f"| {name} | not installed ({r}) | | |")
            continue
        best = max(r)
        ratio = f"{best / oware:.2f}" if oware else ""
        spread = ", ".join(f"{x / 1e6:.2f}" for x in r)
        print(f"| {name} | {best / 1e6:.2f} M | {ratio} | {spread} |", flush=True)


if __name__ == "__main__":
    main()
