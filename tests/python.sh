#!/bin/bash
# python.sh — the Python package (python/) installed as a user installs it
# (pip, offline, without build isolation, with Debian's setuptools) into a
# scratch folder, with the shared library copied in, and tested there with
# pytest against the command-line tool (python/tests). Prints pytest's
# summary; exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
SHLIB=${SHLIB:?the shared library to bundle}
PYTHON=${PYTHON:-/usr/bin/python3}
T=$(mktemp -d /tmp/retrodb-python.XXXXXX)
trap 'rm -rf "$T"' EXIT
# make python installs into the active virtual environment when there is
# one, and never tells its pip to break the system's packages then
line=$(make -s -n python VIRTUAL_ENV=/opt/some-venv 2>/dev/null | grep 'pip install')
case $line in
/opt/some-venv/bin/python\ *) case $line in *break-system-packages*) bad=1 ;; *) bad=0 ;; esac ;;
*) bad=1 ;;
esac
[ "$bad" = 0 ] || { echo "FAIL: make python in a virtual environment runs: $line" >&2; exit 1; }
cp -r python "$T/src"
# only the sources: a build folder of an earlier install would be taken as up to date
rm -rf "$T/src/build" "$T/src"/*.egg-info
rm -rf "$T/src/retrodb/_lib" && mkdir -p "$T/src/retrodb/_lib"
cp "$SHLIB" "$T/src/retrodb/_lib/libretrodb.so"
"$PYTHON" -m pip install --quiet --no-build-isolation --no-index --no-deps --target "$T/site" "$T/src" \
    > "$T/pip.log" 2>&1 || { cat "$T/pip.log"; echo "FAIL: pip install" >&2; exit 1; }
[ -f "$T/site/retrodb/_lib/libretrodb.so" ] || { echo "FAIL: the library was not installed" >&2; exit 1; }
# pip install from a source tree without the library builds it first
# (python/setup.py asks the tree's Makefile for `python-lib`; a stand-in
# Makefile here copies the library already built, as the real one would)
mkdir -p "$T/tree"
cp -r python "$T/tree/python"
rm -rf "$T/tree/python/build" "$T/tree/python"/*.egg-info "$T/tree/python/retrodb/_lib"
printf 'python-lib:\n\tmkdir -p python/retrodb/_lib && cp %s python/retrodb/_lib/libretrodb.so\n' \
    "$(realpath "$SHLIB")" > "$T/tree/Makefile"
"$PYTHON" -m pip install --no-build-isolation --no-index --no-deps --target "$T/site-tree" "$T/tree/python" \
    > "$T/pip-tree.log" 2>&1 || { cat "$T/pip-tree.log"; echo "FAIL: pip install ./python without the library" >&2; exit 1; }
[ -f "$T/site-tree/retrodb/_lib/libretrodb.so" ] ||
    { cat "$T/pip-tree.log"; echo "FAIL: pip install ./python did not build the library into the package" >&2; exit 1; }
# and outside a source tree it stops, saying why, instead of installing a package that cannot load
mkdir -p "$T/alone" && cp -r "$T/src" "$T/alone/python" && rm -rf "$T/alone/python/retrodb/_lib"
if "$PYTHON" -m pip install --no-build-isolation --no-index --no-deps --target "$T/site-alone" "$T/alone/python" \
    > "$T/pip-alone.log" 2>&1 || ! grep -q "no retrodb source tree" "$T/pip-alone.log"; then
    cat "$T/pip-alone.log"; echo "FAIL: pip install of the package alone, without the library" >&2; exit 1
fi
# the installed copy, not the source tree
cd "$T" && RETRODB=$(cd "$OLDPWD" && realpath "$RETRODB") PYTHONPATH="$T/site" \
    "$PYTHON" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests"
