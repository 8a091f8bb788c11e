#!/bin/bash
# One instance of the checkout's feature (./sling-vt run), closed repo200 load at C = 100 from wrk, in 10 s windows:
# the JVM's CPU per answer in each window and four reads of its admission (limit, in flight, queued).
# WINDOWS=N windows (default 42); CAP=0 runs it unbounded (default: the default, auto). Needs wrk, curl, python3.
# The instance uses 127.0.0.1:$PORT and $HOME_DIR and is stopped at the end; JIT and GC logs go to its stdout.log
# and /tmp/drift-gc.log.
set -u
PORT=${PORT:-18741}; HOME_DIR=${HOME_DIR:-/tmp/drift-home}
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
rm -rf $HOME_DIR; if [ -n "${CAP:-}" ]; then mkdir -p $HOME_DIR/launcher/install; echo "{\"mode\":\"virtual\",\"maxConcurrentRequests\":$CAP}" > $HOME_DIR/launcher/install/io.github.slingvt.http.VirtualThreads.cfg.json; fi
SLING_VT_JVM_OPTS="-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+PrintCompilation -Xlog:gc:file=/tmp/drift-gc.log:uptime" \
  setsid ./sling-vt run --port $PORT --home $HOME_DIR > /tmp/drift-run.log 2>&1 &
for i in $(seq 1 90); do grep -q "Ctrl-C to stop" /tmp/drift-run.log && break; sleep 2; done
JPID=$(pgrep -f "sling.home=$HOME_DIR" | head -1)
echo "java pid $JPID"
URL="http://127.0.0.1:$PORT/bin/vt/work.json?reads=200&cpuIterations=50&idleDelay=90"
wrk -t2 -c100 -d60s "$URL" > /dev/null 2>&1   # warm-up
T0=$(date +%s.%N)
curl -s -u admin:admin http://127.0.0.1:$PORT/system/console/status-slingvt-http.json; echo
for w in $(seq 1 ${WINDOWS:-42}); do
  c0=$(awk '{print $14+$15}' /proc/$JPID/stat)
  t0=$(date +%s.%N)
  ( for k in 1 2 3 4; do sleep 2.2; curl -s -u admin:admin -m 5 http://127.0.0.1:$PORT/system/console/status-slingvt-http.json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("concurrencyLimit"), d.get("inFlight"), d.get("queued"))' | tr '\n' ' '; done ) > /tmp/drift-st & SP=$!
  out=$(wrk -t2 -c100 -d10s "$URL" 2>&1); wait $SP
  c1=$(awk '{print $14+$15}' /proc/$JPID/stat)
  n=$(echo "$out" | awk '/requests in/{print $1}')
  up=$(awk -v a=$t0 -v b=$T0 'BEGIN{printf "%.0f", a-b}')
  echo "$w t=$up req=$n cpu_ticks=$((c1-c0)) ms_per_req=$(awk -v c=$((c1-c0)) -v n=$n 'BEGIN{printf "%.2f", c*10/n}') rps=$(awk -v n=$n 'BEGIN{printf "%.0f", n/10}') st=[$(cat /tmp/drift-st)]"
done
kill $(pgrep -f "sling-vt run --port $PORT") 2>/dev/null; sleep 8
echo done
