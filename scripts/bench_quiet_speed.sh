#!/bin/bash
# The quiet build against an earlier commit's, in one run: both programs
# build the same quiet databases one after the other, and the table gives
# wall and CPU seconds, the positions stored, CPU nanoseconds a stored
# position and the ratio of those (base / new: how many times less CPU a
# position takes now), and whether the per-level checksums are the same
# (they must be: the script fails otherwise). Then, in the same run, the
# full build of each board marked with a "+" beside the new quiet one.
# The earlier commit is built in a temporary folder from this repository.
#
# usage: scripts/bench_quiet_speed.sh [BASE-REV] [SPEC ...]
#   BASE-REV  the commit to compare with (default: f8151b8, the last quiet
#             build before the corridors and rankers)
#   SPEC      BOARD[:VARIANT]@THREADS, with a + at the end to time the full
#             build too (default: 3x4@1 3x5:icelandic@2+ 3x5@2 4x4@2)
#   env: MEMORY (default 20000); HALF=1 also times the new program's
#        half quiet database (--store quiet-half: every quiet position
#        computed, half of them kept), its start value checked against
#        the quiet one's
set -eu
cd "$(dirname "$0")/.."
base=${1:-f8151b8}
[ $# -gt 0 ] && shift
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(3x4@1 3x5:icelandic@2+ 3x5@2 4x4@2)
MEMORY=${MEMORY:-20000}
command -v /usr/bin/time >/dev/null || { echo "bench_quiet_speed: needs GNU time (apt-get install time)" >&2; exit 1; }

T=$(mktemp -d /var/tmp/retrodb-bench-quiet-speed.XXXXXX)
cleanup() { git worktree remove --force "$T/base" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
make -s bin/retrodb
git worktree add -q --detach "$T/base" "$base"
make -s -C "$T/base" bin/retrodb > /dev/null
new=bin/retrodb
old=$T/base/bin/retrodb
echo "comparing $(git rev-parse --short HEAD) (new) with $(git -C "$T/base" rev-parse --short HEAD) (base)"

run() { # program board variant threads dir store -> "wall cpu"
    rm -rf "$5"
    /usr/bin/time -f "%e %U %S" -o "$T/time" "$1" build dots "$2" --variant "$3" --dir "$5" \
        --threads "$4" --memory "$MEMORY" --store "$6" --quiet > /dev/null
    awk '{ print $1, $2 + $3 }' "$T/time"
}
checksums() { "$new" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }

printf '%-16s %-3s %-11s %9s %9s %14s %9s %8s\n' board thr program wall-s cpu-s positions cpu-ns/pos ratio
for spec in "${specs[@]}"; do
    full=no
    case $spec in *+) full=yes spec=${spec%+} ;; esac
    threads=${spec##*@}
    spec=${spec%@*}
    board=${spec%%:*}
    variant=empty
    [ "$spec" != "$board" ] && variant=${spec#*:}
    read -r ow oc < <(run "$old" "$board" "$variant" "$threads" "$T/old" quiet)
    read -r nw nc < <(run "$new" "$board" "$variant" "$threads" "$T/new" quiet)
    positions=$("$new" info --dir "$T/new" --json | jq .positions)
    same=no
    cmp -s <(checksums "$T/old") <(checksums "$T/new") && same=yes
    awk -v b="$board:$variant" -v t="$threads" -v p="$positions" -v ow="$ow" -v oc="$oc" \
        -v nw="$nw" -v nc="$nc" -v same="$same" 'BEGIN {
        printf "%-16s %-3s %-11s %9.2f %9.2f %14d %9.1f\n", b, t, "base quiet", ow, oc, p, oc / p * 1e9
        printf "%-16s %-3s %-11s %9.2f %9.2f %14d %9.1f %7.2fx  checksums equal: %s\n", b, t, "new quiet",
               nw, nc, p, nc / p * 1e9, oc / nc, same }'
    [ "$same" = yes ] || { echo "bench_quiet_speed: the checksums of $board $variant differ" >&2; exit 1; }
    if [ "${HALF:-0}" = 1 ]; then
        read -r hw hc < <(run "$new" "$board" "$variant" "$threads" "$T/half" quiet-half)
        hb=$(du -sb "$T/half" | cut -f1) qb=$(du -sb "$T/new" | cut -f1)
        awk -v b="$board:$variant" -v t="$threads" -v p="$positions" -v hw="$hw" -v hc="$hc" \
            -v oc="$oc" -v nc="$nc" -v hb="$hb" -v qb="$qb" 'BEGIN {
            printf "%-16s %-3s %-11s %9.2f %9.2f %14d %9.1f %7.2fx  %.2fx the new quiet CPU, %.0f%% of its disk\n",
                   b, t, "new half", hw, hc, p, hc / p * 1e9, oc / hc, hc / nc, 100 * hb / qb }'
        "$new" query --dir "$T/half" --moves '' --json > "$T/half.json"
        "$new" query --dir "$T/new" --moves '' --json > "$T/quiet.json"
        cmp -s "$T/half.json" "$T/quiet.json" ||
            { echo "bench_quiet_speed: the half and the quiet $board $variant disagree at the start" >&2; exit 1; }
        rm -rf "$T/half"
    fi
    if [ $full = yes ]; then
        read -r fw fc < <(run "$new" "$board" "$variant" "$threads" "$T/full" all)
        fp=$("$new" info --dir "$T/full" --json | jq .positions)
        awk -v b="$board:$variant" -v t="$threads" -v p="$fp" -v fw="$fw" -v fc="$fc" -v nw="$nw" -v nc="$nc" 'BEGIN {
            printf "%-16s %-3s %-11s %9.2f %9.2f %14d %9.1f\n", b, t, "new full", fw, fc, p, fc / p * 1e9
            printf "%-16s the quiet build takes %.2fx less wall time than the full one, %.2fx less CPU\n",
                   b, fw / nw, fc / nc }'
        "$new" query --dir "$T/full" --moves '' --json > "$T/full.json"
        "$new" query --dir "$T/new" --moves '' --json > "$T/quiet.json"
        cmp -s "$T/full.json" "$T/quiet.json" ||
            { echo "bench_quiet_speed: the full and the quiet $board $variant disagree at the start" >&2; exit 1; }
        rm -rf "$T/full"
    fi
done
