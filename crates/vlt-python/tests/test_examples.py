"""The examples run, briefly, and print what they promise."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def example(name, *args, timeout=300):
    r = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *map(str, args)], capture_output=True, text=True, timeout=timeout
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_random_vs_greedy():
    out = example("random_vs_greedy.py", 10)
    assert out.startswith("10 games: greedy ")


def test_check_against_tables():
    out = example("check_against_tables.py", 6, 2)
    assert "positions with at most 6 stones checked in 2 games" in out and "best move:" in out


def test_train_policy_numpy(tmp_path):
    pytest.importorskip("gymnasium")
    out = example("train_policy.py", 40, tmp_path / "curve.png", "--backend", "numpy")
    assert "numpy, linear softmax: vs random:" in out and "vs greedy:" in out
    assert ("learning curve written" in out) == (tmp_path / "curve.png").exists()


def test_train_policy_torch(tmp_path):
    pytest.importorskip("gymnasium")
    pytest.importorskip("torch")
    out = example("train_policy.py", 40, tmp_path / "curve.png", "--backend", "torch")
    assert "torch, one hidden layer of 32: vs random:" in out and "vs greedy:" in out


def test_train_policy_auto_falls_back_to_numpy_without_torch():
    pytest.importorskip("gymnasium")
    try:
        import torch  # noqa: F401

        expected = "torch"
    except ImportError:
        expected = "numpy"
    out = example("train_policy.py", 10, "/dev/null", "--backend", "auto")
    assert out.startswith(expected)
