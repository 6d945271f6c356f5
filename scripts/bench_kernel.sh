#!/bin/bash
# The slice kernel against an earlier commit, in one run: both programs
# build the same boards one after the other (alternating, REPEAT times),
# and the table gives wall and CPU seconds, positions a second and the
# ratio, and whether the per-level checksums are the same (they must be).
# The earlier commit is built in a temporary folder from this repository.
#
# usage: scripts/bench_kernel.sh [BASE-REV] [BOARD ...]
#   BASE-REV  the commit to compare with (default: HEAD~1)
#   BOARD     like 3x5 or 3x5:icelandic (default: 3x5 3x5:icelandic)
#   env: THREADS (default: every core), MEMORY (default 8000), REPEAT (1),
#        KEEP (the --keep-lines of 3x5, default 15, as data/checksums/3x5-keep15.txt)
set -eu
cd "$(dirname "$0")/.."
base=${1:-HEAD~1}
[ $# -gt 0 ] && shift
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(3x5 3x5:icelandic)
THREADS=${THREADS:-$(nproc)}
MEMORY=${MEMORY:-8000}
REPEAT=${REPEAT:-1}
KEEP=${KEEP:-15}
command -v /usr/bin/time >/dev/null || { echo "bench_kernel: needs GNU time (apt-get install time)" >&2; exit 1; }

T=$(mktemp -d /tmp/retrodb-bench-kernel.XXXXXX)
cleanup() { git worktree remove --force "$T/base" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
make -s all
git worktree add -q --detach "$T/base" "$base"
make -s -C "$T/base" all > /dev/null
new=bin/retrodb
old=$T/base/bin/retrodb
echo "comparing $(git rev-parse --short HEAD) (new) with $(git -C "$T/base" rev-parse --short HEAD) (base), $THREADS threads"

run() { # program board variant dir -> "wall user"
    local extra=()
    [ "$3" = empty ] && extra=(--keep-lines "$KEEP")
    rm -rf "$4"
    /usr/bin/time -f "%e %U" -o "$T/time" "$1" build dots "$2" --variant "$3" --dir "$4" \
        --threads "$THREADS" --memory "$MEMORY" --quiet "${extra[@]}" > /dev/null
    cat "$T/time"
}
checksums() { "$new" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }

printf '%-16s %-5s %8s %8s %9s %9s\n' board prog wall-s cpu-s "Mpos/s" "ratio"
for spec in "${boards[@]}"; do
    board=${spec%%:*}
    variant=empty
    [ "$spec" != "$board" ] && variant=${spec#*:}
    for r in $(seq "$REPEAT"); do
        read -r ow ou < <(run "$old" "$board" "$variant" "$T/old")
        read -r nw nu < <(run "$new" "$board" "$variant" "$T/new")
        positions=$("$new" info --dir "$T/new" --json | jq .positions)
        same=no
        cmp -s <(checksums "$T/old") <(checksums "$T/new") && same=yes
        awk -v b="$board:$variant" -v p="$positions" -v ow="$ow" -v ou="$ou" -v nw="$nw" -v nu="$nu" -v same="$same" 'BEGIN {
            printf "%-16s %-5s %8.1f %8.1f %9.1f\n", b, "base", ow, ou, p / ow / 1e6
            printf "%-16s %-5s %8.1f %8.1f %9.1f %8.2fx  checksums equal: %s\n", b, "new", nw, nu, p / nw / 1e6, ow / nw, same }'
        [ "$same" = yes ] || { echo "bench_kernel: the checksums of $board $variant differ" >&2; exit 1; }
    done
done
