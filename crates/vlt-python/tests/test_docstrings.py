"""The examples in the docstrings run as tests: those of the Python modules (as doctest finds
them) and those of the native module's classes, methods and functions (whose docstrings come from
the Rust doc comments)."""

import doctest
import importlib
import inspect

import pytest

import vlt
import vlt._vlt

# Each Python module and the framework it needs (None: numpy only).
MODULES = {
    "vlt": None,
    "vlt.vector": None,
    "vlt.gymnasium": "gymnasium",
    "vlt.pettingzoo": "pettingzoo",
    "vlt.pettingzoo.vai_lung_thlan_v0": "pettingzoo",
    "vlt.openspiel": "pyspiel",
}


def run(tests):
    """Runs doctests; returns how many examples ran (failures are reported and fail the test)."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    examples = 0
    for t in tests:
        result = runner.run(t)
        examples += result.attempted
        assert result.failed == 0, f"{t.name}: {result.failed} of {result.attempted} examples failed"
    return examples


@pytest.mark.parametrize("name", sorted(MODULES))
def test_python_module_examples(name):
    if MODULES[name]:
        pytest.importorskip(MODULES[name])
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, globs={"vlt": vlt})
    assert run(tests) > 0, f"{name} has no examples"


def native_docstrings():
    """(name, docstring) of the native module and of everything in it, with their methods."""
    yield "vlt._vlt", vlt._vlt.__doc__ or ""
    for name, obj in sorted(vars(vlt._vlt).items()):
        if name.startswith("__"):
            continue
        yield f"vlt._vlt.{name}", getattr(obj, "__doc__", None) or ""
        if inspect.isclass(obj):
            for attr, member in sorted(vars(obj).items()):
                doc = getattr(member, "__doc__", None)
                if doc and not attr.startswith("__"):
                    yield f"vlt._vlt.{name}.{attr}", doc


def test_native_module_examples():
    pytest.importorskip("numpy")
    parser = doctest.DocTestParser()
    tests = [
        parser.get_doctest(doc, {"vlt": vlt}, name, None, None)
        for name, doc in native_docstrings()
        if ">>>" in doc
    ]
    names = {t.name for t in tests}
    # The classes and functions whose examples the docs promise, found and run.
    for expected in ["Position", "Game", "Engine", "analyse", "Tablebase", "VectorGames", "apply", "perft"]:
        assert f"vlt._vlt.{expected}" in names, f"no examples found for {expected}"
    assert run(tests) >= 20
