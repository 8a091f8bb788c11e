# PostgreSQL of the checkout, for Oak's RDB DocumentNodeStore (./sling-vt postgres, run --store postgres).
# Sourced by ./sling-vt, which defines ROOT, STATE_DIR, die, info and port_in_use.
#
# One server per data folder: DIR/data (initdb), DIR/run (its Unix socket), DIR/postgres.log, DIR/port (the port it
# was started on), DIR/oak-password (mode 0600). It listens on 127.0.0.1 only and holds the database "oak", owned by
# the role "oak" (no superuser; CREATEDB for the benchmark's per-configuration databases) and created as Oak's RDB
# documentation asks: TEMPLATE template0, UTF8, LC_COLLATE and LC_CTYPE C. TCP logins need the password
# (scram-sha-256), which is generated at initdb and kept only in DIR/oak-password; the superuser (the OS user that
# owns the server: postgres when run as root) logs in over the Unix socket only (peer).

PG_DEFAULT_DIR="$STATE_DIR/postgres"
PG_FIRST_PORT=15432
PG_DB=oak
PG_USER=oak
# Every Oak node's pool holds up to 50 connections (oak_postgres.json), and the benchmark runs five nodes on one
# server: PostgreSQL's default of 100 would refuse the third. About 10 MB of shared memory more than the default.
PG_MAX_CONNECTIONS="${SLING_VT_PG_MAX_CONNECTIONS:-300}"

# The folder holding initdb, pg_ctl and postgres; installs Debian's postgresql when it can.
pg_bin() {
    local bin
    for bin in "${SLING_VT_PG_BIN:-}" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
        if [[ -n "$bin" && -x "$bin/initdb" && -x "$bin/pg_ctl" ]]; then
            echo "$bin"
            return 0
        fi
    done
    if command -v pg_ctl >/dev/null && command -v initdb >/dev/null; then
        dirname "$(command -v pg_ctl)"
        return 0
    fi
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
        info "PostgreSQL server binaries not found; installing Debian's postgresql package (apt-get)"
        # No cluster of the package's own: this script makes its data folder itself.
        mkdir -p /etc/postgresql-common
        [[ -f /etc/postgresql-common/createcluster.conf ]] \
            || echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf
        # dpkg needs the sbin folders on PATH (ldconfig, start-stop-daemon), which a CI PATH may lack.
        PATH="/usr/local/sbin:/usr/sbin:/sbin:$PATH" DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 \
            || die "apt-get install postgresql failed; install PostgreSQL's server (initdb, pg_ctl) and retry, or set SLING_VT_PG_BIN to its bin folder"
        pg_bin
        return $?
    fi
    die "PostgreSQL's server binaries (initdb, pg_ctl) are not installed; install them (Debian: apt-get install postgresql) or set SLING_VT_PG_BIN to their folder"
}

# Runs a command as the user postgres: runuser lives in /usr/sbin, which a plain user's (or CI's) PATH may lack.
as_postgres() {
    local runuser
    runuser="$(command -v runuser || true)"
    for candidate in /usr/sbin/runuser /sbin/runuser; do
        [[ -z "$runuser" && -x "$candidate" ]] && runuser="$candidate"
    done
    if [[ -n "$runuser" ]]; then
        "$runuser" -u postgres -- "$@"
    else
        su -s /bin/sh postgres -c "$(printf '%q ' "$@")"
    fi
}

# Runs a PostgreSQL binary; as root, as the user postgres (PostgreSQL refuses to run as root).
pg_as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        id postgres >/dev/null 2>&1 || die "running as root needs the user 'postgres' (Debian's postgresql package creates it)"
        as_postgres "$@"
    else
        "$@"
    fi
}

