#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ apart from the normal build (AddressSanitizer everywhere,
# libFuzzer's coverage on the library under test: see Fuzz/Package.swift) and runs each one for
# SECONDS seconds (default 60), starting from seeds generated from deterministic sessions and
# Vectors/*.json, and from the saved inputs of Fuzz/regressions/<target>/. Prints executions per
# second and total executions per target; exits non-zero if any target crashes or breaks an
# invariant. The crashing input is kept in Fuzz/corpus-work/artifacts/<target>/: copy it to
# Fuzz/regressions/<target>/ so every later run (and, for the five byte-script targets, the
# normal test suite) replays it. Line coverage: Scripts/fuzz-coverage.sh.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]
#   FUZZ_RUNS=10000000 Scripts/fuzz.sh 3600 FuzzSender   # stop at 10 million executions
set -euo pipefail
seconds="${1:-60}"
shift || true
cd "$(dirname "$0")/.."
root="$(pwd)"
Scripts/setup.sh

targets=("$@")
source Scripts/fuzz-targets.sh
[ "${#targets[@]}" -gt 0 ] || targets=("${all_targets[@]}")

build_flags=(-c release -Xswiftc -sanitize=address -Xswiftc -warnings-as-errors
             -Xswiftc -DHANDOFF_FUZZ_X25519_CACHE -Xswiftc -DHANDOFF_FUZZ_KEY_CACHE)
# Link with the toolchain's lld when it ships one (Swift's Linux toolchains do): the system's
# gold warns about every AddressSanitizer executable ("Cannot export local symbol
# '__asan_extra_spill_area'"), and a build that prints warnings hides the ones that matter.
toolchain_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
[ -x "$toolchain_bin/ld.lld" ] && build_flags+=(-Xswiftc -use-ld=lld)
build_start=$(date +%s)
(cd Fuzz && swift build "${build_flags[@]}")
bin="$(cd Fuzz && swift build "${build_flags[@]}" --show-bin-path)"
echo "fuzz build: $(( $(date +%s) - build_start )) s"

work="$root/Fuzz/corpus-work"
export SWIFT_BACKTRACE=enable=no  # libFuzzer reports crashes itself
# AddressSanitizer settings for speed (the profile in Fuzz/README.md: its malloc bookkeeping was 39% of the
# samples): no stack trace recorded per malloc and free (a report still shows where it failed), no
# fake stacks for use-after-return (Swift never returns pointers to locals), no quarantine, global
# or per thread (its bookkeeping was 17% of the samples; heap overflows are still caught by the red zones, a
# use-after-free only until the memory is reused: Swift code reaches freed memory only through
# unsafe pointers, which the library keeps inside closures), and no leak check (Swift's runtime
# caches look like leaks and each check re-runs an input; the simulation checks instead that
# every secret is wiped at the end of every session).
export ASAN_OPTIONS="malloc_context_size=0:detect_stack_use_after_return=0:quarantine_size_mb=0:thread_local_quarantine_size_kb=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# FUZZ_RUNS=N also stops each target after N executions (for long local runs).
runs=()
[ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
status=0
summary=()
for target in "${targets[@]}"; do
    seeds="$work/seeds/$target"
    corpus="$work/corpus/$target"
    artifacts="$work/artifacts/$target"
    log="$work/logs/$target.log"
    rm -rf "$seeds"
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    vectors=()
    [ -d "$root/Vectors" ] && vectors=("$root/Vectors")
    "$bin/$target" --write-seeds "$seeds" "${vectors[@]}"
    # The saved inputs run first, with the seeds (the event targets' are replayed only here).
    saved=()
    [ -d "$root/Fuzz/regressions/$target" ] && saved=("$root/Fuzz/regressions/$target")
    set +e
    "$bin/$target" "$corpus" "$seeds" "${saved[@]}" \
        -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=30 -rss_limit_mb=4096 -detect_leaks=0 \
        -dict="$root/Fuzz/dictionaries/${dictionary[$target]}" -artifact_prefix="$artifacts/" \
        -print_final_stats=1 "${runs[@]}" >"$log" 2>&1
    rc=$?
    set -e
    executions=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
    rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
    line=$(printf "%-14s executions=%-10s exec/s=%-7s corpus=%s" "$target" "${executions:-?}" "${rate:-?}" \
        "$(find "$corpus" -type f | wc -l)")
    if [ "$rc" -ne 0 ]; then
        status=1
        line="$line  CRASH (exit $rc, log $log)"
        tail -n 40 "$log"
    fi
    echo "$line"
    summary+=("$line")
done
echo "---- fuzz summary (${seconds} s per target) ----"
printf '%s\n' "${summary[@]}"
exit "$status"
