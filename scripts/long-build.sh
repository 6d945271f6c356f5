#!/bin/bash
# long-build.sh — runs a long `retrodb build` in the background with a log
# file, and starts it again (the build resumes where it stopped) whenever
# it dies: killed, out of memory, a crash.
#
# usage: scripts/long-build.sh [-f|--foreground] LOG -- build dots 3x5 --keep-lines 15 --dir db/3x5
#        scripts/long-build.sh -h|--help
#
# The log holds the builder's own messages (its progress lines) and, from
# this script, lines starting with "===": each run's start with the
# builder's pid, each exit with its status and duration, the `retrodb
# status` of the database before every run (how far the build got), and a
# one-line status whenever the log has been quiet for QUIET_LOG seconds.
#
# It stops for good, saying why in the log, when the build finishes
# ("finished"); on exit 2 (an error in the command: a bad option, a resume
# with other parameters); when the build was stopped on purpose (SIGINT or
# SIGTERM: exit 130 or 143); when two runs in a row fail the same way
# within FAST_FAIL seconds of their start (a crash loop: restarting would
# only repeat it); or after MAX_RESTARTS restarts.
#
# It prints the supervisor's pid, then waits START_CHECK seconds: if the
# supervisor has stopped by then (a bad option, or a small build that is
# already done), it prints what it logged and exits with the final status
# (0 finished, 2 an error in the command, else the build's failure).
# `kill PID` stops the supervisor and leaves the running build alone; stop
# the build itself with SIGTERM (`retrodb status --dir DIR` names its pid).
# --foreground runs the supervisor in this process instead (for tmux,
# systemd or scripts) and exits with its final status.
#
# Environment (defaults): RETRODB (bin/retrodb beside this script),
# MAX_RESTARTS (100), RESTART_DELAY (10 seconds), FAST_FAIL (60 seconds),
# QUIET_LOG (60 seconds; 0: no status lines while the build runs),
# START_CHECK (3 seconds).
set -u

usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }

foreground=0
case ${1:-} in
-h | --help) usage; exit 0 ;;
-f | --foreground) foreground=1; shift ;;
esac
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
    usage | sed -n '/^usage:/,/^$/p' >&2
    echo "(scripts/long-build.sh --help tells more)" >&2
    exit 2
fi
log=$1
shift 2
RETRODB=${RETRODB:-$(dirname "$0")/../bin/retrodb}
MAX_RESTARTS=${MAX_RESTARTS:-100}
RESTART_DELAY=${RESTART_DELAY:-10}
FAST_FAIL=${FAST_FAIL:-60}
QUIET_LOG=${QUIET_LOG:-60}
START_CHECK=${START_CHECK:-3}
if ! : >> "$log"; then
    echo "long-build.sh: cannot write the log '$log'" >&2
    exit 2
fi
if [ ! -x "$RETRODB" ]; then
    echo "long-build.sh: '$RETRODB' is not an executable retrodb (set RETRODB or run make)" >&2
    exit 2
fi

note() { echo "=== $(date -u +%FT%TZ) $*" >> "$log"; }

# 3725 -> 1:02:05; a multi-day build's 2 days 1:02:05
hms() {
    local s=$1 d=$(($1 / 86400))
    [ "$d" -gt 0 ] && printf '%d day%s ' "$d" "$([ "$d" -gt 1 ] && echo s)"
    printf '%d:%02d:%02d' $((s % 86400 / 3600)) $((s % 3600 / 60)) $((s % 60))
}

