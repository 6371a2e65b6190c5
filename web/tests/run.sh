#!/usr/bin/env bash
# Browser tests of `vlt serve`: playwright-core (npm, no browser download) driving Debian's Chromium.
#  1. installs chromium with apt-get when /usr/bin/chromium is missing;
#  2. installs the npm packages of web/tests and checks the formatting of web/ (Prettier);
#  3. builds `vlt` and starts `vlt serve` on a free loopback port with a temporary database;
#  4. runs the tests, every *.test.mjs (screenshots in web/tests/screenshots/), then checks that a server killed with
#     SIGKILL and restarted on the same database still has every game;
#  5. stops the server and exits non-zero on any failure.
# Environment: CARGO_TARGET_DIR (default: target), VLT_BIN (a built vlt to use instead of building).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"

if [ ! -x /usr/bin/chromium ]; then
  echo "run.sh: installing chromium (Debian package)"
  apt-get update && apt-get install -y chromium
fi

if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
# The page's sources are formatted by Prettier (web/.prettierrc.json); a difference fails here.
npx prettier --check .. || { echo "run.sh: run 'npx prettier --write ..' in web/tests"; exit 1; }

if [ -z "${VLT_BIN:-}" ]; then
  # A debug build: quick to build, and every engine call is time-bounded anyway.
  (cd "$root" && cargo build -p vlt-cli)
  VLT_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/vlt"
fi

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

start_server() {
  "$VLT_BIN" serve --addr "127.0.0.1:$port" --db "$tmp/games.db" --engine-ms 500 >"$tmp/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    if node -e "fetch('http://127.0.0.1:$port/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
      return 0
    fi
    sleep 0.1
  done
  echo "run.sh: the server did not start"; cat "$tmp/server.log"; return 1
}

port="$(free_port)"
start_server
export VLT_URL="http://127.0.0.1:$port"
echo "run.sh: vlt serve at $VLT_URL"

status=0
# Every *.test.mjs file here: one file per part of the site (game, online, review, puzzles, ...).
node --test --test-concurrency=1 ./*.test.mjs || status=$?

# A server killed at any moment loses nothing: note every game, SIGKILL, restart, compare.
snapshot() {
  node -e "
    (async () => {
      const base = process.argv[1];
      const list = await (await fetch(base + '/api/games?limit=200')).json();
      const out = [];
      for (const g of list.games) {
        const v = await (await fetch(base + '/api/games/' + g.id)).json();
        delete v.version; delete v.epoch; // per server run
        // Offers between players live in memory (a restart forgets them), and a player's card
        // carries the player's rating now, not the game's: the game is the rest.
        delete v.rematch; delete v.takeback;
        for (const s of ['B', 'A']) if (v.players && v.players[s]) v.players[s] = v.players[s].id;
        out.push(v);
      }
      console.log(JSON.stringify(out));
    })().catch((e) => { console.error(e); process.exit(1); });" "$VLT_URL"
}
before="$(snapshot)"
kill -9 "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
start_server
after="$(snapshot)"
if [ "$before" = "$after" ] && [ "$before" != "[]" ]; then
  echo "run.sh: restart after SIGKILL kept every game"
else
  echo "run.sh: FAILED: games differ after a SIGKILL restart"; status=1
fi
exit $status
