"""Text pictures of a position for the environments' ``render``."""


def board_text(position) -> str:
    """The board as B sees it (R1): A's row on top, 1A…6A left to right; B's below, 6B…1B."""
    b = position.board
    top = " ".join(f"{n:2d}" for n in b[6:12])
    bottom = " ".join(f"{n:2d}" for n in reversed(b[0:6]))
    cb, ca = position.captured
    return f"A {top}   captured by A: {ca}\nB {bottom}   captured by B: {cb}\n{position.to_move} to move"