# The database folder of the build command "$@" as the builder reads its
# options (getopt_long: -d DIR, -dDIR, --dir DIR, --dir=DIR, long options
# cut to a unique prefix): its --dir, else the builder's default (db/RxC,
# db/RxC-VARIANT, db/RxC-NAME for --start NAME.txt, db/NAME for --problem
# NAME.txt, db/cram-RxC), or nothing when the arguments do not tell. Once
# the builder runs, the folder whose LOCK it holds replaces this guess.
args_dir() {
    local game=${2:-} board= variant= start= problem= dir= a name value c rest
    [ "${1:-}" = build ] || return 0
    shift 2 || return 0
    while [ $# -gt 0 ]; do
        a=$1
        shift
        case $a in
        --) break ;;
        --*)
            name=$(long_option "${a%%=*}")
            if [ "${a#*=}" != "$a" ]; then
                value=${a#*=}
            else
                case $name in
                variant | start | problem | dir | keep-lines | disk | memory | threads | groups | zstd-level)
                    value=${1:-}
                    [ $# -gt 0 ] && shift
                    ;;
                esac
            fi
            case $name in
            dir) dir=$value ;;
            variant) variant=$value ;;
            start) start=$value ;;
            problem) problem=$value ;;
            esac
            ;;
        -?*)
            # a cluster of short options, each of -d -k -m -t taking the
            # rest of the cluster or the next argument as its value
            rest=${a#-}
            while [ -n "$rest" ]; do
                c=${rest:0:1}
                rest=${rest:1}
                case $c in
                d | k | m | t)
                    value=$rest
                    rest=
                    if [ -z "$value" ]; then
                        value=${1:-}
                        [ $# -gt 0 ] && shift
                    fi
                    [ "$c" = d ] && dir=$value
                    ;;
                esac
            done
            ;;
        [0-9]*x[0-9]*) board=$a ;;
        esac
    done
    for a in "$@"; do
        case $a in [0-9]*x[0-9]*) board=$a ;; esac
    done
    if [ -n "$dir" ]; then
        echo "$dir"
    elif [ "$game" = cram ]; then
        [ -n "$board" ] && echo "db/cram-$board"
    elif [ -n "$problem" ] && [ "$problem" != - ]; then
        echo "db/$(file_name "$problem")"
    elif [ -n "$start" ] && [ "$start" != - ]; then
        [ -z "$board" ] && board=$(diagram_size "$start")
        [ -n "$board" ] && echo "db/$board-$(file_name "$start")"
    elif [ -z "$problem$start" ] && [ -n "$board" ]; then
        echo "db/$board$([ -n "$variant" ] && [ "$variant" != empty ] && echo "-$variant")"
    fi
    return 0
}

# The full name of the build option $1 (--NAME or a unique prefix of it).
long_option() {
    local o found= n=0 want=${1#--}
    for o in variant start problem dir keep-lines disk loony chains memory threads \
        groups zstd-level plan json quiet help; do
        [ "$o" = "$want" ] && { echo "$o"; return 0; }
        case $o in "$want"*) found=$o n=$((n + 1)) ;; esac
    done
    [ "$n" = 1 ] && echo "$found"
    return 0
}

# The builder's rule for a folder named after a file: its name without
# the last extension.
file_name() {
    local base=${1##*/}
    case $base in
    .*) echo "$base" ;;
    *.*) echo "${base%.*}" ;;
    *) echo "$base" ;;
    esac
}

# RxC of the board a diagram file draws: its first and last non-blank
# lines are dot rows, the first one 2C+1 characters long.
diagram_size() {
    awk '/[^ \t\r]/ { if (!first) { first = NR; w = $0; sub(/[ \t\r]+$/, "", w) } last = NR }
        END { if (first && (last - first) % 2 == 0 && length(w) % 2 == 1)
                  printf "%dx%d\n", (last - first) / 2, (length(w) - 1) / 2 }' "$1" 2> /dev/null
}

# The folder whose LOCK the builder with pid $1 holds open (Linux /proc).
builder_dir() {
    local fd target
    for fd in /proc/"$1"/fd/*; do
        target=$(readlink "$fd" 2>/dev/null) || continue
        case $target in */LOCK) echo "${target%/LOCK}"; return 0 ;; esac
    done
    return 0
}

# `retrodb status` of the database, each line indented, or why there is none.
# Never run while a builder starts: status takes the LOCK's shared lock for
# an instant to see whether a builder holds it.
log_status() {
    local what=$1 out
    if [ -z "$dir" ]; then
        note "$what: the database folder is not known yet (it is read from the builder once it runs)"
        return
    fi
    if out=$("$RETRODB" status --dir "$dir" 2>&1); then
        note "$what: retrodb status --dir $dir"
        printf '%s\n' "$out" | sed 's/^/    /' >> "$log"
    else
        note "$what: no status of $dir: $(printf '%s' "$out" | paste -sd ' ')"
    fi
}

# The lines of standard input that match the awk condition $1, spaces
# squeezed, joined with "; ".
one_line() { awk "$1"' { $1 = $1; out = out (out == "" ? "" : "; ") $0 } END { print out }'; }

# One line of status while the build runs: the levels, positions and time
# lines of `retrodb status` (the time left at the last slices' rate too), or
# all of it when those are not found.
log_progress() {
    local out line
    [ -z "$dir" ] && dir=$(builder_dir "$pid")
    if [ -n "$dir" ] && out=$("$RETRODB" status --dir "$dir" 2>&1); then
        line=$(printf '%s\n' "$out" | one_line '$1 == "levels" || $1 == "positions" || $1 == "time" || $1 == "about"')
        [ -n "$line" ] || line=$(printf '%s\n' "$out" | one_line 1)
    else
        line="no status yet"
    fi
    note "run $run running for $(hms $(($(date +%s) - started))) (pid $pid): $line"
}

