#!/bin/bash
# variant-table.sh — build the Swedish and Icelandic boards of the variant
# table (data/variants.md) one after the other, resumably, and check each
# value by a second route.
#
# For each board: a build with --keep-lines (start lines + 1: the start and
# every opening line are kept, the rest deleted as the build goes), its wall
# time, peak memory (GNU time) and peak disk (sampled every 2 s); the value
# of the start and of every opening line (query); the per-level checksums;
# then the second route: the naive full table of tests/naive_dots.c up to
# NAIVE_MAX open lines (no symmetry, one byte a position), else `solve dots`
# from the start with --first-moves (the value of every opening line by
# alpha-beta search, no database), within SOLVE_TIMEOUT seconds, with
# SOLVE_ARGS added (a --tt-file makes the search resumable).
#
# Results go to OUT/<variant>-<RxC>.json, one file a board, written when the
# board is done; a board with a result is skipped, and a killed build is
# resumed by running the script again, as is a search that did not finish
# in its time. scripts/variant-table.sh --report prints data/variants.md
# from the results.
#
# usage: scripts/variant-table.sh [--report] [variant:RxC ...]
#   env: OUT (default /var/tmp/variants), RETRODB (bin/retrodb), MEMORY (MB
#   for the builder, default 12000), THREADS (default 2), NAIVE_MAX (28),
#   SOLVE_TIMEOUT (7200), SOLVE_ARGS (e.g. "--threads 2 --tt-file F")
set -u
cd "$(dirname "$0")/.."
R=${RETRODB:-bin/retrodb}
OUT=${OUT:-/var/tmp/variants}
MEMORY=${MEMORY:-12000}
THREADS=${THREADS:-2}
NAIVE_MAX=${NAIVE_MAX:-28}
SOLVE_TIMEOUT=${SOLVE_TIMEOUT:-7200}
SOLVE_ARGS=${SOLVE_ARGS:-}
mkdir -p "$OUT"

# every board of the table, by open lines
all_boards="swedish:2x2 icelandic:2x2 swedish:2x3 swedish:2x4 swedish:3x3 icelandic:2x3 swedish:2x5
icelandic:2x4 swedish:2x6 icelandic:3x3 swedish:2x7 icelandic:2x5 swedish:3x4 swedish:2x8
icelandic:2x6 swedish:2x9 icelandic:3x4 swedish:3x5 swedish:4x4 swedish:2x10 icelandic:2x7
swedish:2x11 icelandic:2x8 icelandic:4x4 swedish:3x6 swedish:2x12 icelandic:3x5 swedish:4x5
icelandic:3x6 swedish:3x7 swedish:3x8 swedish:4x6 swedish:5x5 icelandic:4x5"

# lines drawn in the start and open lines of a variant's board
start_lines() { # variant rows cols
    if [ "$1" = swedish ]; then echo $((2 * ($2 + $3))); else echo $(($2 + $3)); fi
}
open_lines() { echo $((2 * $2 * $3 + $2 + $3 - $(start_lines "$@"))); }

# the naive table's value of the start (first line) and its opening moves
# as JSON [{line, value}] sorted by name (second line), into FILE
naive_route() { # variant rows cols FILE
    build/naive_bench "$2" "$3" "$1" > "$4.raw" || return 1
    head -1 "$4.raw" | awk '{print $2}' > "$4"
    tail -n +2 "$4.raw" | awk -v R="$2" -v C="$3" '{
        id = $1; nh = (R + 1) * C
        if (id < nh) name = "h" int(id / C) "," (id % C)
        else { id -= nh; name = "v" int(id / (C + 1)) "," (id % (C + 1)) }
        printf "%s{\"line\":\"%s\",\"value\":%d}", (NR > 1 ? "," : "["), name, $2 }
        END { print "]" }' | jq -c 'sort_by(.line)' >> "$4"
}

# a result of an earlier version of this script, whose naive route had
# only the start's value: add the opening moves
complete_naive() { # result variant rows cols
    jq -e '.second_opening == null and (.second_route | startswith("naive"))' "$1" > /dev/null || return 0
    naive_route "$2" "$3" "$4" "$1.naive" || return 1
    jq --argjson moves "$(tail -n +2 "$1.naive")" '.second_opening = $moves' "$1" > "$1.tmp" &&
        mv "$1.tmp" "$1"
    rm -f "$1.naive" "$1.naive.raw"
}

