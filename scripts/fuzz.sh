#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (the `fuzz` preset: clang, AddressSanitizer,
# UndefinedBehaviorSanitizer) and runs each for SECONDS (default 60) on its corpus, with
# its dictionary; docs/fuzzing.md says what each harness reads and what was found.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]      e.g. scripts/fuzz.sh 10; scripts/fuzz.sh 3600 corpus
#
# Seeds are generated afresh each time (fuzz/make_seeds.py, from the shipped files, the
# test fixtures and, when build/release/squall exists, what squall writes) into
# build/fuzz/seeds/; what libFuzzer finds new is kept in build/fuzz/corpus/ for the next
# run. A crash, a sanitizer report, a timeout (-timeout, 25 s an input) or memory over
# -rss_limit_mb (2048) stops that harness, leaves its reproducer in build/fuzz/crashes/ and
# makes the script exit 1 after the others have run. Each harness's log is in
# build/fuzz/logs/; the last line printed per harness counts its executions.
# FUZZ_JOBS (default: nproc) compiles; FUZZ_NICE (default 0) lowers the runs' priority;
# FUZZ_PRESET (default fuzz, -O1) names the build: `debug` runs the harnesses the debug
# preset built beside the tests (-O0, slower per input; scripts/test.sh's short run).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
all=(duration retry_after threshold corpus scenario_json scenario_yaml policy sweep merge_partial compare_report
     replay_otlp replay_litellm live_request)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${all[@]}")

preset=${FUZZ_PRESET:-fuzz}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j"${FUZZ_JOBS:-$(nproc)}" --target squall_fuzzers

out=build/fuzz
squall=build/release/squall
rm -rf "$out/seeds" "$out/dict"
mkdir -p "$out"
python3 fuzz/make_seeds.py "$out" "$([ -x "$squall" ] && echo "$squall" || true)" >"$out/seeds.txt"
mkdir -p "$out/corpus" "$out/crashes" "$out/logs"

failed=()
for h in "${harnesses[@]}"; do
  mkdir -p "$out/corpus/$h"
  log="$out/logs/$h.log"
  # The generated corpus last: libFuzzer writes new inputs into the first directory only.
  if nice -n "${FUZZ_NICE:-0}" "build/$preset/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 \
      -dict="$out/dict/$h.dict" -artifact_prefix="$out/crashes/$h-" -print_final_stats=1 \
      "$out/corpus/$h" "$out/seeds/$h" >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed+=("$h")
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "fuzz: $h: ${runs:-?} executions in ${seconds} s: $status"
  if [ "$status" = FAILED ]; then
    grep -m1 -A20 -E 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error|fuzz: property' "$log" \
      >&2 || tail -20 "$log" >&2
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]} (reproducers in $out/crashes/, logs in $out/logs/)" >&2
  exit 1
fi
