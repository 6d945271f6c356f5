#!/bin/bash
# The installed library as a program outside the source tree sees it:
# `make install` into a temporary DESTDIR with PREFIX=/usr puts exactly the
# expected files; the shared and the static library export only the
# functions the public headers declare, all named rdb_*; each header
# compiles on its own in C and C++; examples/probe.c and examples/probe.cpp,
# built with nothing but `pkg-config --cflags --libs retrodb` (and --static
# once), probe a database and agree with `retrodb query --json` on every
# move of a few positions; the installed program runs the build for the
# best x86-64 level the processor has (RETRODB_CPU picks one), and every
# level gives the checksums of data/checksums/; the loader picks the
# library's build for the level too; the man pages lint clean; `make
# uninstall` leaves no file behind.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
RETRODB=${RETRODB:-bin/retrodb}
MAKE=${MAKE:-make}
CC=${CC:-cc}
CXX=${CXX:-c++}
T=$(mktemp -d /tmp/retrodb-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
. tests/cli_lib.sh

root=$T/root
usr=$root/usr
version=$(sed -n 's/^#define RETRODB_VERSION "\(.*\)"$/\1/p' include/retrodb/version.h)
major=${version%%.*}

# run LOG command...: run quietly, show the output when it fails
run() {
    local log=$1
    shift
    "$@" > "$log" 2>&1 && return 0
    echo "FAIL: $*:" >&2
    sed 's/^/  /' "$log" >&2
    return 1
}

if ! run "$T/install.log" $MAKE --no-print-directory install DESTDIR="$root" PREFIX=/usr; then
    echo "install: make install failed"
    exit 1
fi

# ---- the files, exactly ----
{
    echo usr/bin/retrodb
    [ -x bin/retrodb-mpi ] && echo usr/bin/retrodb-mpi
    for h in include/retrodb/*.h; do echo "usr/$h"; done
    echo usr/lib/libretrodb.a
    echo usr/lib/libretrodb.so
    echo "usr/lib/libretrodb.so.$major"
    echo "usr/lib/libretrodb.so.$version"
    echo usr/lib/pkgconfig/retrodb.pc
    for w in web/*.html web/*.js web/*.css; do echo "usr/share/retrodb/$w"; done
    for l in x86-64-v3 x86-64-v4; do
        echo "usr/libexec/retrodb/retrodb-$l"
        echo "usr/lib/glibc-hwcaps/$l/libretrodb.so.$major"
        echo "usr/lib/glibc-hwcaps/$l/libretrodb.so.$version"
    done
    for m in man/*.1 man/*.3; do
        [ -e "$m" ] && echo "usr/share/man/man${m##*.}/${m#man/}"
    done
} | sort > "$T/want"
(cd "$root" && find . ! -type d | sed 's|^\./||' | sort) > "$T/got"
if diff "$T/want" "$T/got" > "$T/diff"; then ok; else bad "installed files differ: $(cat "$T/diff")"; fi
[ "$(readlink "$usr/lib/libretrodb.so")" = "libretrodb.so.$major" ] &&
    [ "$(readlink "$usr/lib/libretrodb.so.$major")" = "libretrodb.so.$version" ] &&
    ok || bad "the libretrodb.so links do not lead to libretrodb.so.$version"
so=$usr/lib/libretrodb.so.$version
soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = "libretrodb.so.$major" ] && ok || bad "soname '$soname', not libretrodb.so.$major"

# ---- exported symbols: the public API and nothing else ----
sed -n 's/^RDB_API .*[ *]\(rdb_[a-z0-9_]*\)(.*/\1/p' "$usr"/include/retrodb/*.h | sort > "$T/declared"
nm -D --defined-only "$so" | awk '{print $NF}' | sort > "$T/so_syms"
nm -g --defined-only "$usr/lib/libretrodb.a" | awk 'NF == 3 {print $3}' | sort > "$T/a_syms"
n=$(wc -l < "$T/declared")
[ "$n" -ge 17 ] && ok || bad "only $n RDB_API functions found in the installed headers"
for lib in so a; do
    stray=$(grep -v '^rdb_' "$T/${lib}_syms")
    [ -z "$stray" ] && ok || bad "libretrodb.$lib exports symbols without the rdb_ prefix:" $stray
    if diff "$T/declared" "$T/${lib}_syms" > "$T/diff"; then
        ok
    else
        bad "libretrodb.$lib: exported (>) and declared RDB_API (<) differ: $(cat "$T/diff")"
    fi
done

# ---- programs built with pkg-config alone ----
export PKG_CONFIG_PATH=$usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
[ "$(pkg-config --modversion retrodb)" = "$version" ] && ok || bad "pkg-config --modversion retrodb"
cflags=$(pkg-config --cflags retrodb)
libs=$(pkg-config --libs retrodb)
static=$(pkg-config --static --libs retrodb)
# each header on its own, in strict C and C++ (the declaration after it
# keeps a header of macros alone from being an empty unit)
for h in "$usr"/include/retrodb/*.h; do
    inc="#include <retrodb/${h##*/}>"
    # shellcheck disable=SC2086
    printf '%s\nint unit;\n' "$inc" | $CC -std=c99 -Wall -Wextra -pedantic -Werror $cflags -fsyntax-only -x c - &&
        printf '%s\nint unit;\n' "$inc" | $CXX -std=c++11 -Wall -Wextra -pedantic -Werror $cflags -fsyntax-only \
            -x c++ - && ok || bad "$inc does not compile on its own"
done
built=1
# shellcheck disable=SC2086
run "$T/cc.log" $CC -std=c99 -Wall -Wextra -pedantic -Werror examples/probe.c $cflags $libs \
    -o "$T/probe_c" || built=0
# shellcheck disable=SC2086
run "$T/cxx.log" $CXX -std=c++11 -Wall -Wextra -pedantic -Werror examples/probe.cpp $cflags $libs \
    -o "$T/probe_cpp" || built=0
# glibc warns that a static program using dlopen (libgomp does) needs the
# shared libc at run time; the program runs all the same
# shellcheck disable=SC2086
run "$T/static.log" $CC -static -std=c99 examples/probe.c $cflags $static -o "$T/probe_static" ||
    built=0
if [ "$built" -eq 0 ]; then
    bad "the examples do not build against the installed tree"
    echo "install: $pass passed, $fail failed"
    exit 1
fi
ok
objdump -p "$T/probe_c" | grep -q "NEEDED *libretrodb.so.$major\$" && ok ||
    bad "probe_c is not linked to libretrodb.so.$major"
objdump -p "$T/probe_static" | grep -q "NEEDED" && bad "probe_static needs shared libraries" || ok
export LD_LIBRARY_PATH=$usr/lib

# ---- the examples against retrodb query ----
if ! run "$T/build.log" "$RETRODB" build dots 2x3 --dir "$T/db" --quiet; then
    bad "cannot build the 2x3 database"
    echo "install: $pass passed, $fail failed"
    exit 1
fi

# query_text FILE: `retrodb query --json` of the diagram in FILE, written
# as the examples write it ("value V", then "LINE V" per open line)
query_text() {
    local json
    json=$("$RETRODB" query --dir "$T/db" --json "$1") || return 1
    printf '%s' "$json" | sed 's/,"moves".*//' | grep -o '"value":-\{0,1\}[0-9]*' |
        sed 's/"value":/value /'
    printf '%s' "$json" | grep -o '"line":"[^"]*","value":-\{0,1\}[0-9]*' |
        sed 's/"line":"\([^"]*\)","value":/\1 /'
}

# check NAME NAMES OPEN DIAGRAM: the position as names and as a diagram
# with OPEN lines open: every program gives query's answer
check() {
    local name=$1 names=$2 open=$3 diagram=$4
    printf '%s\n' "$diagram" > "$T/$name.txt"
    local want
    # (query lists the moves best first, the examples in line order: both sorted)
    want=$(query_text "$T/$name.txt" | sort)
    if [ "$(printf '%s\n' "$want" | wc -l)" -ne $((open + 1)) ]; then
        bad "$name: query --json gave not $open moves: $want"
        return
    fi
    local prog got
    for prog in "probe_c $names" "probe_cpp $names" "probe_static $names" \
                "probe_c -f $T/$name.txt" "probe_cpp -f $T/$name.txt"; do
        # shellcheck disable=SC2086
        got=$("$T/${prog%% *}" "$T/db" ${prog#* } | sort)
        [ "$got" = "$want" ] && ok || bad "$name: $prog gives '$got', query '$want'"
    done
}
check empty "" 17 '+ + + +

+ + + +

+ + + +'
check two "h0,0 v1,2" 15 '+-+ + +

+ + + +
    |
+ + + +'
# a box with three sides: drawing its fourth completes it (1 + what follows)
check three "h0,0 h1,0 v0,0" 14 '+-+ + +
|
+-+ + +

+ + + +'

# bad input: exit 2 naming the name; no database: exit 1
for prog in probe_c probe_cpp; do
    expect 2 "'h9,9' is not a line of the 2x3 board" -- "$T/$prog" "$T/db" h0,0 h9,9
    expect 2 'line v1,2 is named twice' -- "$T/$prog" "$T/db" v1,2 v1,2
    printf '+-+ + +\n\n+ x + +\n\n+ + + +\n' > "$T/bad.txt"
    expect 2 'bad.txt: line 3, column 3' -- "$T/$prog" "$T/db" -f "$T/bad.txt"
    expect 1 'no such folder' -- "$T/$prog" "$T/nothing"
done

# ---- one program for any x86-64: each level it can run, the same values ----
# the baseline build uses no AVX, AVX-512 nor BMI2 instruction
if command -v objdump > /dev/null; then
    n=$(objdump -d "$usr/bin/retrodb" | grep -c -E '%[yz]mm|pext|pdep')
    [ "$n" = 0 ] && ok || bad "the x86-64 build of retrodb has $n AVX or BMI2 instructions"
fi
levels="x86-64"
grep -q -w bmi2 /proc/cpuinfo && grep -q -w avx2 /proc/cpuinfo && levels="$levels x86-64-v3"
grep -q -w avx512bw /proc/cpuinfo && grep -q -w avx512vl /proc/cpuinfo && levels="$levels x86-64-v4"
best=${levels##* }
want="retrodb $version"
[ "$best" != x86-64 ] && want="$want ($best)"
[ "$("$usr/bin/retrodb" --version)" = "$want" ] && ok || bad "the installed retrodb runs '$("$usr/bin/retrodb" --version)', want '$want'"
for l in $levels; do
    want="retrodb $version"
    [ "$l" != x86-64 ] && want="$want ($l)"
    got=$(RETRODB_CPU=$l "$usr/bin/retrodb" --version 2>&1)
    [ "$got" = "$want" ] && ok || bad "RETRODB_CPU=$l: '$got', want '$want'"
    if RETRODB_CPU=$l RETRODB="$usr/bin/retrodb" bash scripts/checksums.sh > "$T/sums-$l.log" 2>&1; then
        ok
    else
        bad "RETRODB_CPU=$l: checksums differ: $(tail -5 "$T/sums-$l.log")"
    fi
done
expect 0 'RETRODB_CPU=bogus is not' -- env RETRODB_CPU=bogus "$usr/bin/retrodb" --version
# the loader takes the library built for the best level
if [ "$best" != x86-64 ]; then
    # (the program has the library linked in: load the shared one by itself)
    LD_LIBRARY_PATH=$usr/lib LD_DEBUG=libs python3 -c 'import ctypes; ctypes.CDLL("libretrodb.so.'"$major"'")' 2> "$T/ld.log"
    grep -q "calling init: $usr/lib/glibc-hwcaps/$best/libretrodb.so.$major" "$T/ld.log" && ok ||
        bad "the loader did not take glibc-hwcaps/$best: $(grep retrodb "$T/ld.log" | head -3)"
fi

# ---- the installed program finds its explorer page ----
if command -v curl > /dev/null; then
    "$usr/bin/retrodb" build dots 2x2 --dir "$T/web22" --quiet > /dev/null || bad "build 2x2"
    "$usr/bin/retrodb" serve --dir "$T/web22" --port 0 > "$T/serve.out" 2> "$T/serve.err" &
    spid=$!
    for _ in $(seq 50); do grep -qs http "$T/serve.out" && break; sleep 0.1; done
    url=$(grep -o 'http://[^ ]*' "$T/serve.out")
    curl -s "$url" | grep -q 'retrodb explorer' && ok ||
        bad "the installed serve did not serve its page: $(cat "$T/serve.err")"
    kill -INT $spid; wait $spid
else
    bad "curl is not installed (scripts/install-deps.sh installs it)"
fi

# ---- the man pages ----
if command -v mandoc > /dev/null; then
    for m in man/*.1 man/*.3; do
        [ -e "$m" ] || continue
        out=$(mandoc -T lint -W warning "$m" 2>&1) && [ -z "$out" ] && ok || bad "mandoc -T lint $m: $out"
    done
else
    bad "mandoc is not installed (scripts/install-deps.sh installs it)"
fi

# ---- uninstall ----
if run "$T/uninstall.log" $MAKE --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr; then
    left=$(cd "$root" && find . ! -type d)
    [ -z "$left" ] && ok || bad "make uninstall left:" $left
else
    bad "make uninstall failed"
fi

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
