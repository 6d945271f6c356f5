#!/bin/bash
# Command-line tests of `retrodb query --svg FILE`: the pictures of a
# Dots-and-Boxes position (the 3x3 opening, a game under way, loony marks)
# and of Cram positions are well-formed XML (xmllint), the same bytes each
# time, and, rendered to PNG (rsvg-convert), show the right colours where
# the SVG puts each thing: a best move's line green, a drawn line dark, a
# box taken in its owner's tint, a winning Cram edge green, a covered cell
# dark, the background white. Pixels are read from the PNG by a few lines
# of python3 (zlib). Also the option's errors: an unwritable file (exit 1,
# the answer still printed), a bad position (exit 2, no file).
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-svg.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"
R=$RETRODB

for tool in xmllint rsvg-convert python3 jq; do
    if ! command -v $tool > /dev/null; then
        echo "svg: $tool is not installed (scripts/install-deps.sh installs it)" >&2
        exit 1
    fi
done

# The colours the pictures use (tools/picture.c), as R G B.
BEST="26 127 55"     # RDB_PICTURE_BEST #1a7f37
INK="31 35 40"       # RDB_PICTURE_INK #1f2328, a drawn line, a dot
WHITE="255 255 255"
BEST_FILL="218 251 225" # a best move's label
BOX_A="221 244 255"  # a box taken by A
COVERED="66 74 83"   # a covered Cram cell

# pixels PNG X,Y...: "R G B" of each pixel, one per line. A PNG reader in
# python3 with zlib: 8-bit RGB or RGBA, not interlaced, as rsvg-convert
# writes them.
pixels() {
    python3 - "$@" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    pos += 12 + n
    if kind == b'IHDR':
        w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
assert depth == 8 and ctype in (2, 6) and interlace == 0, 'unexpected PNG format'
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
rows, prev = [], bytearray(stride)
for y in range(h):
    start = y * (stride + 1)
    kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if kind == 1:
            line[i] = (line[i] + a) & 255
        elif kind == 2:
            line[i] = (line[i] + b) & 255
        elif kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
for point in sys.argv[2:]:
    x, y = map(int, point.split(','))
    print(*rows[y][x * bpp:x * bpp + 3])
EOF
}

# colour_is WHAT PNG X Y R G B: the pixel at X,Y is within 12 of R G B in
# each channel (the renderer's rounding)
colour_is() {
    local what=$1 png=$2 x=$3 y=$4 want="$5 $6 $7"
    local got
    got=$(pixels "$png" "$x,$y")
    # shellcheck disable=SC2086
    if python3 -c 'import sys; a = sys.argv[1].split(); b = sys.argv[2].split();
sys.exit(0 if len(a) == 3 and all(abs(int(p) - int(q)) <= 12 for p, q in zip(a, b)) else 1)' \
        "$got" "$want"; then
        ok
    else
        bad "$what: pixel $x,$y of $png is '$got', want '$want'"
    fi
}

# attr SVG XPATH: the value the XPath gives in the SVG (namespace-free
# names through local-name(), since the SVG has a default namespace)
attr() {
    xmllint --xpath "string($2)" "$1" 2>/dev/null
}

# line_at SVG TITLE: "x1 y1 x2 y2" of the <line> whose title is TITLE or
# starts with "TITLE:"
line_at() {
    local q="//*[local-name()='line'][*[local-name()='title'][.='$2' or starts-with(., '$2:')]]"
    echo "$(attr "$1" "$q/@x1") $(attr "$1" "$q/@y1") $(attr "$1" "$q/@x2") $(attr "$1" "$q/@y2")"
}

# well_formed SVG: xmllint reads it, and it has a viewBox, a width and a
# height, so that it scales
well_formed() {
    if ! xmllint --noout "$1" 2>"$T/xmllint.err"; then
        bad "$1 is not well-formed XML: $(cat "$T/xmllint.err")"
        return
    fi
    local root="/*[local-name()='svg']"
    if [ -n "$(attr "$1" "$root/@viewBox")" ] && [ -n "$(attr "$1" "$root/@width")" ] &&
        [ -n "$(attr "$1" "$root/@height")" ]; then
        ok
    else
        bad "$1 lacks a viewBox, a width or a height"
    fi
}

