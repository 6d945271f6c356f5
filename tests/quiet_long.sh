#!/bin/bash
# quiet_long.sh — the quiet databases of 3x5 and 4x4 against their full
# databases (make check-long; about 40 minutes and 17 GB of disk on 2
# cores): both built in the same run, 1,000,000 random positions of every
# level answered by `query --batch` from each (the value and the best
# moves), which must be the same, and the start's value and every opening
# line's against Wilson's (-1 and 0, every opening line the same).
# BOARDS="3x5" to do one; N=number of positions.
set -u
RETRODB=${RETRODB:-bin/retrodb}
N=${N:-1000000}
T=$(mktemp -d ${TMPDIR:-/var/tmp}/retrodb-quiet-long.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

random_bits() { # N LENGTH SEED: positions of every density
    awk -v N="$1" -v L="$2" -v seed="$3" 'BEGIN { srand(seed)
        for (n = 0; n < N; n++) { k = rand() * (L + 1); s = ""
            for (j = 0; j < L; j++) s = s (rand() * L < k ? "1" : "0"); print s } }'
}

for spec in ${BOARDS:-3x5:-1 4x4:0}; do
    board=${spec%%:*} value=${spec#*:}
    rows=${board%x*} cols=${board#*x}
    lines=$((2 * rows * cols + rows + cols))
    t0=$(date +%s)
    "$RETRODB" build dots "$board" --dir "$T/full" --quiet --memory 8000 > /dev/null || bad "$board: full build"
    t1=$(date +%s)
    "$RETRODB" build dots "$board" --store quiet --dir "$T/quiet" --quiet --memory 8000 > /dev/null ||
        bad "$board: quiet build"
    t2=$(date +%s)
    echo "$board: full build $((t1 - t0)) s, quiet build $((t2 - t1)) s"
    random_bits "$N" "$lines" 7 > "$T/pos"
    "$RETRODB" query --dir "$T/full" --batch "$T/pos" > "$T/full.out" 2>&1
    "$RETRODB" query --dir "$T/quiet" --batch "$T/pos" > "$T/quiet.out" 2>&1
    [ "$(wc -l < "$T/quiet.out")" -eq "$N" ] && cmp -s "$T/full.out" "$T/quiet.out" && ok ||
        bad "$board: $N random positions: the quiet database answers differently ($(cmp "$T/full.out" "$T/quiet.out" 2>&1 | head -1))"
    "$RETRODB" query --dir "$T/quiet" --moves '' --json > "$T/start.json"
    jq -e --argjson v "$value" '.value == $v and ([.moves[] | .value] | all(. == $v))' "$T/start.json" \
        > /dev/null && ok || bad "$board: the start or an opening line is not $value"
    rm -rf "${T:?}/full" "${T:?}/quiet"
done
echo "quiet long: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
