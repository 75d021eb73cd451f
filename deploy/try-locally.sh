#!/usr/bin/env bash
# Two gamenight processes on one PostgreSQL and one Redis, on this machine, no root, no
# Docker: throwaway PostgreSQL and Redis in a temporary directory, then the servers on ports
# 8101 and 8102. Put deploy/nginx.conf in front (or open either port directly: a table
# works from both). Ctrl+C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
PG=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PG/pg_ctl" ] || { echo "install PostgreSQL (apt-get install postgresql)"; exit 1; }
command -v redis-server >/dev/null || { echo "install Redis (apt-get install redis-server)"; exit 1; }
[ "$(id -u)" != 0 ] || { echo "run as a normal user (initdb refuses root)"; exit 1; }
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; "$PG/pg_ctl" -D "$WORK/pg" -m fast stop >/dev/null; rm -rf "$WORK"' EXIT
"$PG/initdb" -D "$WORK/pg" -U gamenight --auth=trust >/dev/null
"$PG/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -o "-p 55432 -h 127.0.0.1 -k $WORK" -w start >/dev/null
"$PG/createdb" -h 127.0.0.1 -p 55432 -U gamenight gamenight
redis-server --port 56379 --bind 127.0.0.1 --save '' --dir "$WORK" >"$WORK/redis.log" &
DB=postgresql+psycopg://gamenight@127.0.0.1:55432/gamenight
for port in 8101 8102; do
    gamenight serve --port "$port" --db "$DB" --redis redis://127.0.0.1:56379/0 &
done
wait
