"""Checks an agent's moves against the exact endgame tables: in every position of its games that the
tables cover, how often it chose a best move, and how many stones its choices gave away.

    python crates/vlt-python/examples/check_against_tables.py [max_stones] [games]

The tables are built in memory (10 stones: a few seconds); ``vlt.Tablebase(dir)`` opens tables
built by ``vlt tb build`` instead. The agent here is the engine's level 3; put yours in ``agent``.
"""

import sys

import vlt


def main() -> None:
    max_stones = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    tb = vlt.Tablebase.in_memory(max_stones)
    engine = vlt.Engine(hash_mb=16)

    def agent(game: vlt.Game, seed: int) -> str:
        return engine.level_move(game, level=3, seed=seed)

    checked = best = lost = 0
    for g in range(games):
        game = vlt.Game()
        seed = g * 1000
        while not game.is_over:
            move = agent(game, seed)
            seed += 1
            values = tb.moves(game.position)
            if values:  # covered by the tables
                checked += 1
                top = max(values.values())
                best += values[move] == top
                lost += top - values[move]
            game.play(move)
    print(f"{checked} positions with at most {max_stones} stones checked in {games} games")
    print(f"best move: {best} ({100 * best / max(checked, 1):.1f} %), stones given away: {lost}")


if __name__ == "__main__":
    main()
