import pathlib

import pytest

import vlt

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def tb8():
    """Tables of up to 8 stones, built in memory once (well under a second)."""
    return vlt.Tablebase.in_memory(8)


@pytest.fixture(scope="session")
def moves_vectors():
    import json

    path = ROOT / "crates" / "vlt-core" / "tests" / "data" / "moves.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
