#!/bin/bash
# Per-level value checksums of the databases the tests build, as `info`
# prints them (level, slices, positions, checksum). data/checksums/ keeps
# the expected ones so that any change of a value shows; tests/cli.sh
# compares. Regenerate (only after checking the values by other means):
#   scripts/checksums.sh --update
# Layout changes (groups, bit order) change the checksums too.
set -eu
cd "$(dirname "$0")/.."
RETRODB=${RETRODB:-bin/retrodb}
boards=(2x2 3x3 3x3:swedish 3x3:icelandic 2x4 3x4 cram:4x5 cram:5x5
        quiet:2x2 quiet:2x4 quiet:3x3 quiet:3x3:swedish quiet:3x3:icelandic quiet:3x4
        quiet-half:3x3 quiet-half:3x3:icelandic quiet-half:3x4)
T=$(mktemp -d /tmp/retrodb-sums.XXXXXX)
trap 'rm -rf "$T"' EXIT
status=0
for spec in "${boards[@]}"; do
    if [ "${spec%%:*}" = cram ]; then
        board=${spec#cram:}
        name=cram-$board
        "$RETRODB" build cram "$board" --dir "$T/$name" --quiet
    else
        store=all
        case ${spec%%:*} in quiet | quiet-half) store=${spec%%:*} spec=${spec#*:} ;; esac
        board=${spec%%:*}
        variant=empty
        [ "$spec" != "$board" ] && variant=${spec#*:}
        name=$board$([ "$variant" = empty ] || echo "-$variant")$([ $store = all ] || echo "-$store")
        "$RETRODB" build dots "$board" --variant "$variant" --store $store --dir "$T/$name" --quiet
    fi
    "$RETRODB" info --dir "$T/$name" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}' > "$T/$name.txt"
    if [ "${1:-}" = "--update" ]; then
        cp "$T/$name.txt" "data/checksums/$name.txt"
    elif ! diff -q "$T/$name.txt" "data/checksums/$name.txt" > /dev/null; then
        echo "checksums of $name differ from data/checksums/$name.txt" >&2
        status=1
    fi
    rm -rf "${T:?}/$name"
done
exit $status