render() {
    rsvg-convert "$1" -o "$2" 2>"$T/rsvg.err" && ok || bad "rsvg-convert $1: $(cat "$T/rsvg.err")"
}

$R build dots 3x3 --dir "$T/d33" --quiet > /dev/null || bad "build dots 3x3"
$R build cram 3x4 --dir "$T/c34" --quiet > /dev/null || bad "build cram 3x4"

# --- the 3x3 opening: every move is worth -3, so every line is a best move ---
expect 0 'A to move loses by 3' -- $R query --dir "$T/d33" --moves '' --svg "$T/open.svg"
well_formed "$T/open.svg"
$R query --dir "$T/d33" --moves '' --svg "$T/open2.svg" > /dev/null
cmp -s "$T/open.svg" "$T/open2.svg" && ok || bad "two pictures of the same position differ"
grep -q '>A to move loses by 3 (value -3)</text>' "$T/open.svg" && ok ||
    bad "no caption in $T/open.svg"
[ "$(grep -c '<title>[hv][0-9],[0-9]: -3</title>' "$T/open.svg")" = 24 ] && ok ||
    bad "not 24 open lines of value -3 in $T/open.svg"
# a best open line is dashed, as every open line is: solid reads as drawn
[ "$(grep -c 'stroke="#1a7f37" stroke-width="3" stroke-dasharray' "$T/open.svg")" = 24 ] && ok ||
    bad "the best open lines are not dashed"
render "$T/open.svg" "$T/open.png"
colour_is "the background" "$T/open.png" 2 2 $WHITE
# h0,0 and v1,3: 12 pixels from their first dot, between the dot and the label
read -r x1 y1 _ _ <<< "$(line_at "$T/open.svg" h0,0)"
colour_is "best line h0,0" "$T/open.png" $((x1 + 12)) "$y1" $BEST
read -r x1 y1 _ _ <<< "$(line_at "$T/open.svg" v1,3)"
colour_is "best line v1,3" "$T/open.png" "$x1" $((y1 + 12)) $BEST
# the dot at the top left
colour_is "the top dot of v1,3" "$T/open.png" "$x1" "$y1" $INK

# --- a game under way: a box taken by A, drawn lines, one best move ---
cat > "$T/mid.txt" <<'EOF'
+-+-+ +
|A|   |
+-+ + +
|
+ + +-+
    | |
+-+ + +
EOF
expect 0 'the player to move loses by 2 from here' -- $R query --dir "$T/d33" "$T/mid.txt" --svg "$T/mid.svg"
well_formed "$T/mid.svg"
render "$T/mid.svg" "$T/mid.png"
json=$($R query --dir "$T/d33" "$T/mid.txt" --json --svg "$T/mid-json.svg")
# with --json, stdout is still one object, and the picture the same
[ "$(printf '%s\n' "$json" | jq -c '[.value, ([.moves[] | select(.value == -2) | .line])]')" = '[-2,["h3,2"]]' ] &&
    ok || bad "query --json --svg printed: $json"
cmp -s "$T/mid.svg" "$T/mid-json.svg" && ok || bad "--json changed the picture"
read -r x1 y1 x2 _ <<< "$(line_at "$T/mid.svg" h3,2)"
colour_is "best line h3,2" "$T/mid.png" $((x1 + 12)) "$y1" $BEST
colour_is "best line h3,2's label" "$T/mid.png" $(((x1 + x2) / 2 - 11)) "$y1" $BEST_FILL
read -r x1 y1 x2 _ <<< "$(line_at "$T/mid.svg" h1,1)"
colour_is "a worse line's label" "$T/mid.png" $(((x1 + x2) / 2 - 11)) "$y1" $WHITE
read -r x1 y1 x2 _ <<< "$(line_at "$T/mid.svg" h0,0)"
colour_is "drawn line h0,0" "$T/mid.png" $(((x1 + x2) / 2)) "$y1" $INK
colour_is "box A" "$T/mid.png" $((x1 + 12)) $((y1 + 12)) $BOX_A
read -r x1 y1 x2 _ <<< "$(line_at "$T/mid.svg" h2,1)"
colour_is "the box under h2,1, open" "$T/mid.png" $(((x1 + x2) / 2)) $((y1 + 20)) $WHITE

# --- loony marks after the values ---
$R build dots 2x2 --loony --dir "$T/l22" --quiet > /dev/null || bad "build dots 2x2 --loony"
expect 0 '' -- $R query --dir "$T/l22" --moves 'h0,0' --svg "$T/loony.svg"
well_formed "$T/loony.svg"
grep -q '<tspan font-size="11">[v^]</tspan></text>' "$T/loony.svg" && ok ||
    bad "no loony mark in $T/loony.svg"

# --- Cram: the empty 3x4 (nimber 1), its winning moves green ---
printf '....\n....\n....\n' > "$T/c-empty.txt"
expect 0 'nimber 1: the player to move wins' -- $R query --dir "$T/c34" "$T/c-empty.txt" --svg "$T/cram.svg"
well_formed "$T/cram.svg"
render "$T/cram.svg" "$T/cram.png"
win=$($R query --dir "$T/c34" "$T/c-empty.txt" --json |
    jq -r '[.moves[] | select(.nimber == 0)][0].cells | "(\(.[0][0]),\(.[0][1]))-(\(.[1][0]),\(.[1][1]))"')
read -r x1 y1 x2 y2 <<< "$(line_at "$T/cram.svg" "$win")"
[ -n "$x1" ] && ok || bad "no winning edge for $win in $T/cram.svg"
colour_is "winning edge $win" "$T/cram.png" $(((3 * x1 + x2) / 4)) $(((3 * y1 + y2) / 4)) $BEST
colour_is "the background" "$T/cram.png" 2 2 $WHITE
[ "$(grep -c '<title>(.*): 0</title>' "$T/cram.svg")" = \
    "$($R query --dir "$T/c34" "$T/c-empty.txt" --json | jq '[.moves[] | select(.nimber == 0)] | length')" ] &&
    ok || bad "not one green edge per winning move in $T/cram.svg"

# a covered cell, found from the board's outline (the one unfilled rect)
printf '#...\n....\n..##\n' > "$T/c-mid.txt"
expect 0 'nimber 0: the player to move loses' -- $R query --dir "$T/c34" "$T/c-mid.txt" --svg "$T/cram-mid.svg"
well_formed "$T/cram-mid.svg"
render "$T/cram-mid.svg" "$T/cram-mid.png"
board="//*[local-name()='rect'][@fill='none']"
bx=$(attr "$T/cram-mid.svg" "$board/@x")
by=$(attr "$T/cram-mid.svg" "$board/@y")
cell=$(($(attr "$T/cram-mid.svg" "$board/@width") / 4))
colour_is "covered cell (0,0)" "$T/cram-mid.png" $((bx + cell / 2)) $((by + cell / 4)) $COVERED
colour_is "covered cell (2,3)" "$T/cram-mid.png" $((bx + 7 * cell / 2)) $((by + 5 * cell / 2)) $COVERED
colour_is "free cell (2,0)" "$T/cram-mid.png" $((bx + cell / 4)) $((by + 5 * cell / 2)) $WHITE
# nimber 0: no move wins, nothing is green
grep -q '#1a7f37' "$T/cram-mid.svg" && bad "a losing Cram position has green moves" || ok

# --- errors ---
expect 1 "cannot write '$T/no/such/folder.svg': No such file or directory" -- \
    $R query --dir "$T/d33" --moves '' --svg "$T/no/such/folder.svg"
# the answer is printed before the picture is tried
expect 1 'A to move loses by 3' -- $R query --dir "$T/d33" --moves '' --svg "$T/no/such/folder.svg"
if [ -w /dev/full ]; then
    expect 1 "cannot write '/dev/full': No space left on device" -- $R query --dir "$T/d33" --moves '' --svg /dev/full
    expect 1 "cannot write '/dev/full'" -- $R query --dir "$T/c34" "$T/c-empty.txt" --svg /dev/full
fi
expect 2 'needs a value' -- $R query --dir "$T/d33" --moves '' --svg
printf '+ +\n\n+ +\n' > "$T/small.txt"
expect 2 'is a 1x1 board' -- $R query --dir "$T/d33" "$T/small.txt" --svg "$T/bad.svg"
[ ! -e "$T/bad.svg" ] && ok || bad "a refused query wrote its picture"
expect 0 '--svg FILE' -- $R query --help

echo "svg: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
