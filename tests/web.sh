#!/bin/bash
# Tests of `retrodb serve`: its options' errors; the JSON API answers with
# the very bytes `query --json` prints (every position of a game, the
# perfect game, a Cram table, a diagram); every bad request gets its status
# and a JSON error (a malformed position 400, an unknown parameter 400, a
# bad escape 400, a position not stored 404, an unknown path 404, POST 405,
# an over-long request refused, a path that tries to name a file 404); it
# listens on 127.0.0.1 by default; slow clients are cut off at the
# deadline while others are answered (tests/serve_slow_clients.py); and then the page in headless Chromium
# (tests/web_browser.py): clicks, keys, undo/redo, the perfect game, a
# phone-sized screen, a Cram table, every shown value against query.
# SHOTS=DIR keeps the browser's screenshots there.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
PYTHON=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d /tmp/retrodb-web.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"
R=$RETRODB

for tool in curl jq; do
    command -v $tool > /dev/null || { echo "web: $tool is not installed (scripts/install-deps.sh installs it)" >&2; exit 1; }
done

# start DIR NAME: serve DIR on a free port; the URL in $url
start() {
    "$R" serve --dir "$1" --port 0 > "$T/$2.out" 2> "$T/$2.err" &
    pids+=($!)
    for _ in $(seq 100); do grep -qs http "$T/$2.out" && break; sleep 0.05; done
    url=$(grep -so 'http://[^ ]*' "$T/$2.out")
    [ -n "$url" ] || { bad "serve $1 did not start: $(cat "$T/$2.err")"; url=http://127.0.0.1:1/; }
}

# get PATH: the body in $body, the status in $code
get() {
    code=$(curl -s -o "$T/body" -w '%{http_code}' "${@:2}" "$url${1#/}")
    body=$(cat "$T/body")
}

# --- options ---
expect 2 'which database' -- $R serve
expect 2 "bad --port" -- $R serve --dir "$T/x" --port 70000
expect 2 "bad --bind" -- $R serve --dir "$T/x" --bind nowhere
expect 1 "" -- $R serve --dir "$T/nothing" --port 0

$R build dots 2x3 --dir "$T/d23" --quiet > /dev/null || bad "build 2x3"
$R build cram 3x4 --dir "$T/c34" --quiet > /dev/null || bad "build cram 3x4"

start "$T/d23" d23
case $url in http://127.0.0.1:*) ok ;; *) bad "serve does not listen on 127.0.0.1 by default: $url" ;; esac

# --- the API answers as query --json does, byte for byte ---
same() { # same QUERY-OPTIONS... -- URL-PATH
    local opts=() ; while [ "$1" != -- ]; do opts+=("$1"); shift; done; shift
    want=$($R query --dir "$T/d23" --json "${opts[@]}")
    get "$1"
    [ "$code" = 200 ] && [ "$body" = "$want" ] && ok || bad "GET $1 -> $code '$body', query says '$want'"
}
same --moves "" -- /api/query
same --moves "" -- "/api/query?moves="
moves=""
# a whole game, move by move: the best move each time
for i in $(seq 18); do
    enc=$(jq -rn --arg m "$moves" '$m|@uri')
    same --moves "$moves" -- "/api/query?moves=$enc"
    next=$(printf '%s' "$body" | jq -r '.best[0] // empty')
    [ -n "$next" ] || break
    moves="$moves${moves:+ }$next"
done
[ "$(printf '%s' "$body" | jq '.moves | length')" = 0 ] && ok || bad "the game did not end: $moves"
same --moves "h0,0 v0,0" --pv -- "/api/query?moves=h0%2C0+v0%2C0&pv=1"
same --moves "0 1 2" -- "/api/query?moves=0+1+2"
same --dbn 10000000000000000 -- "/api/query?dbn=10000000000000000"
printf '+-+-+-+\n|     \n+ + + +\n       \n+ + + +\n' > "$T/diagram"
want=$($R query --dir "$T/d23" --json "$T/diagram")
get "/api/query?position=$(jq -rn --rawfile d "$T/diagram" '$d|@uri')"
[ "$code" = 200 ] && [ "$body" = "$want" ] && ok || bad "a diagram: $code '$body' vs '$want'"

# /api/info: the board and its lines
get /api/info
[ "$code" = 200 ] && printf '%s' "$body" | jq -e '.game == "dots" and .rows == 2 and .cols == 3 and (.lines | length) == 17 and .lines[0] == "h0,0" and (.boxes | length) == 6 and .start == "00000000000000000"' > /dev/null && ok || bad "/api/info: $code $body"

# --- bad requests: a status and a JSON error, never a crash ---
err() { # err STATUS PATTERN PATH [curl options]
    get "$3" "${@:4}"
    if [ "$code" = "$1" ] && printf '%s' "$body" | jq -e '.error | type == "string"' > /dev/null &&
        printf '%s' "$body" | grep -q -- "$2"; then ok; else bad "GET $3 -> $code '$body', want $1 /$2/"; fi
}
err 400 "neither a line name" "/api/query?moves=zz"
err 400 "unknown parameter 'x'" "/api/query?x=1"
err 400 "given twice" "/api/query?moves=&moves="
err 400 "bad %-escape" "/api/query?moves=%2"
err 400 "bad %-escape" "/api/query?moves=%zz"
err 400 "NUL byte" "/api/query?moves=%00"
err 400 "one way" "/api/query?moves=&dbn=0"
err 400 "pv is 0 or 1" "/api/query?pv=2"
err 400 "for Cram" "/api/query?cells=0"
err 400 "" "/api/query?dbn=1"
err 400 "drawn already" "/api/query?moves=h0,0+h0,0"
err 404 "no such page" "/nothing"
err 404 "no such page" "/../../etc/passwd" --path-as-is
err 404 "no such page" "/web/index.html"
err 405 "read-only" "/api/query" -X POST -d 'moves=h0,0'
err 405 "read-only" "/" -X DELETE
err 400 "carries no body" "/api/info" -X GET --data x
# a method refused before its body is read: no "100 Continue", no upload
head -c 20000000 /dev/zero > "$T/big"
out=$(curl -s -H 'Expect: 100-continue' --data-binary @"$T/big" -w ' %{http_code} %{size_upload}' "${url}api/info")
case $out in *' 405 0') ok ;; *) bad "a POST of 20 MB with Expect: 100-continue: $out" ;; esac
rm -f "$T/big"
# a parameter's name %-encoded, and a target in the absolute form
same --moves "h0,0" -- "/api/query?%6D%6Fves=h0,0"
get "/" --request-target "http://127.0.0.1/api/info"
[ "$code" = 200 ] && printf '%s' "$body" | jq -e .rows > /dev/null && ok || bad "absolute-form target -> $code '$body'"
get "/api/query?moves=$(head -c 9000 /dev/zero | tr '\0' 'a')"
[ "$code" -ge 400 ] && [ "$code" -lt 500 ] && ok || bad "a 9000-byte request -> $code"
get "/api/query?moves=$(head -c 40000 /dev/zero | tr '\0' 'a')"
[ "$code" -ge 400 ] && [ "$code" -lt 500 ] && ok || bad "a 40000-byte request -> $code"
# the server is still there
same --moves "" -- /api/query
# the page's files, and HEAD
get /
[ "$code" = 200 ] && printf '%s' "$body" | grep -q '<script src="explorer.js">' && ok || bad "GET / -> $code"
code=$(curl -s -I -o /dev/null -w '%{http_code}' "$url")
[ "$code" = 200 ] && ok || bad "HEAD / -> $code"

