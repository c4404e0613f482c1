#!/usr/bin/env bash
# The load benchmark of `squall serve` (bench/README.md, "Live mode"): non-streaming chat
# completions (POST /v1/chat/completions) against bench/scenarios/live-zero-latency.json on
# loopback, and the same load against a minimal Beast server answering a fixed completion
# (bench/live/floor_server.cpp), the floor, in the same run. The figures are ratios to the
# floor: throughput with keep-alive (closed loop) and the latency added at a constant rate
# (open loop, measured from each request's intended send time).
#
#   bench/live_load.sh            builds what it needs, then ROUNDS rounds, then the table
#
# Settings (environment): BUILD_DIR (build/release), BUILD (1; 0 skips the build), ROUNDS (3),
# WARMUP_S (2), DURATION_S (10), CONNECTIONS (64, closed loop), RATE (1000 requests/s, open
# loop), OPEN_CONNECTIONS (16), SERVER_CPU (0) and LOAD_CPU (1): on a machine with two CPUs
# or more the server and the generator are pinned to one CPU each (taskset), so that the
# server has one core to itself as `squall serve`'s one event-loop thread would in a CI job.
# PRIORITY=high runs the servers and the generator at nice -20 in an autogroup of their own
# (setsid; /proc/self/autogroup), for a machine shared with other work: the kernel's
# autogroups would otherwise give this session one share among the other sessions' builds.
# Each round runs both servers, alternating which goes first, each started afresh for each
# of the two loads. Exits 1 when a request failed or a server did not stop cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${PRIORITY:-normal}" == high && -z "${LIVE_LOAD_SESSION:-}" ]]; then
  LIVE_LOAD_SESSION=1 exec setsid --wait "$0" "$@"
fi
nice_high=()
if [[ "${PRIORITY:-normal}" == high ]]; then
  echo -20 >/proc/self/autogroup || { echo "live_load: PRIORITY=high needs root (autogroup nice -20)" >&2; exit 2; }
  nice_high=(nice -n -20)
fi

