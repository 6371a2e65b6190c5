#!/usr/bin/env bash
# Runs every check and test of the project: formatting, lints, the Rust tests of all crates (rules
# vectors, property tests, CLI, protocol, terminal UI, server API) and the browser tests.
# Installs what the tests need when it is missing (Chromium, the npm packages).
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

echo "== cargo fmt --check"
cargo fmt --all --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== cargo test"
cargo test --workspace --release
if [ -f web/tests/run.sh ]; then
  echo "== browser tests"
  # The release binary the Rust tests just built, rather than a second (debug) build.
  target_dir="${CARGO_TARGET_DIR:-target}"
  case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac
  VLT_BIN="$target_dir/release/vlt" bash web/tests/run.sh
fi
echo "== all tests passed"