# a database with a file missing, and one with a file damaged: an error
# in JSON (404: not held; 500: a file failed), and the server goes on
cp -r "$T/d23" "$T/broken"
rm -rf "$T/broken/6"
start "$T/broken" broken
err 404 "is missing" "/api/query?moves=h0,0+h0,1+h0,2+h1,0+h1,1"
for f in "$T/broken"/5/*.zst; do
    size=$(stat -c %s "$f")
    printf 'XXXXXXXXXXXXXXXX' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc status=none
done
get "/api/query?moves=h0,0+h0,1+h0,2+h1,0"
[ "$code" = 500 ] && printf '%s' "$body" | jq -e .error > /dev/null && ok || bad "a damaged file -> $code '$body'"
get "/api/query?moves=h0,0"
[ "$code" = 200 ] && ok || bad "after the damaged file the server answers $code"

# the page's folder: one given without the page is refused; a program with
# none beside it serves the API only, and says so
expect 2 "cannot open '/nonexistent/index.html'" -- $R serve --dir "$T/d23" --web /nonexistent --port 0
mkdir -p "$T/alone/bin" && cp "$R" "$T/alone/bin/retrodb"
"$T/alone/bin/retrodb" serve --dir "$T/d23" --port 0 > "$T/alone.out" 2> "$T/alone.log" &
alone=$!
for _ in $(seq 100); do grep -qs http "$T/alone.out" && break; sleep 0.05; done
url=$(grep -so 'http://[^ ]*' "$T/alone.out")
grep -q "serving the API only (give --web DIR)" "$T/alone.log" && ok || bad "no word of the missing page: $(cat "$T/alone.log")"
err 404 "no such page" "/"
get /api/info
[ "$code" = 200 ] && ok || bad "the API alone: $code"
kill -INT $alone; wait $alone

# --- a Cram table ---
start "$T/c34" c34
cram_url=$url
want=$($R query --dir "$T/c34" --json --moves "0,0-0,1")
get "/api/query?moves=0,0-0,1"
[ "$code" = 200 ] && [ "$body" = "$want" ] && ok || bad "cram: $code '$body' vs '$want'"
want=$($R query --dir "$T/c34" --json --board 2x3 --cells "0,0")
get "/api/query?board=2x3&cells=0,0"
[ "$code" = 200 ] && [ "$body" = "$want" ] && ok || bad "cram --board: $code '$body' vs '$want'"
err 400 "bad board" "/api/query?board=9x9"
err 400 "give cells" "/api/query?dbn=0"
err 400 "a 2x4 diagram, but board says 2x3" "/api/query?board=2x3&position=....%0A...."

# --- slow clients: forty from one address, each a byte every half second,
# are cut off at the deadline, and another client is answered all along ---
expect 2 "bad --request-seconds" -- $R serve --dir "$T/d23" --request-seconds 0
"$R" serve --dir "$T/d23" --port 0 --request-seconds 2 > "$T/slow.out" 2> "$T/slow.err" &
pids+=($!)
for _ in $(seq 100); do grep -qs http "$T/slow.out" && break; sleep 0.05; done
if out=$("$PYTHON" "$(dirname "$0")/serve_slow_clients.py" "$(grep -so 'http://[^ ]*' "$T/slow.out")" 2 2>&1); then
    ok
else
    bad "slow clients: $out"
fi

# --- the page in a browser ---
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && "$PYTHON" -c 'import selenium' 2> /dev/null; then
    $R build dots 3x3 --dir "$T/d33" --quiet > /dev/null || bad "build 3x3"
    start "$T/d33" d33
    dots_url=$url
    if "$PYTHON" "$(dirname "$0")/web_browser.py" "$R" "$dots_url" "$T/d33" "$cram_url" "$T/c34" ${SHOTS:+"$SHOTS"} > "$T/browser.log" 2>&1; then
        ok
    else
        bad "the browser test: $(grep -v '^#' "$T/browser.log" | tail -20)"
    fi
    tail -1 "$T/browser.log"
    # scripts/explorer_shot.py, which takes the 4x5 opening's picture:
    # a position's values checked against query, the picture written
    if "$PYTHON" "$(dirname "$0")/../scripts/explorer_shot.py" "$T/d33" "$T/shot.png" --moves "h0,0 v1,1" \
        --retrodb "$R" > "$T/shot.log" 2>&1 && [ -s "$T/shot.png" ]; then
        ok
    else
        bad "explorer_shot.py: $(tail -5 "$T/shot.log")"
    fi
else
    bad "chromium, chromium-driver or python3-selenium is missing (scripts/install-deps.sh installs them)"
fi

# every server stops on SIGINT with exit 0, and said nothing on stderr
# (under make sanitize: no sanitizer report, no leak)
for p in "${pids[@]}"; do
    kill -INT "$p" 2> /dev/null
    wait "$p" && ok || bad "a server exited $? on SIGINT"
done
pids=()
for e in "$T"/*.err; do
    [ -s "$e" ] && bad "$(basename "$e"): $(head -5 "$e")" || ok
done

echo "web: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