# the second route of a board: sets route, value2 and moves2
second_route() { # variant rows cols open
    local variant=$1 rows=$2 cols=$3 open=$4 name=$1-$2x$3
    moves2="null"
    if [ "$open" -le "$NAIVE_MAX" ]; then
        route="naive full table (tests/naive_dots.c)"
        naive_route "$variant" "$rows" "$cols" "$OUT/$name.naive" || return 1
        value2=$(head -1 "$OUT/$name.naive")
        moves2=$(tail -n +2 "$OUT/$name.naive")
    else
        route="solve dots --first-moves"
        # quiet unless SOLVE_ARGS asks for progress (each move's value as it
        # comes, in OUT/NAME.err)
        local quiet=--quiet
        case " $SOLVE_ARGS " in *" --progress "*) quiet= ;; esac
        # shellcheck disable=SC2086 # SOLVE_ARGS is a list of options
        if timeout "$SOLVE_TIMEOUT" "$R" solve dots "${rows}x$cols" --variant "$variant" \
            --first-moves --json $quiet --tt-mb 4096 $SOLVE_ARGS > "$OUT/$name.solve" \
            2>> "$OUT/$name.err"; then
            value2=$(jq .value "$OUT/$name.solve")
            moves2=$(jq -c '[.moves[] | {line, value}] | sort_by(.line)' "$OUT/$name.solve")
        else
            route="solve dots --first-moves (did not finish in $SOLVE_TIMEOUT s)"
            value2=null
        fi
    fi
}

# a result without the opening lines' values by search (it did not finish
# in its time, or only the start was searched): search again
complete_search() { # result variant rows cols
    jq -e '.second_opening == null and (.second_route | startswith("solve dots"))' "$1" > /dev/null ||
        return 0
    echo "$(date -u +%H:%M:%S) $2-$3x$4: the second route again" >&2
    local route value2 moves2
    second_route "$2" "$3" "$4" "$(jq .open_lines "$1")" || return 1
    jq --arg route "$route" --argjson value2 "${value2:-null}" --argjson moves2 "$moves2" \
        '.second_route = $route | .second_value = $value2 | .second_opening = $moves2' "$1" \
        > "$1.tmp" && mv "$1.tmp" "$1"
    jq -c '{variant, rows, cols, value, second_value, seconds}' "$1" >&2
}

one_board() { # variant:RxC
    local variant=${1%%:*} board=${1#*:}
    local rows=${board%x*} cols=${board#*x}
    local name=$variant-$board dir=$OUT/$variant-$board
    local result=$OUT/$name.json
    if [ -s "$result" ]; then
        complete_naive "$result" "$variant" "$rows" "$cols" &&
            complete_search "$result" "$variant" "$rows" "$cols"
        return
    fi
    local start open keep
    start=$(start_lines "$variant" "$rows" "$cols")
    open=$(open_lines "$variant" "$rows" "$cols")
    keep=$((start + 1))
    echo "$(date -u +%H:%M:%S) $name: $open open lines, building in $dir" >&2

    # peak disk: the folder sampled every 2 s while the build runs
    local peak=0 size
    ( while :; do du -sb "$dir" 2>/dev/null | cut -f1; sleep 2; done ) > "$OUT/$name.du" &
    local sampler=$!
    /usr/bin/time -f "%e %M" -o "$OUT/$name.time" \
        "$R" build dots "$board" --variant "$variant" --dir "$dir" --keep-lines "$keep" \
        --memory "$MEMORY" --threads "$THREADS" --quiet > "$OUT/$name.build" 2> "$OUT/$name.err"
    local st=$?
    kill "$sampler" 2>/dev/null
    wait "$sampler" 2>/dev/null
    if [ "$st" -ne 0 ]; then
        echo "$name: build failed (exit $st): $(tail -2 "$OUT/$name.err")" >&2
        return 1
    fi
    for size in $(cat "$OUT/$name.du"); do [ "$size" -gt "$peak" ] && peak=$size; done
    # resumed builds: the times and peaks of every attempt add up / max
    cat "$OUT/$name.time" >> "$OUT/$name.times"
    local seconds peak_kb
    seconds=$(awk '{ s += $1 } END { print s }' "$OUT/$name.times")
    peak_kb=$(awk '$2 > m { m = $2 } END { print m }' "$OUT/$name.times")
    [ -s "$OUT/$name.peakdisk" ] && [ "$(cat "$OUT/$name.peakdisk")" -gt "$peak" ] && peak=$(cat "$OUT/$name.peakdisk")
    echo "$peak" > "$OUT/$name.peakdisk"

    "$R" query --dir "$dir" --moves '' --json > "$OUT/$name.query" || return 1
    "$R" query --dir "$dir" --moves '' > "$OUT/$name.picture" || return 1
    "$R" info --dir "$dir" --json > "$OUT/$name.info" || return 1
    "$R" info --dir "$dir" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}' > "$OUT/$name.checksums"

    local route value2 moves2
    second_route "$variant" "$rows" "$cols" "$open" || return 1
    jq -n --arg variant "$variant" --argjson rows "$rows" --argjson cols "$cols" \
        --argjson open "$open" --argjson keep "$keep" --argjson seconds "$seconds" \
        --argjson peak_kb "$peak_kb" --argjson peak_disk "$peak" --arg route "$route" \
        --argjson value2 "${value2:-null}" --argjson moves2 "$moves2" \
        --slurpfile q "$OUT/$name.query" --slurpfile info "$OUT/$name.info" \
        '{variant: $variant, rows: $rows, cols: $cols, open_lines: $open, keep_lines: $keep,
          value: $q[0].value, opening: ([$q[0].moves[] | {line, value}] | sort_by(.line)),
          positions: $info[0].positions, seconds: $seconds, peak_kb: $peak_kb,
          peak_disk_bytes: $peak_disk, second_route: $route, second_value: $value2,
          second_opening: $moves2}' > "$result.tmp" && mv "$result.tmp" "$result"
    jq -c '{variant, rows, cols, value, second_value, seconds}' "$result" >&2
}

