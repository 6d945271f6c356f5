# retrodb — build, test and install.
#
#   make            build bin/retrodb (and build/libretrodb.a)
#   make check      install missing dependencies, build, run every test
#   make demo       install missing dependencies, build the 3x3 database,
#                   show the empty board with every move's value
#   make check-long the long checks: 25 times the random Cram positions against
#                   the naive solver; every Cram solver method on 3x12, 4x9, 5x7;
#                   the Dots-and-Boxes search against variants' databases, 3x5, 4x4
#   make sanitize   build with AddressSanitizer + UBSan and run the tests
#   make bench      the speed and memory benchmark (minutes)
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean

CC      ?= gcc
PREFIX  ?= /usr/local
BUILD   ?= build
BIN     ?= bin
OPT     ?= -O3 -march=native
WARN    ?= -Wall -Wextra -Werror
CFLAGS_ALL = -std=gnu11 $(OPT) $(WARN) -fopenmp -Iinclude -Isrc $(SAN) \
             $(shell pkg-config --cflags libzstd) $(CFLAGS)
LDLIBS_ALL = $(shell pkg-config --libs libzstd) -fopenmp $(SAN) $(LDLIBS)
CHECK_LIBS = $(shell pkg-config --libs check)

# src/ is one folder per concern (see the README's "How the code is laid out")
LIB_SRC  := $(wildcard src/*.c src/*/*.c)
LIB_HDR  := $(wildcard src/*.h src/*/*.h include/retrodb/*.h)
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/src/%.o)
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)
TOOL_SRC := $(wildcard tools/*.c)
LIB      := $(BUILD)/libretrodb.a

.PHONY: all deps check check-long test demo sanitize valgrind valgrind-run bench bench-cram bench-dots install clean

all: $(BIN)/retrodb

deps:
	@sh scripts/install-deps.sh

$(BUILD)/src/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c $(LIB_HDR) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(shell pkg-config --cflags check) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN)/retrodb: $(TOOL_SRC) $(wildcard tools/*.h) $(LIB_HDR) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools $(TOOL_SRC) $(LIB) $(LDLIBS_ALL) -o $@

$(BUILD)/test_runner: $(TEST_OBJ) $(LIB)
	$(CC) $(CFLAGS_ALL) $(TEST_OBJ) $(LIB) $(CHECK_LIBS) $(LDLIBS_ALL) -o $@

include tests/faultinject/faultinject.mk

# The test command of the README: dependencies first, then a fresh make so
# that pkg-config sees them.
check: deps
	@$(MAKE) --no-print-directory test

test: $(BIN)/retrodb $(BUILD)/test_runner
	bash tests/architecture.sh
	$(BUILD)/test_runner
	RETRODB=$(BIN)/retrodb bash tests/cli.sh
	RETRODB=$(BIN)/retrodb bash tests/cli_help.sh
	RETRODB=$(BIN)/retrodb bash tests/faults.sh
	RETRODB=$(BIN)/retrodb SHIM=$(FAULTINJECT) bash tests/io_faults.sh
	RETRODB=$(BIN)/retrodb bash tests/cram_cli.sh
	RETRODB=$(BIN)/retrodb bash tests/hostile.sh
	$(MAKE) --no-print-directory fuzz-replay

demo: deps
	@$(MAKE) --no-print-directory all
	$(BIN)/retrodb build dots 3x3 --dir db/demo-3x3
	printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | $(BIN)/retrodb query --dir db/demo-3x3

sanitize: deps
	@$(MAKE) --no-print-directory test BUILD=build-san BIN=bin-san OPT="-O1 -g" \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

# The command-line suites with every retrodb run under valgrind's memcheck
# (minutes; the error paths the tests reach, read through a second tool
# beside the sanitizers), on a build without -march=native, whose vector
# instructions valgrind may not know. Each report is left in
# build-vg/valgrind/.
VALGRIND_SUITES ?= cli hostile cram_cli
valgrind: deps
	@command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)"; exit 2; }
	@$(MAKE) --no-print-directory valgrind-run BUILD=build-vg BIN=bin-vg OPT="-O1 -g"

valgrind-run: $(BIN)/retrodb
	rm -rf $(BUILD)/valgrind && mkdir -p $(BUILD)/valgrind
	@for s in $(VALGRIND_SUITES); do \
	    echo "valgrind: tests/$$s.sh"; \
	    VG_BIN=$(CURDIR)/$(BIN)/retrodb VG_LOGDIR=$(CURDIR)/$(BUILD)/valgrind \
	    RETRODB=$(CURDIR)/tests/valgrind_wrap.sh bash tests/$$s.sh || exit 1; \
	done
	@find $(BUILD)/valgrind -name '*.log' -size +0 | sort > $(BUILD)/valgrind/reports
	@if [ -s $(BUILD)/valgrind/reports ]; then \
	    echo "valgrind: errors in"; cat $(BUILD)/valgrind/reports; exit 1; \
	fi
	@echo "valgrind: no errors in $$(ls $(BUILD)/valgrind/*.log | wc -l) runs"

bench: deps
	@$(MAKE) --no-print-directory all
	sh scripts/bench.sh

# The Cram solver benchmark; BIG=1 adds 4x11 and 5x8 (minutes).
# Runs too long for `make check`: every Cram solver method on 3x12, 4x9, 5x7,
# and the Dots-and-Boxes search against databases of variants and published values.
check-long: deps
	@$(MAKE) --no-print-directory all $(BUILD)/test_runner
	RDB_CRAM_STRESS=25 CK_TIMEOUT_MULTIPLIER=40 CK_RUN_SUITE=cram_solver $(BUILD)/test_runner
	RETRODB=$(BIN)/retrodb bash tests/cram_long.sh
	RETRODB=$(BIN)/retrodb bash tests/dots_long.sh

# The Dots-and-Boxes solver benchmark; BIG=1 adds 3x5 and 4x4.
bench-dots: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_dots_solver.sh

bench-cram: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_cram.sh

install: $(BIN)/retrodb $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/retrodb
	install -m 755 $(BIN)/retrodb $(DESTDIR)$(PREFIX)/bin/retrodb
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libretrodb.a
	install -m 644 include/retrodb/*.h $(DESTDIR)$(PREFIX)/include/retrodb/

clean:
	rm -rf build build-san build-vg bin bin-san bin-vg

# The fuzz harnesses: make fuzz, fuzz-smoke, fuzz-replay (tests/fuzz/README.md).
include tests/fuzz/fuzz.mk