# The PID of the server of data folder $1, if it runs.
pg_pid() {
    local pidfile="$1/data/postmaster.pid" pid
    [[ -f "$pidfile" ]] || return 1
    pid="$(head -n1 "$pidfile")"
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

pg_free_port() {
    local port="$PG_FIRST_PORT"
    while port_in_use "$port"; do
        port=$((port + 1))
        (( port < PG_FIRST_PORT + 1000 )) || die "no free port from $PG_FIRST_PORT to $port on 127.0.0.1"
    done
    echo "$port"
}

# Starts the server of folder $1 (initialising it first) on port $2 (empty: the recorded or a free one).
pg_start() {
    local dir="$1" port="${2:-}" bin pid
    bin="$(pg_bin)" || exit 1
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    if pid="$(pg_pid "$dir")"; then
        info "PostgreSQL already runs from $dir (PID $pid, port $(cat "$dir/port"))"
        return 0
    fi
    if [[ -z "$port" && -f "$dir/port" ]] && ! port_in_use "$(cat "$dir/port")"; then
        port="$(cat "$dir/port")"
    fi
    [[ -n "$port" ]] || port="$(pg_free_port)"
    port_in_use "$port" && die "port $port on 127.0.0.1 is in use; choose another with --port"
    mkdir -p "$dir/run"
    if [[ "$(id -u)" == 0 ]]; then
        chown -R postgres: "$dir"
        as_postgres test -w "$dir" \
            || die "the user postgres cannot write $dir (a parent folder is closed to it); use --dir in a folder it can reach, e.g. under /tmp"
    fi
    local superuser
    superuser="$(pg_superuser)"
    if [[ ! -f "$dir/data/PG_VERSION" ]]; then
        info "initialising a PostgreSQL data folder in $dir/data (superuser $superuser over the socket only)"
        pg_as_owner "$bin/initdb" -D "$dir/data" -U "$superuser" --auth-local=peer --auth-host=scram-sha-256 \
            --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; die "initdb failed (log: $dir/initdb.log)"; }
        pg_new_password > "$dir/oak-password"
    elif [[ ! -f "$dir/oak-password" ]]; then
        die "$dir was initialised by an older sling-vt, which let every local process in as the superuser 'oak' (trust). Its content is lab data: stop it (./sling-vt postgres stop --dir $dir) and delete $dir, and the next start creates it with passwords"
    fi
    chmod 600 "$dir/oak-password"
    echo "$port" > "$dir/port"
    pg_as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
        -o "-p $port -k $dir/run -c listen_addresses=127.0.0.1 -c max_connections=$PG_MAX_CONNECTIONS" start >/dev/null \
        || { tail -n 20 "$dir/postgres.log" >&2; die "PostgreSQL did not start (log: $dir/postgres.log)"; }
    local psql="$bin/psql"
    [[ -x "$psql" ]] || psql="$(command -v psql)" || die "psql not found beside $bin"
    # The role's password goes in on standard input, never on a command line. Set at every start, so that the file
    # stays the truth.
    {
        echo "SELECT 'CREATE ROLE $PG_USER LOGIN NOSUPERUSER CREATEDB' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') \\gexec"
        printf "ALTER ROLE %s WITH LOGIN NOSUPERUSER CREATEDB PASSWORD '%s';\n" "$PG_USER" "$(cat "$dir/oak-password")"
        echo "SELECT 'CREATE DATABASE $PG_DB OWNER $PG_USER TEMPLATE template0 ENCODING ''UTF8'' LC_COLLATE ''C'' LC_CTYPE ''C''' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PG_DB') \\gexec"
    } | pg_as_owner "$psql" -q -v ON_ERROR_STOP=1 -h "$dir/run" -p "$port" -U "$superuser" -d postgres >/dev/null \
        || die "could not create the role $PG_USER and the database $PG_DB (log: $dir/postgres.log)"
    info "PostgreSQL runs from $dir (PID $(pg_pid "$dir"), 127.0.0.1:$port, database $PG_DB, user $PG_USER, password in $dir/oak-password)"
}

# The superuser of a lab server: the OS user it runs as (peer authentication over the socket).
pg_superuser() {
    if [[ "$(id -u)" == 0 ]]; then
        echo postgres
    else
        id -un
    fi
}

