# ./sling-vt cluster: N Sling nodes on one Oak DocumentNodeStore in PostgreSQL behind HAProxy on one port, and their
# rolling restart. Sourced by ./sling-vt, which defines die, info, check_port, port_in_use and http_code.
#
# A cluster folder (default .sling-vt/cluster) holds everything: haproxy.cfg, its admin socket and log, one home per
# node (node-1 ...) with the node's log (node-1.log) and the PID of its ./sling-vt run (node-1.pid), and "nodes"
# (name and port per line), "run-args" (the run options every node gets, --mode aside: a restarted node keeps the
# mode it had) and "jvm-opts" (SLING_VT_JVM_OPTS of the start), which restart reads.

CLUSTER_DEFAULT_DIR="$STATE_DIR/cluster"

# Prints the HAProxy binary: SLING_VT_HAPROXY, else haproxy on the PATH or in the sbin folders (a CI PATH may lack
# them), else Debian's haproxy package installed with apt-get (as root only).
haproxy_binary() {
    explicit_binary SLING_VT_HAPROXY "HAProxy (2.4 or newer)" && return 0
    local candidate
    for candidate in "$(command -v haproxy 2>/dev/null || true)" /usr/sbin/haproxy /usr/local/sbin/haproxy; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            echo "$candidate"
            return 0
        fi
    done
    if debian_install haproxy "about 2 MB"; then
        # Debian's package also starts a service with its own configuration where systemd runs; ours is separate.
        echo /usr/sbin/haproxy
        return 0
    fi
    die "HAProxy is not installed (the cluster's load balancer); install it (Debian/Ubuntu: apt-get install haproxy, Fedora: dnf install haproxy, macOS: brew install haproxy) or set SLING_VT_HAPROXY to its binary"
}

# The HAProxy configuration of a cluster: $1 folder, $2 balancer port, then the node ports.
haproxy_config() {
    local dir="$1" port="$2" i=0 node_port maxconn fds
    shift 2
    # Each connection takes two descriptors (client and node side); HAProxy refuses to start above the fd limit.
    fds="$(ulimit -n)"
    [[ "$fds" == unlimited ]] && fds=65536
    maxconn=$(( (fds - 200) / 2 ))
    (( maxconn > 20000 )) && maxconn=20000
    cat <<EOF
# Written by ./sling-vt cluster; rewritten at each start.
global
    maxconn $maxconn
    # The admin socket of ./sling-vt cluster restart and status (drain, ready, show stat): readable by this user only.
    stats socket $dir/haproxy.sock mode 600 level admin

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout queue 30s
    timeout http-keep-alive 10s
    timeout check 5s

frontend sling
    bind 127.0.0.1:$port
    default_backend nodes

backend nodes
    balance leastconn
    # Ready = Sling's systemready checks green (bundles, resolver, servlets, repository; outside Sling VT's admission),
    # twice a second apart before a node gets requests, as ./sling-vt run waits; two misses take it out.
    option httpchk
    http-check send meth GET uri /system/health/systemready.json
    http-check expect status 200
    default-server inter 1s fall 2 rise 2
    # A request that could not be sent, or a GET/HEAD whose node closed the connection without an answer or answered
    # 503 (Sling VT's admission refusal, a node stopping), goes to another node; other methods are retried only when
    # they never reached a node: replaying a POST could write twice.
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response 503
    http-request disable-l7-retry unless METH_GET
EOF
    for node_port in "$@"; do
        i=$((i + 1))
        echo "    server node-$i 127.0.0.1:$node_port check"
    done
}

# Sends one command to the cluster's HAProxy admin socket ($1 folder) and prints the answer.
haproxy_command() {
    python3 - "$1/haproxy.sock" "$2" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
out = b""
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    out += chunk
sys.stdout.write(out.decode())
EOF
}

