#!/usr/bin/env bash
# Install (if needed) and start a local PostgreSQL server from Debian's packages, create a
# test role and database, and print the SQLAlchemy URL on standard output (nothing else:
# CI captures it as FOLKCARDS_TEST_PG_URL). Progress goes to standard error. Needs root.
# Idempotent: a second run reuses the running cluster.
set -euo pipefail
log() { echo "ci-postgres: $*" >&2; }
PORT="${FOLKCARDS_PG_PORT:-5432}"
USER_NAME=folkcards
PASSWORD=folkcards
DB=folkcards_test
if ! command -v pg_lsclusters >/dev/null; then
  if [ "$(id -u)" != 0 ]; then log "postgresql is not installed and this is not root"; exit 1; fi
  log "installing postgresql"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^$VERSION main$"; then
  log "creating cluster $VERSION/main"
  pg_createcluster "$VERSION" main -p "$PORT" >&2
fi
if ! pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" {print $4}' | grep -q online; then
  log "starting cluster $VERSION/main"
  pg_ctlcluster "$VERSION" main start >&2
fi
PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1==v && $2=="main" {print $3}')"
psql_su() { su postgres -c "psql -p $PORT -qtAX -c \"$1\"" ; }
for _ in $(seq 1 30); do
  if su postgres -c "pg_isready -q -p $PORT"; then break; fi
  sleep 0.5
done
if [ "$(psql_su "SELECT 1 FROM pg_roles WHERE rolname='$USER_NAME'")" != 1 ]; then
  log "creating role $USER_NAME"
  psql_su "CREATE ROLE $USER_NAME LOGIN PASSWORD '$PASSWORD'" >&2
fi
if [ "$(psql_su "SELECT 1 FROM pg_database WHERE datname='$DB'")" != 1 ]; then
  log "creating database $DB"
  psql_su "CREATE DATABASE $DB OWNER $USER_NAME" >&2
fi
echo "postgresql://$USER_NAME:$PASSWORD@127.0.0.1:$PORT/$DB"