# 32 random characters from [A-Za-z0-9]: no quoting problems in SQL, URLs or configuration files.
pg_new_password() {
    local password
    password="$(LC_ALL=C tr -dc 'A-Za-z0-9' < /dev/urandom | head -c 32)" || true
    [[ ${#password} == 32 ]] || die "could not generate a password from /dev/urandom"
    printf '%s' "$password"
}

pg_stop() {
    local dir="$1" pid i
    if ! pid="$(pg_pid "$dir")"; then
        info "PostgreSQL is not running from $dir"
        return 0
    fi
    # SIGINT is PostgreSQL's fast shutdown: clients are disconnected, nothing committed is lost.
    kill -INT "$pid"
    for i in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && die "PostgreSQL (PID $pid) did not stop within 60 s"
    info "PostgreSQL stopped (PID $pid)"
}

pg_status() {
    local dir="$1" pid
    if pid="$(pg_pid "$dir")"; then
        printf '{"running":true,"pid":%s,"host":"127.0.0.1","port":%s,"database":"%s","user":"%s","passwordFile":"%s","dir":"%s"}\n' \
            "$pid" "$(cat "$dir/port")" "$PG_DB" "$PG_USER" "$dir/oak-password" "$dir"
    else
        printf '{"running":false,"dir":"%s"}\n' "$dir"
        return 3
    fi
}

# The JDBC URL of the server of folder $1 (which must run).
pg_jdbc_url() {
    echo "jdbc:postgresql://127.0.0.1:$(cat "$1/port")/$PG_DB"
}

cmd_postgres() {
    local action="${1:-}" dir="$PG_DEFAULT_DIR" port=""
    [[ $# -gt 0 ]] && shift
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
            --dir=*) dir="${1#*=}"; shift ;;
            --port) port="${2:?--port needs a value}"; check_port "$port"; shift 2 ;;
            --port=*) port="${1#*=}"; check_port "$port"; shift ;;
            *) die "postgres: unknown option '$1' (see ./sling-vt help)" ;;
        esac
    done
    case "$action" in
        start) pg_start "$dir" "$port" ;;
        stop) pg_stop "$dir" ;;
        status) pg_status "$dir" ;;
        *) die "postgres: say start, stop or status, e.g. ./sling-vt postgres start" ;;
    esac
}

# --- An existing PostgreSQL (run --store postgres --db-url URL --db-user USER) ---

# Refuses a URL that carries a password: it would end up on the launcher's command line and in the instance's files.
db_check_url() {
    local url="$1"
    [[ "$url" == jdbc:postgresql://* ]] || die "run: --db-url must be a PostgreSQL JDBC URL, jdbc:postgresql://HOST:PORT/DATABASE[?PARAMETERS], got '$url'"
    [[ "${url,,}" != *password=* ]] || die "run: --db-url must not carry the password; give it in SLING_VT_DB_PASSWORD_FILE (a file) or SLING_VT_DB_PASSWORD"
}

# The password of --db-url on standard output, from the file SLING_VT_DB_PASSWORD_FILE or SLING_VT_DB_PASSWORD; one
# trailing newline of the file is dropped.
db_password() {
    if [[ -n "${SLING_VT_DB_PASSWORD_FILE:-}" ]]; then
        [[ -r "$SLING_VT_DB_PASSWORD_FILE" ]] || die "SLING_VT_DB_PASSWORD_FILE=$SLING_VT_DB_PASSWORD_FILE is not a readable file"
        local password
        password="$(cat "$SLING_VT_DB_PASSWORD_FILE")"
        printf '%s' "$password"
    elif [[ -n "${SLING_VT_DB_PASSWORD+set}" ]]; then
        printf '%s' "$SLING_VT_DB_PASSWORD"
    else
        die "run --db-url: set SLING_VT_DB_PASSWORD_FILE to a file holding the database password (or SLING_VT_DB_PASSWORD to the password; it is never taken from the command line)"
    fi
}

# Writes standard input as the instance's database password: HOME/launcher/secrets/oak-db-password (folder 0700, file 0600; the launcher's folder is
# the instance's sling.home),
# which the feature's data source reads through Felix's configuration interpolation ($[secret:oak-db-password]),
# so that the password is in no configuration, command line or log.
db_secret() {
    local home="$1" secrets="$1/launcher/secrets"
    mkdir -p "$secrets"
    chmod 700 "$secrets"
    ( umask 077; cat > "$secrets/oak-db-password.tmp" ) || die "cannot write $secrets/oak-db-password"
    mv -f "$secrets/oak-db-password.tmp" "$secrets/oak-db-password"
}