# the result files, Swedish first, each variant by rows then columns
ordered() {
    for f in "$OUT"/*.json; do
        jq -r --arg f "$f" '[.variant, .rows, .cols, $f] | @tsv' "$f"
    done | sort -k1,1r -k2,2n -k3,3n | cut -f4
}

report() {
    echo "# Swedish and Icelandic boards"
    echo
    echo "Built by \`scripts/variant-table.sh\` on one machine (2 cores, 24 GB):"
    echo "\`bin/retrodb build dots RxC --variant V --keep-lines K\` with K the start's"
    echo "lines + 1 (the start and every opening line kept). Swedish: every border"
    echo "line drawn at the start; Icelandic: the left and bottom border lines."
    echo "Values are the first player's boxes minus the second's under best play."
    echo "Per-level checksums: data/checksums/V-RxC.txt. Seconds are wall time at"
    echo "nice 19 on a machine busy with other work (a rough guide; positions are"
    echo "exact). Second route: every value here, the start's and every opening"
    echo "line's, is also computed without the database, by the naive full table of"
    echo "tests/naive_dots.c or by \`solve dots --first-moves\` from the start."
    echo
    echo "| board | variant | open lines | value | second route | agrees | positions stored | seconds | peak memory | peak disk |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for f in $(ordered); do
        jq -r '"| \(.rows)x\(.cols) | \(.variant) | \(.open_lines) | \(if .value > 0 then "+" else "" end)\(.value) | \(.second_route) | \(if .second_value == .value and (.second_opening == null or .second_opening == .opening) then "yes" elif .second_value == null then "not checked" else "NO" end) | \(.positions) | \(.seconds) | \(.peak_kb / 1024 | floor) MB | \(.peak_disk_bytes / 1048576 | floor) MB |"' "$f"
    done
    local missing=""
    for b in $all_boards; do
        [ -s "$OUT/${b%%:*}-${b#*:}.json" ] || missing="$missing ${b#*:} ${b%%:*},"
    done
    if [ -n "$missing" ]; then
        echo
        echo "Not in the table yet (their builds are resumable):${missing%,}."
    fi
    echo
    echo "## The value of every opening line"
    echo
    echo "Each open line carries the value of drawing it first (for the first"
    echo "player, net boxes); \`*\` marks the best lines unless every line is best."
    echo
    for f in $(ordered); do
        local name
        name=$(basename "$f" .json)
        echo "### $(jq -r '"\(.rows)x\(.cols) \(.variant): \(if .value > 0 then "+" else "" end)\(.value)"' "$f")"
        echo
        echo '```'
        sed -n '/^[+|0-9 -]/p' "$OUT/$name.picture" | grep -v '^value'
        echo '```'
        echo
    done
}

if [ "${1:-}" = "--report" ]; then
    report
    exit 0
fi
make -s all build/naive_bench 2>/dev/null || { make -s all && mkdir -p build &&
    gcc -O3 -march=native -Itests -Isrc scripts/naive_bench.c tests/naive_dots.c -o build/naive_bench; }
boards=${*:-$all_boards}
rc=0
for b in $boards; do one_board "$b" || rc=1; done
exit $rc
