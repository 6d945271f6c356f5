#!/bin/sh
# Install the Debian packages retrodb needs to build and test (libzstd-dev,
# check, pkg-config; gcc's OpenMP comes with gcc; g++ and mandoc for the
# test of the installed library, which builds a C++ program against it and
# lints the man pages; jq, with which the tests read the JSON the program
# writes; libedit-dev, for line editing in `retrodb play`, which builds
# without it too; libxml2-utils, librsvg2-bin and python3, with which
# tests/svg.sh checks, renders and reads the pictures of query --svg;
# python3-numpy, python3-pytest, python3-pip and python3-setuptools, with
# which the Python package installs and is tested offline; libmicrohttpd-dev,
# the HTTP server of `retrodb serve`, and curl, chromium, chromium-driver
# and python3-selenium, with which tests/web.sh asks its API and drives its
# page in a headless browser; strace, with which tests/cram_cli.sh counts
# how often the program starts itself). With
# --fuzz, also clang
# and its sanitizer runtime, which `make fuzz` and `make fuzz-smoke` need;
# with --mpi, also Open MPI, which `make mpi` and `make check-mpi` need;
# with --clang, clang and LLVM's OpenMP, for a build with `make CC=clang
# BUILD=build-clang BIN=bin-clang` (the quiet build 3% faster:
# docs/building.md).
# Does nothing when they are all present. Runs apt-get as root, or through
# sudo when available.
set -eu

packages="libzstd-dev check pkg-config gcc make g++ mandoc jq libedit-dev libxml2-utils librsvg2-bin python3
python3-numpy python3-pytest python3-pip python3-setuptools
libmicrohttpd-dev curl chromium chromium-driver python3-selenium strace"
case "${1:-}" in
--fuzz) packages="$packages clang libclang-rt-dev" ;;
--mpi) packages="$packages libopenmpi-dev openmpi-bin" ;;
--clang) packages="$packages clang libomp-dev" ;;
esac

need=""
for pkg in $packages; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        need="$need $pkg"
    fi
done
[ -z "$need" ] && exit 0

echo "installing:$need" >&2
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-deps: need root to install:$need" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $need >/dev/null
