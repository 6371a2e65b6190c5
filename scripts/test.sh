#!/usr/bin/env bash
# Runs every check and test of the project: formatting, lints, the Rust tests of all crates (rules
# vectors, property tests, CLI, protocol, terminal UI, server API on SQLite and PostgreSQL) and the
# browser tests. Installs what the tests need when it is missing (Chromium, PostgreSQL, the npm
# packages).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
if [ -f web/tests/run.sh ] && [ ! -x /usr/bin/chromium ]; then need_apt+=(chromium); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== installing ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

# One compilation for everything below: clippy lints the workspace's crates while they are compiled
# for the tests (clippy-driver as the workspace's compiler, which is what `cargo clippy` does), and
# the browser tests use the `vlt` that build made. A separate `cargo clippy` would check every
# dependency again, and the release profile would redo link-time optimisation for each test binary.
profile=ci
command -v clippy-driver >/dev/null || { echo "test.sh: clippy is missing (rustup component add clippy)"; exit 1; }
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export RUSTFLAGS="${RUSTFLAGS:-} -D warnings" # dependencies are compiled with --cap-lints allow
target_dir="${CARGO_TARGET_DIR:-target}"
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac

# The store tests run on PostgreSQL as well as SQLite: a throwaway cluster on loopback, stopped at
# exit, whose URL the tests read from VLT_TEST_POSTGRES (no compilation involved).
source scripts/test-postgres.sh

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== clippy, and the tests of every target (benches run once each)"
cargo test --workspace --all-targets --profile "$profile"
echo "== doc tests"
cargo test --workspace --doc --profile "$profile"
if [ -f web/tests/run.sh ]; then
  echo "== browser tests"
  VLT_BIN="$target_dir/$profile/vlt" bash web/tests/run.sh
fi
echo "== distributed table build (MPI)"
# The `mpi` feature's tests: OpenMPI from the system's packages (libclang for the bindings), the
# CLI built once more with the feature (only it and the crates between it and the tables compile
# again), and its build tests, which run `mpirun -np 2` and `-np 3` (oversubscribed) to 12 stones
# against one process's files and kill a rank within a layer, then resume.
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null || ! compgen -G "/usr/lib/llvm-*/lib/libclang*.so*" >/dev/null; then
  echo "== installing OpenMPI"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openmpi-bin libopenmpi-dev libclang-dev
fi
cargo test -p vlt-cli --features mpi --profile "$profile" --test tb_build
echo "== python package"
# A fresh virtual environment with the frameworks the package's tests check against; the package is
# built into it by maturin with the same profile, flags and target folder as the tests above (so only
# pyo3, with its extension-module feature, and the bindings compile again).
venv="${CARGO_TARGET_DIR:-target}/python-venv"
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check maturin pytest numpy gymnasium pettingzoo open_spiel
(cd crates/vlt-python && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --profile "$profile" -q)
set +e
"$venv/bin/python" -m pytest -q crates/vlt-python/tests
rc=$?
set -e
# pytest exits 5 when it collected no test: that is a failure here, as is any other non-zero code.
if [ "$rc" -eq 5 ]; then echo "python tests: none collected"; exit 1; fi
if [ "$rc" -ne 0 ]; then exit "$rc"; fi
echo "== all tests passed"