# One field of a node's row in HAProxy's "show stat" ($1 folder, $2 node name, $3 field name: status, scur, ...).
haproxy_server_field() {
    haproxy_command "$1" "show stat" | python3 -c '
import csv, sys
rows = list(csv.reader(line for line in sys.stdin if line.strip()))
header = [h.lstrip("# ") for h in rows[0]]
for row in rows[1:]:
    if row[0] == "nodes" and row[1] == sys.argv[1]:
        print(row[header.index(sys.argv[2])])
' "$2" "$3"
}

# Starts node $2 on port $3 in cluster folder $1 in the background (./sling-vt run with the cluster's run options and
# any further arguments); its PID goes to DIR/NAME.pid, its output to DIR/NAME.log.
cluster_start_node() {
    local dir="$1" name="$2" port="$3" args=()
    mapfile -t args < "$dir/run-args"
    # Emptied here, not by the background job's redirection: cluster_await_node must not read the last run's lines.
    : > "$dir/$name.log"
    SLING_VT_JVM_OPTS="$(cat "$dir/jvm-opts")" "$ROOT/sling-vt" run --store postgres --port "$port" \
        --home "$dir/$name" "${args[@]}" "${@:4}" >> "$dir/$name.log" 2>&1 < /dev/null &
    echo $! > "$dir/$name.pid"
}

# Waits until node $2 of folder $1 says it is up; dies with its last lines when it stops or says it is not ready.
cluster_await_node() {
    local dir="$1" name="$2" pid start=$SECONDS
    pid="$(cat "$dir/$name.pid")"
    while ! grep -q 'Ctrl-C to stop' "$dir/$name.log" 2>/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 20 "$dir/$name.log" >&2 || true
            die "$name stopped during startup; see $dir/$name.log"
        fi
        (( SECONDS - start < 300 )) || die "$name did not start within 300 s; see $dir/$name.log"
        sleep 1
    done
    grep -q 'Sling is up' "$dir/$name.log" \
        || die "$name answers but is not ready: $(sed -n '/NOT ready/,/Ctrl-C/p' "$dir/$name.log"); see $dir/$name.log"
}

# Stops node $2 of folder $1 by the PID of its ./sling-vt run (which stops its JVM and waits for it; $3 = "signalled":
# the TERM was sent already) and waits until its JVM has ended too.
cluster_stop_node() {
    local dir="$1" name="$2" pid jvm="" i
    [[ -f "$dir/$name.pid" ]] || return 0
    pid="$(cat "$dir/$name.pid")"
    [[ -f "$dir/$name/sling.pid" ]] && jvm="$(head -n1 "$dir/$name/sling.pid")"
    if [[ "${3:-}" != signalled ]]; then
        kill -TERM "$pid" 2>/dev/null || true
    fi
    for i in $(seq 1 90); do
        kill -0 "$pid" 2>/dev/null || { [[ -n "$jvm" ]] && kill -0 "$jvm" 2>/dev/null; } || break
        sleep 0.5
    done
    if [[ -n "$jvm" ]] && kill -0 "$jvm" 2>/dev/null; then
        info "$name: its JVM (PID $jvm) did not stop within 45 s; killing it"
        kill -KILL "$jvm" 2>/dev/null || true
    fi
    kill -0 "$pid" 2>/dev/null && die "$name (PID $pid) did not stop within 45 s"
    rm -f "$dir/$name.pid"
}

# Waits until HAProxy reports node $2 of folder $1 with status $3 (UP, ...) within $4 seconds.
cluster_await_status() {
    local dir="$1" name="$2" want="$3" seconds="$4" start=$SECONDS status=""
    while :; do
        kill -0 "$(cat "$dir/haproxy.pid" 2>/dev/null)" 2>/dev/null \
            || die "HAProxy is not running: $(grep -E 'ALERT' "$dir/haproxy.log" | tail -n 3); see $dir/haproxy.log"
        status="$(haproxy_server_field "$dir" "$name" status 2>/dev/null || true)"
        [[ "$status" == "$want" ]] && return 0
        (( SECONDS - start < seconds )) || die "HAProxy reports $name as '${status:-?}', not $want, after $seconds s; see $dir/haproxy.log"
        sleep 0.5
    done
}

