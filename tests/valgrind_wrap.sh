#!/bin/sh
# valgrind_wrap.sh — runs retrodb under valgrind's memcheck, for `make
# valgrind`: the command-line test scripts call it in place of the binary
# (RETRODB=tests/valgrind_wrap.sh). Each run writes its report to
# $VG_LOGDIR/<pid>.log; an error makes the run exit 99, which the scripts
# report as a wrong exit status, and `make valgrind` lists the reports.
: "${VG_BIN:=bin-vg/retrodb}" "${VG_LOGDIR:=build-vg/valgrind}"
# With no OMP_WAIT_POLICY retrodb starts itself again with one set, and
# that second process would run outside valgrind: set it here.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
exec valgrind -q --error-exitcode=99 --track-origins=yes --leak-check=no \
    --log-file="$VG_LOGDIR/%p.log" "$VG_BIN" "$@"
