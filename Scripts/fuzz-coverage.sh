#!/usr/bin/env bash
# Measures what the fuzz targets of Fuzz/ reach, by line: builds them with LLVM's source-based
# coverage (-profile-generate -profile-coverage-mapping, no sanitizer, libFuzzer's own edge
# coverage kept so the fuzzer is still guided), replays each target's inputs and prints per-file
# and per-folder line coverage of the library's protocol core (Sources/AccountHandoff/ Session,
# Frames, Payload, Codec, KeySchedule, Driver) with llvm-cov.
#
# The inputs of a target: its seeds, Fuzz/regressions/<target>/, the corpus Scripts/fuzz.sh grew
# (Fuzz/corpus-work/corpus/<target>/) when there is one, and, when RUNS is above 0, what a run of
# RUNS executions (libFuzzer's -seed=1) of the coverage build adds to them. Not part of CI.
#
#   Scripts/fuzz-coverage.sh [RUNS] [TARGET...]     # RUNS defaults to 0: replay only
#   Scripts/fuzz-coverage.sh 200000                 # seeds plus 200,000 executions per target
#   FUZZ_COVERAGE_NO_CORPUS=1 Scripts/fuzz-coverage.sh 200000   # ignore corpus-work (reproducible)
set -euo pipefail
runs="${1:-0}"
shift || true
cd "$(dirname "$0")/.."
root="$(pwd)"
Scripts/setup.sh

targets=("$@")
source Scripts/fuzz-targets.sh
[ "${#targets[@]}" -gt 0 ] || targets=("${all_targets[@]}")
folders=(Session Frames Payload Codec KeySchedule Driver)

toolchain_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
for tool in llvm-profdata llvm-cov; do
    [ -x "$toolchain_bin/$tool" ] || { echo "error: $tool is not in the Swift toolchain ($toolchain_bin)" >&2; exit 1; }
done
# The fuzz build's memoising flags, so the code measured is the code Scripts/fuzz.sh fuzzes.
build_flags=(-c release --scratch-path "$root/Fuzz/.build/coverage" -Xswiftc -sanitize=fuzzer
             -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping -Xswiftc -warnings-as-errors
             -Xswiftc -DHANDOFF_FUZZ_X25519_CACHE -Xswiftc -DHANDOFF_FUZZ_KEY_CACHE)
[ -x "$toolchain_bin/ld.lld" ] && build_flags+=(-Xswiftc -use-ld=lld)
build_start=$(date +%s)
(cd Fuzz && swift build "${build_flags[@]}")
bin="$(cd Fuzz && swift build "${build_flags[@]}" --show-bin-path)"
echo "coverage build: $(( $(date +%s) - build_start )) s"

work="$root/Fuzz/corpus-work/coverage"
rm -rf "$work"
mkdir -p "$work/profiles"
export SWIFT_BACKTRACE=enable=no
objects=()
for target in "${targets[@]}"; do
    inputs="$work/inputs/$target"
    mkdir -p "$inputs"
    vectors=()
    [ -d "$root/Vectors" ] && vectors=("$root/Vectors")
    "$bin/$target" --write-seeds "$work/seeds/$target" "${vectors[@]}" >/dev/null
    cp "$work/seeds/$target"/* "$inputs/" 2>/dev/null || true
    cp "$root/Fuzz/regressions/$target"/* "$inputs/" 2>/dev/null || true
    corpus="$root/Fuzz/corpus-work/corpus/$target"
    if [ -z "${FUZZ_COVERAGE_NO_CORPUS:-}" ] && [ -d "$corpus" ]; then cp "$corpus"/* "$inputs/" 2>/dev/null || true; fi
    start=$(date +%s)
    if [ "$runs" -gt 0 ]; then
        # Grow the inputs with the coverage build itself (its libFuzzer edges still guide it).
        LLVM_PROFILE_FILE="$work/profiles/$target-run-%p.profraw" \
            "$bin/$target" "$inputs" -runs="$runs" -seed=1 -max_len="${max_len[$target]}" -timeout=30 \
            -dict="$root/Fuzz/dictionaries/${dictionary[$target]}" -artifact_prefix="$work/" \
            >"$work/$target-run.log" 2>&1 || { echo "$target: the run failed (log $work/$target-run.log)" >&2; exit 1; }
    fi
    # Replay every input once (libFuzzer loads the corpus and stops).
    LLVM_PROFILE_FILE="$work/profiles/$target-replay-%p.profraw" \
        "$bin/$target" "$inputs" -runs=0 -max_len="${max_len[$target]}" >"$work/$target-replay.log" 2>&1 \
        || { echo "$target: the replay failed (log $work/$target-replay.log)" >&2; exit 1; }
    echo "$target: $(find "$inputs" -type f | wc -l) inputs, $(( $(date +%s) - start )) s"
    objects+=(-object "$bin/$target")
done

"$toolchain_bin/llvm-profdata" merge -sparse "$work"/profiles/*.profraw -o "$work/merged.profdata"
# The first -object is the binary llvm-cov reads; the others add their copies of the same code.
"$toolchain_bin/llvm-cov" report "${objects[@]:1}" -instr-profile="$work/merged.profdata" >"$work/report.txt"

# Per file, then per folder: Sources/AccountHandoff/<folder>/... lines (executed / total).
pattern="^(.*/)?AccountHandoff/($(IFS='|'; echo "${folders[*]}"))/"
awk -v pattern="$pattern" -v folders="${folders[*]}" '
    $1 ~ /\.swift$/ && $1 ~ pattern {
        file = $1; sub(/^(.*\/)?AccountHandoff\//, "", file)
        # Columns: regions, missed, cover, functions, missed, executed, lines, missed lines, cover.
        lines = $8; missed = $9
        folder = file; sub(/\/.*/, "", folder)
        files[file] = sprintf("%-62s %6d %6d %7.2f%%", file, lines - missed, lines, lines ? 100 * (lines - missed) / lines : 100)
        order[++count] = file
        folderLines[folder] += lines; folderMissed[folder] += missed
        totalLines += lines; totalMissed += missed
    }
    END {
        printf "%-62s %6s %6s %8s\n", "file (Sources/AccountHandoff/)", "hit", "lines", "cover"
        for (i = 1; i <= count; i++) print files[order[i]]
        printf "\n%-14s %6s %6s %8s\n", "folder", "hit", "lines", "cover"
        n = split(folders, names, " ")
        for (i = 1; i <= n; i++) {
            folder = names[i]; l = folderLines[folder]; m = folderMissed[folder]
            printf "%-14s %6d %6d %7.2f%%\n", folder, l - m, l, l ? 100 * (l - m) / l : 100
        }
        printf "%-14s %6d %6d %7.2f%%\n", "total", totalLines - totalMissed, totalLines,
               totalLines ? 100 * (totalLines - totalMissed) / totalLines : 100
    }' "$work/report.txt" | tee "$work/table.txt"
echo "llvm-cov report: $work/report.txt; uncovered lines of one file:"
echo "  $toolchain_bin/llvm-cov show ${objects[*]:1} -instr-profile=$work/merged.profdata -show-line-counts-or-regions FILE"