cmd_cluster() {
    case "${1:-start}" in
        start) [[ $# -gt 0 ]] && shift; cluster_run "$@" ;;
        restart) shift; cluster_rolling_restart "$@" ;;
        status) shift; cluster_status "$@" ;;
        -*) cluster_run "$@" ;;
        *) die "cluster: say start, restart or status (see ./sling-vt help)" ;;
    esac
}

cluster_dir_option() {
    local dir="$CLUSTER_DEFAULT_DIR"
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
            --dir=*) dir="${1#*=}"; shift ;;
            *) die "cluster: unknown option '$1' (see ./sling-vt help)" ;;
        esac
    done
    [[ -f "$dir/nodes" && -S "$dir/haproxy.sock" ]] || die "no cluster runs from $dir (start one with ./sling-vt cluster --dir $dir)"
    (cd "$dir" && pwd)
}

cluster_run() {
    local nodes=2 port="$DEFAULT_PORT" dir="$CLUSTER_DEFAULT_DIR" run_args=() mode_args=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --nodes) nodes="${2:?--nodes needs a number}"; shift 2 ;;
            --nodes=*) nodes="${1#*=}"; shift ;;
            --port) port="${2:?--port needs a value}"; shift 2 ;;
            --port=*) port="${1#*=}"; shift ;;
            --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
            --dir=*) dir="${1#*=}"; shift ;;
            --mode) mode_args=(--mode "${2:?--mode needs a value}"); shift 2 ;;
            --mode=*) mode_args=("$1"); shift ;;
            --feature|--db-url|--db-user|--java|--var) run_args+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
            --feature=*|--db-url=*|--db-user=*|--java=*|--var=*) run_args+=("$1"); shift ;;
            *) die "cluster: unknown option '$1' (see ./sling-vt help)" ;;
        esac
    done
    [[ "$nodes" =~ ^[1-9]$ ]] || die "cluster: --nodes must be a number from 1 to 9, got '$nodes'"
    check_port "$port"
    (( port + nodes <= 65535 )) || die "cluster: --port $port leaves no room for $nodes node ports above it"
    need_tools cluster curl python3
    local haproxy i node_ports=()
    haproxy="$(haproxy_binary)" || exit 1
    for i in $(seq 0 "$nodes"); do
        port_in_use $((port + i)) && die "cluster: port $((port + i)) on 127.0.0.1 is in use; the balancer takes --port and the nodes the $nodes ports above it: choose another --port"
        (( i > 0 )) && node_ports+=($((port + i)))
    done
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    if [[ -f "$dir/haproxy.pid" ]] && kill -0 "$(cat "$dir/haproxy.pid")" 2>/dev/null; then
        die "a cluster already runs from $dir (HAProxy PID $(cat "$dir/haproxy.pid")); stop it first (Ctrl-C in its terminal) or use another --dir"
    fi
    # The first run of a node builds the feature if needed; the others find it built.
    printf '%s\n' "${run_args[@]}" | sed '/^$/d' > "$dir/run-args"
    printf '%s' "${SLING_VT_JVM_OPTS:-}" > "$dir/jvm-opts"
    : > "$dir/nodes"
    for i in $(seq 1 "$nodes"); do echo "node-$i ${node_ports[$((i - 1))]}" >> "$dir/nodes"; done
    haproxy_config "$dir" "$port" "${node_ports[@]}" > "$dir/haproxy.cfg"
    "$haproxy" -c -q -f "$dir/haproxy.cfg" || die "HAProxy refused $dir/haproxy.cfg (see above)"
    rm -f "$dir/haproxy.sock"
    "$haproxy" -f "$dir/haproxy.cfg" -db > "$dir/haproxy.log" 2>&1 < /dev/null &
    echo $! > "$dir/haproxy.pid"
    stop_cluster() {
        trap - INT TERM EXIT
        info "stopping the cluster in $dir"
        local name _
        while read -r name _; do
            [[ -f "$dir/$name.pid" ]] && kill -TERM "$(cat "$dir/$name.pid")" 2>/dev/null || true
        done < "$dir/nodes"
        while read -r name _; do cluster_stop_node "$dir" "$name" signalled || true; done < "$dir/nodes"
        if [[ -f "$dir/haproxy.pid" ]]; then
            kill -TERM "$(cat "$dir/haproxy.pid")" 2>/dev/null || true
            wait "$(cat "$dir/haproxy.pid")" 2>/dev/null || true
            rm -f "$dir/haproxy.pid" "$dir/haproxy.sock"
        fi
        info "cluster stopped"
    }
    trap 'stop_cluster; exit 130' INT TERM
    trap 'stop_cluster' EXIT
    # One after the other: the first one initialises the repository, the others join it.
    local name node_port
    while read -r name node_port; do
        info "starting $name on 127.0.0.1:$node_port (log $dir/$name.log)"
        cluster_start_node "$dir" "$name" "$node_port" "${mode_args[@]}"
        cluster_await_node "$dir" "$name"
        cluster_await_status "$dir" "$name" UP 30
    done < "$dir/nodes"
    cat <<EOF

  Sling cluster of $nodes nodes up behind HAProxy:  http://127.0.0.1:$port/
  Nodes:                 $(for p in "${node_ports[@]}"; do printf 'http://127.0.0.1:%s/ ' "$p"; done)
  Rolling restart:       ./sling-vt cluster restart --dir $dir
  Balancer state:        ./sling-vt cluster status --dir $dir
  Logs:                  $dir/haproxy.log, $dir/node-N.log, $dir/node-N/logs/error.log
  Ctrl-C to stop.

