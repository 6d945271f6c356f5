#!/bin/bash
# docs_examples.sh — runs every example of README.md and docs/*.md as a
# reader would type it, in order, in a scratch folder that holds bin/,
# scripts/ and a copy of data/ (so that an example writing into data/
# writes into the copy), and a pos.txt (the empty 3x3 board) for the
# examples that name one.
#
# An example is a line of an indented code block that starts with
# bin/retrodb or scripts/, or pipes into bin/retrodb (printf ... |
# bin/retrodb ...; a trailing backslash joins the next line); and every
# ```python block, run with the Python package installed offline into the
# scratch folder (as tests/python.sh installs it). Each must exit 0 within
# EXAMPLE_SECONDS (300). A line marked "(long)" in its comment runs only
# with --long (make check-long); one marked "(not run" never does (a
# cluster, days of computing), and says why beside it.
#
# usage: tests/docs_examples.sh [--long]   (RETRODB, SHLIB, PYTHON from make)
# Prints "docs examples: N passed, N failed, N long, N not run"; exits
# non-zero on any failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RETRODB=$(realpath "${RETRODB:-$ROOT/bin/retrodb}")
SHLIB=${SHLIB:-}
PYTHON=${PYTHON:-/usr/bin/python3}
LONG=0
[ "${1:-}" = --long ] && LONG=1
EXAMPLE_SECONDS=${EXAMPLE_SECONDS:-300}
T=$(mktemp -d /tmp/retrodb-docs.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$ROOT/tests/cli_lib.sh"

W=$T/work
mkdir -p "$W/bin"
ln -s "$RETRODB" "$W/bin/retrodb"
ln -s "$ROOT/scripts" "$W/scripts"
cp -r "$ROOT/data" "$W/data"
printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' > "$W/pos.txt"

# the Python package, installed as a user installs it, when the shared
# library is at hand
pypath=""
if [ -n "$SHLIB" ]; then
    cp -r "$ROOT/python" "$T/pysrc"
    rm -rf "$T/pysrc/build" "$T/pysrc"/*.egg-info "$T/pysrc/retrodb/_lib"
    mkdir -p "$T/pysrc/retrodb/_lib" && cp "$SHLIB" "$T/pysrc/retrodb/_lib/libretrodb.so"
    if "$PYTHON" -m pip install --quiet --no-build-isolation --no-index --no-deps \
        --target "$T/site" "$T/pysrc" > "$T/pip.log" 2>&1; then
        pypath=$T/site
    else
        bad "pip install of the Python package: $(cat "$T/pip.log")"
    fi
fi

# The examples of one page, one a record: "sh<TAB>command" or
# "py<TAB>file" (a python block written to a file), NUL-separated.
extract() {
    "$PYTHON" - "$1" "$T" <<'EOF'
import re, sys
path, tmp = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
out, i, nblock = [], 0, 0
command = re.compile(r"^(bin/retrodb |scripts/|(printf|echo) .*\| *bin/retrodb )")
while i < len(lines):
    line = lines[i]
    if line.strip() == "```python":
        j = i + 1
        while lines[j].strip() != "```":
            j += 1
        nblock += 1
        name = f"{tmp}/{path.replace('/', '_')}-{nblock}.py"
        open(name, "w").write("\n".join(lines[i + 1:j]) + "\n")
        out.append(f"py\t{name}\t{path}:{i + 1}")
        i = j + 1
        continue
    if line.startswith("    ") and command.match(line[4:]):
        start = i
        text = line[4:]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i].strip()
        out.append(f"sh\t{text}\t{path}:{start + 1}")
    i += 1
sys.stdout.write("\0".join(out) + ("\0" if out else ""))
EOF
}

long=0 skipped=0
for page in README.md docs/building.md docs/looking-up.md docs/solving.md docs/cram.md \
    docs/scaling-out.md docs/library.md docs/files.md docs/internals.md docs/values.md \
    docs/development.md; do
    [ -f "$ROOT/$page" ] || { bad "$page is missing"; continue; }
    while IFS=$'\t' read -r -d '' kind text where; do
        if [ "$kind" = sh ]; then
            case $text in
            *"(not run"*) skipped=$((skipped + 1)); continue ;;
            *"(long)"*) [ $LONG = 1 ] || { long=$((long + 1)); continue; } ;;
            esac
            if (cd "$W" && timeout "$EXAMPLE_SECONDS" bash -c "$text" < /dev/null > "$T/out" 2>&1); then
                ok
            else
                bad "$where: '$text' failed: $(tail -5 "$T/out")"
            fi
        else
            if [ -z "$pypath" ]; then
                skipped=$((skipped + 1))
                continue
            fi
            if (cd "$W" && PYTHONPATH=$pypath timeout "$EXAMPLE_SECONDS" "$PYTHON" "$text" > "$T/out" 2>&1); then
                ok
            else
                bad "$where: the python block failed: $(tail -5 "$T/out")"
            fi
        fi
    done < <(extract "$ROOT/$page")
done
echo "docs examples: $pass passed, $fail failed, $long long (make check-long), $skipped not run"
[ "$fail" -eq 0 ]
