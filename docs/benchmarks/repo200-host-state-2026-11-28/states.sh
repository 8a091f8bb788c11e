#!/bin/bash
# One instance of the checkout's feature (./sling-vt run), a closed repo200 load at C = 100 (wrk, two threads) in
# 10 s windows before and after a sequence of other loads (STRESS), with, per window: answers, the JVM's CPU per answer,
# CPU ticks per thread group (/proc/PID/task, numbers taken out of the names) and the host's cross-core hand-over
# latency (bench/hostprobe.c: two threads pinned to CPU 0 and 1 hand one cache line back and forth; the best of three runs,
# measured before and after the window while the instance is idle).
# Environment: NW windows before and after (default 4); NF windows after a full GC (default 3); STRESS a list of
# NAME:PARAMS:PATH:C (default: R1s, page, R100ms and repo200 at C = 8,000, 30 s each); CFG a JSON configuration of
# io.github.slingvt.http.VirtualThreads put into the new home before its start; JFR=1 records a JFR profile of the
# windows before and after; OUT the folder for the logs (default /tmp/repo200-states). Needs wrk, curl, cc, jcmd.
# The instance uses 127.0.0.1:$PORT and $HOME_DIR; it is stopped by its PID at the end.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
PORT=${PORT:-18741}; HOME_DIR=${HOME_DIR:-/tmp/repo200-states-home}; OUT=${OUT:-/tmp/repo200-states}
cd "$(git -C "$HERE" rev-parse --show-toplevel)"
mkdir -p "$OUT"; cc -O2 -pthread -o "$OUT/hostprobe" bench/hostprobe.c || exit 1
rm -rf "$HOME_DIR"
if [ -n "${CFG:-}" ]; then mkdir -p "$HOME_DIR/launcher/install"; echo "$CFG" > "$HOME_DIR/launcher/install/io.github.slingvt.http.VirtualThreads.cfg.json"; fi
SLING_VT_JVM_OPTS="-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseG1GC" setsid ./sling-vt run --port $PORT --home "$HOME_DIR" > "$OUT/run.log" 2>&1 &
RUN=$!
for i in $(seq 1 150); do grep -q "Ctrl-C to stop" "$OUT/run.log" && break; sleep 2; done
JPID=$(pgrep -f "sling.home=$HOME_DIR " | head -1); echo "java pid $JPID"
B="http://127.0.0.1:$PORT"
URL="$B/bin/vt/work.json?reads=200&cpuIterations=50&idleDelay=90"
curl -s -o /dev/null -w "status %{http_code}\n" "$URL"
counts() { jcmd $JPID GC.class_histogram 2>/dev/null | grep -E "SessionDelegate$|ScheduledFutureTask$|SessionImpl$|ResourceResolverImpl$|SessionStats$" | awk '{print $4"="$2}' | tr '\n' ' '; echo; }
snap() { for t in /proc/$JPID/task/*; do n=$(tr -d '0-9' < $t/comm 2>/dev/null | tr ' ' '_'); s=$(awk '{print $14+$15}' $t/stat 2>/dev/null); echo "${t##*/} $n $s"; done; }
groups() { python3 - "$OUT/s0" "$OUT/s1" <<'PY'
import sys,collections
a={l.split()[0]:int(l.split()[2]) for l in open(sys.argv[1]) if len(l.split())==3}
g=collections.Counter()
for l in open(sys.argv[2]):
    p=l.split()
    if len(p)==3: g[p[1]]+=int(p[2])-a.get(p[0],0)
print(" ".join(f"{k}={v}" for k,v in g.most_common(6)))
PY
}
probe() { for k in 1 2 3; do "$OUT/hostprobe" 1000000 0 1 | awk '{print $1}'; done | sort -n | head -1; }
win() { for w in $(seq 1 $1); do
  pb=$(probe); snap > "$OUT/s0"; c0=$(awk '{print $14+$15}' /proc/$JPID/stat)
  out=$(wrk -t2 -c100 -d10s "$URL" 2>&1)
  c1=$(awk '{print $14+$15}' /proc/$JPID/stat); snap > "$OUT/s1"; echo "   $(groups)"
  n=$(echo "$out" | awk '/requests in/{print $1}'); nn=$(echo "$out" | awk '/Non-2xx/{print $NF}')
  sleep 1; pp=$(probe)
  echo "$2 $w handover_ns_before=$pb after=$pp req=$n non2xx=${nn:-0} ms_per_req=$(awk -v c=$((c1-c0)) -v n=$n 'BEGIN{printf "%.2f", c*10/n}') threads=$(awk '/Threads/{print $2}' /proc/$JPID/status)"
done; }
wrk -t2 -c100 -d60s "$URL" > /dev/null 2>&1   # warm-up
echo "counts $(counts)"
[ -n "${JFR:-}" ] && jcmd $JPID JFR.start name=before settings=profile > /dev/null
win ${NW:-4} before; jcmd $JPID Compiler.codelist > "$OUT/code-before.txt"
[ -n "${JFR:-}" ] && jcmd $JPID JFR.stop name=before filename="$OUT/before.jfr" > /dev/null
for spec in ${STRESS:-"R1s:reads=20&cpuIterations=200&idleDelay=995:/bin/vt/work.json:8000" "page:reads=20&delay=100:/content/vt-demo/page.html:8000" "R100ms:reads=5&cpuIterations=50&idleDelay=99:/bin/vt/work.json:8000" "repo200:reads=200&cpuIterations=50&idleDelay=90:/bin/vt/work.json:8000"}; do
  IFS=: read name p path cc <<< "$spec"
  out=$(wrk -t2 -c$cc -d30s --timeout 10s "$B$path?$p" 2>&1); echo "stress $name C=$cc: $(echo "$out" | grep -E 'requests in|Non-2xx|Socket' | tr '\n' ' ')"
done
sleep 20
echo "counts $(counts)"
[ -n "${JFR:-}" ] && jcmd $JPID JFR.start name=after settings=profile > /dev/null
win ${NW:-4} after; jcmd $JPID Compiler.codelist > "$OUT/code-after.txt"
[ -n "${JFR:-}" ] && jcmd $JPID JFR.stop name=after filename="$OUT/after.jfr" > /dev/null
echo "counts $(counts)"
win ${NF:-3} after-fullgc
kill $RUN 2>/dev/null; sleep 8
pgrep -f "sling.home=$HOME_DIR " && kill $(pgrep -f "sling.home=$HOME_DIR ")
echo done
