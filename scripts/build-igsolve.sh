#!/bin/bash
# Builds igsolve (P. Beling's impartial-games solver, the yardstick of
# `make bench-cram IGSOLVE=...`) without crates.io: the Rust crates Debian
# packages come from apt (librust-*-dev, a cargo directory registry under
# /usr/share/cargo/registry), the others from git at fixed commits.
#
#   scripts/build-igsolve.sh DIR     # igsolve ends up as DIR/igsolve
#
# DIR/src/NAME holds each repository below; one that is missing is cloned
# from github.com (so a machine without GitHub access needs the clones put
# there first, at the commits below: a copy of any clone will do). Needs
# root for apt-get, cargo and rustc (1.70 or later), and takes a few
# minutes. Nothing in igsolve or its libraries is changed: only ph's
# default features are turned off (they need crates Debian lacks, sux and
# mem_dbg, which igs does not use), and the optional dependencies igs
# names but does not build (superslice, nauty-Traces-sys) are cloned only
# so that cargo can resolve them.
set -euo pipefail

if [ $# -ne 1 ] || [ "${1:0:1}" = - ]; then
    sed -n '2,/^set -eu/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
mkdir -p "$1"
B=$(cd "$1" && pwd)
S=$B/src

# NAME OWNER/REPOSITORY COMMIT: the crates taken from git
REPOS="impartial-games beling/impartial-games 07a34e68e2f298d2bb8905167d61777cdbdfb9cf
bsuccinct-rs beling/bsuccinct-rs eeedbce79d01a441b365248fe8179556ef9f4a78
wyhash eldruin/wyhash-rs 0052134664c9259a590f3fa6c3a62bb1b5bf737d
voracious_sort lakwet/voracious_sort 4385d5a4ee9f4f4d89a7b0e1bbf6d99e459ae4c6
cpu-time tailhook/cpu-time d36927e013565bd3cf1a06813e45e764558cf30a
co_sort leudz/co_sort 09ceeac082a6a26a0c279a14717ebc257875598b
rayon rayon-rs/rayon 7543ed40c9a017dee32b3dc72b3ae819820e8366
superslice alkis/superslice-rs 3dac9f39997028ef43e58facba4dccd82332303c
nauty-Traces-sys a-maier/nauty-Traces-sys 3d990c3642030dcac98c21b6dff3620af1dabf94"

# Debian's crates: clap 4 for igsolve, arrayvec and rayon's own
# dependencies; lru, bindgen (with clap 3, env_logger, which), num-integer
# and cc only for resolving igs's optional dependencies.
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends \
    librust-clap-dev librust-arrayvec-dev librust-rayon-dev librust-rand-core-dev \
    librust-libc-dev librust-winapi-dev librust-maplit-dev \
    librust-lru-dev librust-bindgen-dev librust-num-integer-dev librust-cc-dev \
    librust-clap-3-dev librust-env-logger-dev librust-which-dev 'librust-bindgen+default-dev' > /dev/null

mkdir -p "$S"
while read -r name repo commit; do
    if [ ! -d "$S/$name/.git" ]; then
        rm -rf "${S:?}/$name"
        git clone -q "https://github.com/$repo" "$S/$name"
    fi
    git -C "$S/$name" checkout -q --force "$commit"
done <<< "$REPOS"

# ph's defaults (aligned-vec, sux) off; the rest as published
sed -i 's/^default = \["aligned-vec", "sux"\]$/default = []/' "$S/bsuccinct-rs/ph/Cargo.toml"
grep -q '^default = \[\]$' "$S/bsuccinct-rs/ph/Cargo.toml"

# crates.io replaced by Debian's registry, the git crates patched in
mkdir -p "$B/.cargo"
cat > "$B/.cargo/config.toml" << EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true

[patch.crates-io]
ph = { path = "$S/bsuccinct-rs/ph" }
csf = { path = "$S/bsuccinct-rs/csf" }
bitm = { path = "$S/bsuccinct-rs/bitm" }
binout = { path = "$S/bsuccinct-rs/binout" }
dyn_size_of = { path = "$S/bsuccinct-rs/dyn_size_of" }
seedable_hash = { path = "$S/bsuccinct-rs/seedable_hash" }
wyhash = { path = "$S/wyhash" }
voracious_radix_sort = { path = "$S/voracious_sort" }
cpu-time = { path = "$S/cpu-time" }
co_sort = { path = "$S/co_sort" }
rayon = { path = "$S/rayon" }
rayon-core = { path = "$S/rayon/rayon-core" }
superslice = { path = "$S/superslice" }
nauty-Traces-sys = { path = "$S/nauty-Traces-sys" }
EOF

cd "$S/impartial-games"
CARGO_TARGET_DIR="$B/target" RUSTFLAGS="-C target-cpu=native" \
    cargo build --release -j "$(nproc)" -p igsolve
cp "$B/target/release/igsolve" "$B/igsolve"
echo "built $B/igsolve: $("$B/igsolve" cram 4 5 | grep 'Nimber of initial position')"