EOF
    while kill -0 "$(cat "$dir/haproxy.pid")" 2>/dev/null; do sleep 1; done
    info "HAProxy stopped; see $dir/haproxy.log"
    stop_cluster
}

# Every node in turn: taken out of the balancer (drain) until its last request has ended, stopped, started again, and
# put back once it is ready and HAProxy's health check agrees; the others serve meanwhile.
cluster_rolling_restart() {
    local dir
    dir="$(cluster_dir_option "$@")" || exit 1
    need_tools cluster python3
    local name node_port start
    while read -r name node_port; do
        start=$SECONDS
        info "$name: draining"
        haproxy_command "$dir" "set server nodes/$name state drain" > /dev/null
        while [[ "$(haproxy_server_field "$dir" "$name" scur)" != 0 ]]; do
            (( SECONDS - start < 60 )) || die "$name still has requests in flight after 60 s of draining"
            sleep 0.2
        done
        info "$name: stopping"
        cluster_stop_node "$dir" "$name"
        info "$name: starting"
        cluster_start_node "$dir" "$name" "$node_port"
        cluster_await_node "$dir" "$name"
        haproxy_command "$dir" "set server nodes/$name state ready" > /dev/null
        cluster_await_status "$dir" "$name" UP 30
        info "$name: back after $((SECONDS - start)) s"
    done < "$dir/nodes"
    info "rolling restart done"
}

# The balancer's view of each node: HAProxy status, requests in flight, requests served, retries and redispatches.
cluster_status() {
    local dir
    dir="$(cluster_dir_option "$@")" || exit 1
    need_tools cluster python3
    haproxy_command "$dir" "show stat" | python3 -c '
import csv, json, sys
rows = list(csv.reader(line for line in sys.stdin if line.strip()))
header = [h.lstrip("# ") for h in rows[0]]
out = []
for row in rows[1:]:
    if row[0] == "nodes" and row[1] not in ("FRONTEND", "BACKEND"):
        r = dict(zip(header, row))
        out.append({"node": r["svname"], "status": r["status"], "inFlight": int(r["scur"] or 0),
                    "served": int(r["stot"] or 0), "retries": int(r["wretr"] or 0),
                    "redispatches": int(r["wredis"] or 0), "check": r["check_status"]})
print(json.dumps(out, indent=2))
'
}
