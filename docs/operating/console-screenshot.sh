#!/usr/bin/env bash
# Takes docs/operating/console.png: a headless Chromium screenshot of the web console page "Virtual Threads"
# (/system/console/slingvt) of a running instance while a little load runs, so that the figures are live.
#
#   ./sling-vt run --port 8080                        # in another shell; wait for "Ctrl-C to stop."
#   docs/operating/console-screenshot.sh [PORT] [OUT] # PORT defaults to 8080, OUT to docs/operating/console.png
#
# Needs curl, python3 and Chromium (found or installed by ./sling-vt chromium; or set CHROMIUM=/path/to/chrome);
# wrk is used for the load if installed, else curl loops. Environment: LOAD_CLIENTS (default 50),
# LOAD_SECONDS (default 70), SETTLE_SECONDS (load before the screenshot, default 60), ADMIN (default admin:admin),
# SWITCH (default 1: switch the HTTP requests to kernel mode for the middle third of the settle time, so that the
# live chart shows both modes and the switch marks; 0: no switch).
#
# Authentication: the console answers an anonymous request with a redirect to Sling's login form, so credentials
# in the URL never reach it, and Chromium sends none with the page's style sheets and images. The script
# therefore puts a small local reverse proxy (python3, standard library) in front of the instance that adds the
# admin's Basic authorization to every request; Chromium talks to the proxy only. Everything it starts (load,
# proxy, browser) is stopped by PID when it ends, also on Ctrl-C.
set -euo pipefail

PORT="${1:-8080}"
OUT="${2:-$(cd "$(dirname "$0")" && pwd)/console.png}"
ADMIN="${ADMIN:-admin:admin}"
LOAD_CLIENTS="${LOAD_CLIENTS:-50}"
LOAD_SECONDS="${LOAD_SECONDS:-70}"
SETTLE_SECONDS="${SETTLE_SECONDS:-60}"
SWITCH="${SWITCH:-1}"
BASE="http://127.0.0.1:$PORT"
LOAD_URL="$BASE/bin/vt/work.json?reads=20&idleDelay=200"

die() { echo "console-screenshot: $*" >&2; exit 1; }
info() { echo "console-screenshot: $*" >&2; }

for tool in curl python3; do
    command -v "$tool" >/dev/null || die "needs $tool"
done
CHROMIUM="${CHROMIUM:-$("$(dirname "$0")/../../sling-vt" chromium || true)}"
[[ -n "$CHROMIUM" ]] || die "needs Chromium: ./sling-vt chromium says why it found none (or set CHROMIUM=/path/to/chrome)"
code="$(curl -s -o /dev/null -w '%{http_code}' -u "$ADMIN" "$BASE/system/console/status-slingvt-http.json" || true)"
[[ "$code" == 200 ]] || die "no Sling VT instance answers on $BASE (HTTP '$code'); start one: ./sling-vt run --port $PORT"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The authenticating reverse proxy: picks a free port and writes it to $WORK/proxy.port once it listens.
python3 - "$PORT" "$ADMIN" "$WORK/proxy.port" <<'PY' &
import base64, http.client, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

target_port, credentials, port_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
authorization = "Basic " + base64.b64encode(credentials.encode()).decode()
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}

class Proxy(BaseHTTPRequestHandler):
    def forward(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP | {"host", "authorization"}}
        headers["Authorization"] = authorization
        upstream = http.client.HTTPConnection("127.0.0.1", target_port, timeout=60)
        upstream.request(self.command, self.path, body=body or None, headers=headers)
        response = upstream.getresponse()
        data = response.read()
        self.send_response(response.status, response.reason)
        for k, v in response.getheaders():
            if k.lower() not in HOP_BY_HOP | {"content-length"}:
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    do_GET = do_POST = do_HEAD = forward

    def log_message(self, *args):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.replace(port_file + ".tmp", port_file)
server.serve_forever()
PY
PIDS+=($!)
for _ in $(seq 1 50); do
    [[ -s "$WORK/proxy.port" ]] && break
    sleep 0.1
done
[[ -s "$WORK/proxy.port" ]] || die "the local proxy did not start"
PAGE="http://127.0.0.1:$(cat "$WORK/proxy.port")/system/console/slingvt"

# Load: blocking demo requests (20 repository reads, then 200 ms idle), so in-flight and peak are not zero.
if command -v wrk >/dev/null; then
    info "load: wrk -t1 -c$LOAD_CLIENTS -d${LOAD_SECONDS}s $LOAD_URL"
    wrk -t1 -c"$LOAD_CLIENTS" -d"${LOAD_SECONDS}s" "$LOAD_URL" > "$WORK/load.log" 2>&1 &
    PIDS+=($!)
else
    info "load: $LOAD_CLIENTS curl loops for ${LOAD_SECONDS}s on $LOAD_URL (wrk not installed)"
    end=$((SECONDS + LOAD_SECONDS))
    for _ in $(seq 1 "$LOAD_CLIENTS"); do
        (while ((SECONDS < end)); do curl -s -o /dev/null "$LOAD_URL" || true; done) &
        PIDS+=($!)
    done
fi
if [[ "$SWITCH" == 1 ]]; then
    third=$((SETTLE_SECONDS / 3))
    sleep "$third"
    curl -s -o /dev/null -u "$ADMIN" -d mode=kernel "$BASE/system/console/slingvt" || die "switch to kernel failed"
    sleep "$third"
    curl -s -o /dev/null -u "$ADMIN" -d mode=virtual "$BASE/system/console/slingvt" || die "switch back failed"
    sleep $((SETTLE_SECONDS - 2 * third))
else
    sleep "$SETTLE_SECONDS"
fi

info "screenshot of $BASE/system/console/slingvt -> $OUT"
mkdir -p "$(dirname "$OUT")"
"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking --hide-scrollbars \
    --no-first-run --user-data-dir="$WORK/chromium" --window-size=1280,1400 --virtual-time-budget=4000 --screenshot="$OUT" "$PAGE" \
    > "$WORK/chromium.log" 2>&1 &
PIDS+=($!)
wait "${PIDS[-1]}" || { cat "$WORK/chromium.log" >&2; die "Chromium failed"; }
[[ -s "$OUT" ]] || { cat "$WORK/chromium.log" >&2; die "Chromium wrote no screenshot"; }
info "done: $OUT ($(wc -c < "$OUT") bytes); status during the load:"
curl -s -u "$ADMIN" "$BASE/system/console/status-slingvt-http.json" >&2 || true
echo >&2
