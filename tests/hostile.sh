#!/bin/bash
# Hostile options and files, odd files in a database folder, and damage a
# resume must see: what a user or another program can do to a database,
# and the exit code and message each gets (2: the user typed something
# wrong; 1: a file or the system failed). Every case keeps finished work.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-hostile.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

# per-level checksums, as scripts/checksums.sh records them
checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }
# a file of the tree under $1 (a listing that shows any file added or lost)
tree() { (cd "$1" && find . | LC_ALL=C sort); }
# flip one byte in the middle of a file
flip_middle() {
    python3 - "$1" <<'EOF'
import sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
d[len(d) // 2] ^= 0x40
open(p, 'wb').write(bytes(d))
EOF
}
empty22='+ + +

+ + +

+ + +'
query22() { printf '%s\n' "$empty22" | "$RETRODB" query --dir "$1"; }

"$RETRODB" build dots 2x2 --dir "$T/ref22" --quiet || bad "build 2x2"
"$RETRODB" build dots 3x3 --dir "$T/ref33" --quiet || bad "build 3x3"

# ---- long folder names: refused whole, never cut short ----
long=$T/long
for i in $(seq 18); do long=$long/$(printf 'd%.0s' $(seq 200)); done
mkdir -p "$long" "$T/long-parent-before"
expect 0 '' -- "$RETRODB" build dots 2x2 --dir "$long/db" --quiet
expect 0 '+2' -- query22 "$long/db"
[ "$(checksums "$long/db")" = "$(checksums "$T/ref22")" ] && ok || bad "2x2 in a long folder differs"
before=$(tree "$T")
toolong=$long/$(printf 'e%.0s' $(seq 200))
expect 2 'folder name is too long' -- "$RETRODB" build dots 2x2 --dir "$toolong" --quiet
expect 2 'folder name is too long' -- "$RETRODB" build cram 3x3 --dir "$toolong" --quiet
expect 2 'folder name is too long' -- "$RETRODB" build dots --problem data/problems/penalty-3x3.txt --dir "$toolong" --quiet
[ "$before" = "$(tree "$T")" ] && ok || bad "a refused long folder name left files"
mkdir -p "$toolong" && cp -r "$T/ref22/." "$toolong/"
expect 2 'too long' -- query22 "$toolong"

# ---- only a build's own files are removed, after its lock and PARAMS ----
cp -r "$T/ref22" "$T/own"
mkdir -p "$T/own/nested/0" "$T/own/3/x"
for f in notes.tmp nested/0/0.zst.77.tmp 3/x/0.zst.77.tmp 0/other.tmp 0/0.zst.tmp PARAMS.x.tmp; do
    echo keep > "$T/own/$f"
done
echo ours > "$T/own/0/0.zst.4242.tmp"
echo ours > "$T/own/PARAMS.4242.tmp"
expect 2 'other parameters' -- "$RETRODB" build dots 3x3 --dir "$T/own" --quiet
[ -e "$T/own/0/0.zst.4242.tmp" ] && [ -e "$T/own/PARAMS.4242.tmp" ] && ok ||
    bad "a refused build removed files"
expect 0 '' -- "$RETRODB" build dots 2x2 --dir "$T/own" --quiet
[ ! -e "$T/own/0/0.zst.4242.tmp" ] && [ ! -e "$T/own/PARAMS.4242.tmp" ] && ok ||
    bad "a resumed build kept a killed build's temporary files"
for f in notes.tmp nested/0/0.zst.77.tmp 3/x/0.zst.77.tmp 0/other.tmp 0/0.zst.tmp PARAMS.x.tmp; do
    [ -e "$T/own/$f" ] && ok || bad "a build removed $f, not its own"
done
# a level no longer kept goes, but a file it did not write stays, with its folder
mkdir -p "$T/keep/12"
echo mine > "$T/keep/12/readme.txt"
expect 0 '' -- "$RETRODB" build dots 2x2 --dir "$T/keep" --keep-lines 4 --quiet
[ -e "$T/keep/12/readme.txt" ] && [ -z "$(find "$T/keep/12" "$T/keep/11" -name '*.zst' 2>/dev/null)" ] &&
    [ ! -e "$T/keep/11" ] && ok ||
    bad "--keep-lines removed a file it did not write, or kept a level"
expect 0 '+2' -- query22 "$T/keep"

# ---- a manifest's counts are checked before any use ----
cp -r "$T/ref22" "$T/man"
printf 'deleted 0\ndeleted 64\ndeleted 4294967297\nslice 4294967296 0 1 0 0 0\nslice 99 0 1 0 0 0\n' \
    >> "$T/man/MANIFEST"
expect 0 '' -- "$RETRODB" verify --dir "$T/man" --full
expect 0 'levels      13 of 13 done' -- "$RETRODB" status --dir "$T/man"
flip_middle "$T/man/0/0.zst"
expect 1 'bad:' -- "$RETRODB" verify --dir "$T/man" --full

# ---- PARAMS: every reader and every resume refuse the same files ----
for edit in 's/^groups .*/groups 0/' 's/^groups .*/groups 17/' 's/^board .*/board 4294967298x2/' \
    's/^full-value .*/full-value 4294967296/' 's/^zstd-level .*/zstd-level 99/' \
    's/^start .*/start -1/'; do
    rm -rf "$T/params" && cp -r "$T/ref22" "$T/params"
    sed -i "$edit" "$T/params/PARAMS"
    sums=$(cd "$T/params" && find . -name '*.zst' | LC_ALL=C sort | xargs md5sum)
    expect 1 'PARAMS' -- query22 "$T/params"
    expect 1 'PARAMS' -- "$RETRODB" build dots 2x2 --dir "$T/params" --quiet
    [ "$sums" = "$(cd "$T/params" && find . -name '*.zst' | LC_ALL=C sort | xargs md5sum)" ] && ok ||
        bad "a build on a damaged PARAMS ($edit) changed slice files"
done

# ---- PARAMS relabelled: another number of groups (full and quiet), a
# variant's name over another start: every reader refuses, none passes ----
"$RETRODB" build dots 2x3 --store quiet --dir "$T/q23" --quiet || bad "build 2x3 quiet"
"$RETRODB" build dots 2x2 --variant swedish --dir "$T/s22" --quiet || bad "build 2x2 swedish"
for case in "ref22 s/^groups .*/groups 3/" "q23 s/^groups .*/groups 3/" "s22 s/^variant .*/variant empty/" \
    "ref22 s/^variant .*/variant icelandic/"; do
    rm -rf "$T/relabel" && cp -r "$T/${case%% *}" "$T/relabel"
    sed -i "${case#* }" "$T/relabel/PARAMS"
    expect 1 'PARAMS' -- "$RETRODB" verify --dir "$T/relabel"
    expect 1 'PARAMS' -- "$RETRODB" status --dir "$T/relabel"
    expect 1 'PARAMS' -- query22 "$T/relabel"
done

# ---- numbers that would wrap ----
expect 2 'bad board' -- "$RETRODB" build dots 4294967298x2 --dir "$T/x" --quiet
expect 2 'bad board' -- "$RETRODB" build cram 4294967299x3 --dir "$T/x" --quiet
expect 2 'bad board' -- "$RETRODB" solve cram 4294967298x2
expect 2 'bad --memory' -- "$RETRODB" build dots 2x2 --memory 99999999999999999999 --dir "$T/x"
expect 2 'bad --disk' -- "$RETRODB" build dots 2x2 --disk inf --dir "$T/x"
expect 2 'bad --disk' -- "$RETRODB" build dots 2x2 --disk 1e999 --dir "$T/x"
expect 2 'bad --threads' -- "$RETRODB" build dots 2x2 --threads 4294967297 --dir "$T/x"
[ ! -e "$T/x" ] && ok || bad "a refused option created the database folder"

# ---- the right party blamed ----
cram_pos='....
....
....'
expect 1 'no such folder' -- sh -c "printf '%s\n' '$cram_pos' | '$RETRODB' query --dir '$T/none'"
mkdir -p "$T/empty"
expect 1 'no PARAMS' -- sh -c "printf '%s\n' '$cram_pos' | '$RETRODB' query --dir '$T/empty'"
"$RETRODB" build cram 3x4 --dir "$T/cram" --quiet || bad "build cram 3x4"
cp -r "$T/cram" "$T/cram-bad" && echo "garbage" > "$T/cram-bad/PARAMS"
expect 1 'PARAMS' -- sh -c "printf '%s\n' '$cram_pos' | '$RETRODB' query --dir '$T/cram-bad'"
expect 2 'is a file, not a database folder' -- query22 "$T/ref22/PARAMS"
expect 2 'is a folder' -- "$RETRODB" query --dir "$T/ref22" "$T/ref22"
expect 2 'is a file' -- "$RETRODB" build dots 2x2 --dir "$T/ref22/PARAMS" --quiet
expect 2 'is a folder' -- "$RETRODB" solve cram --position "$T/cram"

# ---- special files: not followed, never waited on ----
cp -r "$T/ref22" "$T/lock"
echo precious > "$T/victim"
ln -sf "$T/victim" "$T/lock/LOCK"
expect 1 'symbolic link' -- "$RETRODB" build dots 2x2 --dir "$T/lock" --quiet
[ "$(cat "$T/victim")" = precious ] && ok || bad "a LOCK symlink led a build to truncate its target"
rm "$T/lock/LOCK" && mkfifo "$T/lock/LOCK"
expect 1 'not a regular file' -- timeout 20 "$RETRODB" build dots 2x2 --dir "$T/lock" --quiet
rm "$T/lock/LOCK"
mkdir -p "$T/fifo" && cp -r "$T/ref22/." "$T/fifo/"
rm "$T/fifo/MANIFEST" && ln -s "$T/victim" "$T/fifo/MANIFEST"
expect 1 'symbolic link' -- "$RETRODB" build dots 2x2 --dir "$T/fifo" --quiet
[ "$(cat "$T/victim")" = precious ] && ok || bad "a MANIFEST symlink led a build to append to its target"
rm -rf "$T/fifo" && cp -r "$T/ref22" "$T/fifo"
rm "$T/fifo/PARAMS" && mkfifo "$T/fifo/PARAMS"
expect 1 'not a regular file' -- timeout 20 sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/fifo'"
rm -rf "$T/fifo" && cp -r "$T/ref22" "$T/fifo"
rm "$T/fifo/0/0.zst" && mkfifo "$T/fifo/0/0.zst"
expect 1 'not a regular file' -- timeout 20 sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/fifo'"
expect 1 'not a regular file' -- timeout 20 "$RETRODB" verify --dir "$T/fifo" --full
rm "$T/fifo/0/0.zst" && ln -s "$T/ref22/0/0.zst" "$T/fifo/0/0.zst"
expect 1 'symbolic link' -- "$RETRODB" verify --dir "$T/fifo" --full
# a resume redoes a slice that is not a regular file, replacing it
expect 0 'redoing a damaged slice' -- timeout 60 "$RETRODB" build dots 2x2 --dir "$T/fifo"
[ -f "$T/fifo/0/0.zst" ] && [ ! -L "$T/fifo/0/0.zst" ] &&
    [ "$(checksums "$T/fifo")" = "$(checksums "$T/ref22")" ] && ok || bad "resume over a symlinked slice"

# ---- a resume sees damage inside the frames of the slices it reads ----
# A build that stopped after level 4 of 3x3: its level 5 files are read
# when level 4 is computed again; their middle bytes lie inside a frame,
# which the check at start (headers and seek tables) does not decode.
cp -r "$T/ref33" "$T/resume"
awk '!($1 == "slice" && $2 <= 4)' "$T/resume/MANIFEST" > "$T/resume/M" && mv "$T/resume/M" "$T/resume/MANIFEST"
rm -rf "$T/resume/0" "$T/resume/1" "$T/resume/2" "$T/resume/3" "$T/resume/4"
for f in $(find "$T/resume/5" -name '*.zst'); do flip_middle "$f"; done
expect 0 'redoing a damaged slice' -- "$RETRODB" build dots 3x3 --dir "$T/resume"
[ "$(checksums "$T/resume")" = "$(checksums "$T/ref33")" ] && ok || bad "resume over damaged frames differs"
expect 0 '' -- "$RETRODB" verify --dir "$T/resume" --full

# a MANIFEST line torn by a crash is ignored, and the next record starts on
# a line of its own
cp -r "$T/ref33" "$T/torn"
awk '!($1 == "slice" && $2 <= 2)' "$T/torn/MANIFEST" > "$T/torn/M" && mv "$T/torn/M" "$T/torn/MANIFEST"
printf 'slice 2 1,' >> "$T/torn/MANIFEST"
rm -rf "$T/torn/0" "$T/torn/1" "$T/torn/2"
expect 0 '' -- "$RETRODB" build dots 3x3 --dir "$T/torn" --quiet
[ "$(checksums "$T/torn")" = "$(checksums "$T/ref33")" ] && ok || bad "resume after a torn MANIFEST line differs"
expect 0 '' -- "$RETRODB" verify --dir "$T/torn" --full
grep -q '^slice 2 1,slice' "$T/torn/MANIFEST" && bad "a record was appended to a torn line" || ok

echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