# Wait for the builder (pid $pid) to end, setting rc; every few seconds
# learn its folder if still unknown and, when the log has been quiet for
# QUIET_LOG seconds, add a status line. `wait -n` returns as soon as either
# the builder or the short sleep ends, so a restart is never delayed.
watch_builder() {
    local step=10 sleeper now found learned=0
    [ "$QUIET_LOG" -gt 0 ] && [ "$QUIET_LOG" -lt "$step" ] && step=$QUIET_LOG
    while kill -0 "$pid" 2>/dev/null; do
        sleep "$step" &
        sleeper=$!
        wait -n "$pid" "$sleeper" 2>/dev/null
        # SIGKILL: a SIGTERM that came just after the fork could run this
        # shell's TERM trap in the child before it execs sleep
        kill -9 "$sleeper" 2>/dev/null
        wait "$sleeper" 2>/dev/null
        kill -0 "$pid" 2>/dev/null || break
        if [ "$learned" = 0 ]; then
            found=$(builder_dir "$pid")
            [ -n "$found" ] && dir=$found learned=1
        fi
        now=$(date +%s)
        if [ "$QUIET_LOG" -gt 0 ] &&
            [ $((now - $(stat -c %Y "$log" 2> /dev/null || echo 0))) -ge "$QUIET_LOG" ]; then
            log_progress
        fi
    done
    wait "$pid"
    rc=$?
}

supervise() {
    local fast_rc= elapsed why
    run=0 pid= dir=$(args_dir "$@")
    # the build goes on when the terminal closes; Ctrl-C is for the builder
    # (it stops between slices, exit 130, and is then not restarted)
    trap '' HUP INT
    trap 'note "supervisor stopped by SIGTERM${pid:+; the build (pid $pid) goes on without it}"; exit 143' TERM
    while :; do
        run=$((run + 1))
        log_status "before run $run"
        started=$(date +%s)
        # the start line comes from the process that then becomes the
        # builder, so that it precedes the builder's output and names its pid
        sh -c 'echo "=== $(date -u +%FT%TZ) run $1 started (pid $$): $2" >> "$3"; shift 3; exec "$@"' \
            sh "$run" "$RETRODB $*" "$log" "$RETRODB" "$@" >> "$log" 2>&1 < /dev/null &
        pid=$!
        watch_builder
        elapsed=$(($(date +%s) - started))
        why=
        [ "$rc" -gt 128 ] && why=" (killed by SIG$(kill -l $((rc - 128)) 2>/dev/null))"
        note "run $run (pid $pid) exited with $rc$why after $(hms "$elapsed")"
        pid=
        case $rc in
        0)
            note "finished after $((run - 1)) restart$([ "$run" -ne 2 ] && echo s)"
            return 0
            ;;
        2)
            note "not restarting: exit 2 is an error in the command (see the message above); fix it and start again"
            return 2
            ;;
        130 | 143)
            note "not restarting: the build was stopped on purpose (exit $rc); the same command resumes it"
            return "$rc"
            ;;
        esac
        if [ "$elapsed" -lt "$FAST_FAIL" ]; then
            if [ "$fast_rc" = "$rc" ]; then
                note "not restarting: runs $((run - 1)) and $run both failed with exit $rc within $FAST_FAIL s of their start (a crash loop; see the messages above); fix the cause and start again"
                return "$rc"
            fi
            fast_rc=$rc
        else
            fast_rc=
        fi
        if [ "$run" -gt "$MAX_RESTARTS" ]; then
            note "not restarting: giving up after $MAX_RESTARTS restarts"
            return "$rc"
        fi
        note "restarting in $RESTART_DELAY s"
        sleep "$RESTART_DELAY"
    done
}

if [ "$foreground" = 1 ]; then
    supervise "$@" < /dev/null
    exit
fi
# Everything the supervisor prints goes to the log: it must not hold this
# script's output open, or `pid=$(scripts/long-build.sh ...)` would wait
# for the whole build.
size=$(stat -c %s "$log")
supervise "$@" >> "$log" 2>&1 < /dev/null &
sup=$!
echo "$sup"
end=$(($(date +%s) + START_CHECK))
while kill -0 "$sup" 2>/dev/null && [ "$(date +%s)" -lt "$end" ]; do
    sleep 0.1
done
if ! kill -0 "$sup" 2>/dev/null; then
    wait "$sup"
    status=$?
    tail -c +$((size + 1)) "$log" >&2
    exit "$status"
fi
exit 0