BUILD_DIR=${BUILD_DIR:-build/release}
ROUNDS=${ROUNDS:-3}
WARMUP_S=${WARMUP_S:-2}
DURATION_S=${DURATION_S:-10}
CONNECTIONS=${CONNECTIONS:-64}
RATE=${RATE:-1000}
OPEN_CONNECTIONS=${OPEN_CONNECTIONS:-16}
SERVER_CPU=${SERVER_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
SCENARIO=bench/scenarios/live-zero-latency.json

if [[ "${BUILD:-1}" == 1 ]]; then
  if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    if [[ "$BUILD_DIR" == build/release ]]; then cmake --preset release >/dev/null
    else cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null; fi
  fi
  cmake --build "$BUILD_DIR" --target squall squall_live_load squall_live_floor -j2 >/dev/null
fi
SQUALL="$BUILD_DIR/squall"
LOAD="$BUILD_DIR/bench/live/squall_live_load"
FLOOR="$BUILD_DIR/bench/live/squall_live_floor"
for program in "$SQUALL" "$LOAD" "$FLOOR"; do
  [[ -x "$program" ]] || { echo "live_load: $program not built" >&2; exit 2; }
done
command -v curl >/dev/null || { echo "live_load: curl not found (apt-get install curl)" >&2; exit 2; }

pin_server=() pin_load=()
if command -v taskset >/dev/null && (($(nproc) >= 2)); then
  pin_server=(taskset -c "$SERVER_CPU") pin_load=(taskset -c "$LOAD_CPU")
fi
pin_server=("${nice_high[@]}" "${pin_server[@]}") pin_load=("${nice_high[@]}" "${pin_load[@]}")
tmp=$(mktemp -d)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# start_server floor|squall: starts it, sets server_pid and server_url.
start_server() {
  : >"$tmp/server.out"
  if [[ "$1" == floor ]]; then
    "${pin_server[@]}" "$FLOOR" >"$tmp/server.out" 2>"$tmp/server.err" &
  else
    "${pin_server[@]}" "$SQUALL" serve "$SCENARIO" --quiet >"$tmp/server.out" 2>"$tmp/server.err" &
  fi
  server_pid=$!
  for _ in $(seq 100); do
    server_url=$(head -1 "$tmp/server.out")
    [[ "$server_url" == http://* ]] && return 0
    sleep 0.1
  done
  echo "live_load: $1 printed no base URL within 10 s:" >&2
  cat "$tmp/server.err" >&2
  kill "$server_pid" 2>/dev/null || true
  exit 1
}

stop_server() {
  local code=0
  if [[ "$1" == squall ]]; then
    curl -s -X POST "$server_url/squall/v1/stop" >/dev/null
  else
    kill -TERM "$server_pid"
  fi
  wait "$server_pid" || code=$?
  server_pid=""
  if ((code != 0)); then
    echo "live_load: $1 exited $code" >&2
    cat "$tmp/server.err" >&2
    exit 1
  fi
}

field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

# The CPU time (user + system) the server has used so far, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }

# load floor|squall closed|open: one run of the generator against a fresh server; prints
# the generator's line and the server's CPU time per request answered (cpu_us=), its
# start-up left out.
load() {
  start_server "$1"
  local before after
  before=$(cpu_ticks)
  local args=(--port "${server_url##*:}" --warmup "$WARMUP_S" --duration "$DURATION_S")
  if [[ "$2" == open ]]; then args+=(--rate "$RATE" --connections "$OPEN_CONNECTIONS")
  else args+=(--connections "$CONNECTIONS"); fi
  local line
  if ! line=$("${pin_load[@]}" "$LOAD" "${args[@]}"); then
    echo "live_load: $1 $2: requests failed: $line" >&2
    stop_server "$1"
    exit 1
  fi
  after=$(cpu_ticks)
  stop_server "$1"
  echo "$line cpu_us=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v n="$(field answered "$line")" \
    'BEGIN { printf "%.1f", t / hz * 1e6 / n }')"
}

echo "squall serve load benchmark: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
  "$(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo 'no git')$(git diff --quiet 2>/dev/null || echo '+changes')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); priority ${PRIORITY:-normal}; closed loop: $CONNECTIONS connections;" \
  "open loop: $RATE requests/s over $OPEN_CONNECTIONS connections; ${WARMUP_S} s warm-up, ${DURATION_S} s measured"
echo
printf '%-5s | %-24s | %-24s | %-26s | %-26s\n' "" "requests/s, keep-alive" "server CPU us/request" \
  "p50 us at $RATE r/s" "p99 us at $RATE r/s"
printf '%-5s | %8s %8s %6s | %8s %8s %6s | %8s %8s %8s | %8s %8s %8s\n' round floor squall ratio \
  floor squall ratio floor squall added floor squall added
rows=()
for round in $(seq "$ROUNDS"); do
  declare -A r=()
  order=(floor squall)
  if ((round % 2 == 0)); then order=(squall floor); fi
  for server in "${order[@]}"; do
    r[$server.closed]=$(load "$server" closed)
    r[$server.open]=$(load "$server" open)
  done
  frps=$(field rps "${r[floor.closed]}") srps=$(field rps "${r[squall.closed]}")
  fcpu=$(field cpu_us "${r[floor.closed]}") scpu=$(field cpu_us "${r[squall.closed]}")
  f50=$(field p50_us "${r[floor.open]}") s50=$(field p50_us "${r[squall.open]}")
  f99=$(field p99_us "${r[floor.open]}") s99=$(field p99_us "${r[squall.open]}")
  row="$frps $srps $(awk -v s="$srps" -v f="$frps" 'BEGIN { printf "%.3f", s / f }')"
  row+=" $fcpu $scpu $(awk -v s="$scpu" -v f="$fcpu" 'BEGIN { printf "%.2f", s / f }')"
  row+=" $f50 $s50 $((s50 - f50)) $f99 $s99 $((s99 - f99))"
  # shellcheck disable=SC2086  # the row's words are the columns
  printf '%-5s | %8s %8s %6s | %8s %8s %6s | %8s %8s %8s | %8s %8s %8s\n' "$round" $row
  rows+=("$row")
  unset r
done

# The median and the range (min..max) of each column over the rounds.
summary() {
  local column=$1
  printf '%s\n' "${rows[@]}" | awk -v c="$column" '{ print $c }' | sort -g |
    awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                              printf "%s (%s..%s)", m, v[1], v[NR] }'
}
echo
echo "over $ROUNDS rounds, median (min..max); latencies in microseconds:"
echo "  requests/s with keep-alive: floor $(summary 1), squall $(summary 2); squall / floor $(summary 3)"
echo "  server CPU per request (us): floor $(summary 4), squall $(summary 5); squall / floor $(summary 6)"
echo "  at $RATE r/s, p50: floor $(summary 7), squall $(summary 8), added $(summary 9)"
echo "  at $RATE r/s, p99: floor $(summary 10), squall $(summary 11), added $(summary 12)"
