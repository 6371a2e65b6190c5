# Sourced by scripts/test.sh: a throwaway PostgreSQL cluster on loopback for the store tests, which
# run on PostgreSQL as well as SQLite when VLT_TEST_POSTGRES names a database. Installs Debian's
# PostgreSQL when it is missing; the cluster lives in a temporary folder and is stopped at exit.
# Usable by hand too: `source scripts/test-postgres.sh`, then run the tests.

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && { echo "$d"; return; }; done
  command -v initdb >/dev/null && dirname "$(command -v initdb)"
}

if [ -z "$(pg_bin)" ]; then
  echo "== installing PostgreSQL"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql
fi
PG_BIN="$(pg_bin)"
PG_DIR="$(mktemp -d /tmp/vlt-pg.XXXXXX)"
# initdb refuses to run as root: the cluster then belongs to the `postgres` user.
if [ "$(id -u)" -eq 0 ]; then
  chown postgres "$PG_DIR"
  pg_as() { runuser -u postgres -- "$@"; }
else
  pg_as() { "$@"; }
fi
PG_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U vlt --auth=trust -E UTF8 >/dev/null
# fsync off: the cluster is thrown away, and the tests' waits are for the server, not the disk.
pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -s start \
  -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$PG_DIR -c fsync=off -c max_connections=400"
stop_test_postgres() {
  pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -s stop || true
  rm -rf "$PG_DIR"
}
trap stop_test_postgres EXIT
export VLT_TEST_POSTGRES="postgres://vlt@127.0.0.1:$PG_PORT/postgres"
echo "== PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') for the tests at $VLT_TEST_POSTGRES"
