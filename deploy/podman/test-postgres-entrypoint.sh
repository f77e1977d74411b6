#!/bin/sh
# The test PostgreSQL image's start, as the official image's: a first start makes the cluster in $PGDATA with
# POSTGRES_USER (postgres) and POSTGRES_PASSWORD (required, password logins over TCP) and the database POSTGRES_DB;
# every start then runs the server as the postgres user, listening on every address at PGPORT (5432).
set -eu
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required: the password of POSTGRES_USER for logins over TCP.}"
user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 0700 "$PGDATA"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" > "$password_file"
  chown postgres "$password_file"
  as_postgres initdb --username="$user" --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f "$password_file"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$database" != postgres ]; then
    echo "CREATE DATABASE \"$database\"" | as_postgres postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' -p "${PGPORT:-5432}"
