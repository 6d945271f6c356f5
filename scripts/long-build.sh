#!/bin/bash
# Run a long retrodb build in the background, with a log file, and restart
# it (it resumes where it stopped) whenever it dies: killed, out of memory,
# a crash. It stops for good when the build finishes, when the build was
# stopped on purpose (SIGINT/SIGTERM: exit 130/143), on bad input (exit 2),
# or after MAX_RESTARTS restarts.
#
# usage: scripts/long-build.sh LOG -- build dots 3x5 --keep-lines 15 --dir db/3x5
#   RETRODB=path/to/retrodb  MAX_RESTARTS=100  RESTART_DELAY=10
# Prints the pid of the background supervisor; `kill` it to stop
# restarting (the running build goes on), or stop the build itself with
# SIGTERM (`retrodb status --dir DIR` names its pid).
set -eu
[ $# -ge 3 ] && [ "$2" = "--" ] || { sed -n '2,13p' "$0" >&2; exit 2; }
log=$1
shift 2
RETRODB=${RETRODB:-$(dirname "$0")/../bin/retrodb}
MAX_RESTARTS=${MAX_RESTARTS:-100}
RESTART_DELAY=${RESTART_DELAY:-10}

supervise() {
    local runs=0 rc
    while :; do
        runs=$((runs + 1))
        echo "=== $(date -u +%FT%TZ) run $runs: retrodb $*" >> "$log"
        set +e
        "$RETRODB" "$@" --quiet >> "$log" 2>&1 </dev/null
        rc=$?
        set -e
        echo "=== $(date -u +%FT%TZ) run $runs exited with $rc" >> "$log"
        case $rc in
        0) echo "=== finished after $((runs - 1)) restarts" >> "$log"; return 0 ;;
        2 | 130 | 143) echo "=== not restarting (exit $rc)" >> "$log"; return "$rc" ;;
        esac
        if [ "$runs" -gt "$MAX_RESTARTS" ]; then
            echo "=== giving up after $MAX_RESTARTS restarts" >> "$log"
            return 1
        fi
        sleep "$RESTART_DELAY"
    done
}

supervise "$@" &
echo $!
