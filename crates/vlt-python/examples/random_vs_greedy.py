"""A match: a random player against a greedy one (which takes the move capturing the most, R4),
each side playing B in half the games.

    python crates/vlt-python/examples/random_vs_greedy.py [games]
"""

import random
import sys

import vlt


def greedy(position: vlt.Position, rng: random.Random) -> str:
    moves = position.legal_moves()
    taken = {m: vlt.apply(position, m)["captured"] for m in moves}
    best = max(taken.values())
    return rng.choice([m for m in moves if taken[m] == best])


def uniform(position: vlt.Position, rng: random.Random) -> str:
    return rng.choice(position.legal_moves())


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rng = random.Random(1)
    tally = {"greedy": 0, "random": 0, "draw": 0}
    for i in range(games):
        players = {"B": greedy, "A": uniform} if i % 2 == 0 else {"B": uniform, "A": greedy}
        game = vlt.Game()
        while not game.is_over and len(game) < 1000:
            game.play(players[game.position.to_move](game.position, rng))
        winner = game.result["winner"] if game.result else None
        tally["draw" if winner is None else players[winner].__name__.replace("uniform", "random")] += 1
    print(f"{games} games: greedy {tally['greedy']}, random {tally['random']}, draws {tally['draw']}")


if __name__ == "__main__":
    main()
