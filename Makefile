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
#   make bench-quiet the quiet database against the full one (BOARDS=...)
#   make bench-quiet-speed the quiet build against an earlier commit's (BASE=...)
#   make bench-plan --plan's time against the quiet build's own (SPECS=...)
#   make lib        the installable library: libretrodb.so and libretrodb.a
#                   in build-pic/
#   make install    PREFIX=/usr/local DESTDIR=: the program (and retrodb-mpi
#                   when built), both libraries, the public headers,
#                   retrodb.pc and the man pages
#   make uninstall  the same PREFIX and DESTDIR: removes exactly those files
#   make mpi        bin/retrodb-mpi, the build run as the ranks of an MPI job
#                   (needs an MPI: make deps-mpi installs Open MPI)
#   make check-mpi  the MPI builds against the recorded checksums, killed
#                   and resumed with other rank counts (skipped without MPI)
#   make bench-mpi  the MPI overhead benchmark: 1, 2 and 4 ranks (minutes)
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
# line editing and history for `retrodb play` when libedit is installed;
# without it play reads plain lines
# (loaded by play when it reads a terminal, not linked: see tools/play.c)
# $(call soname,PACKAGE,LIBRARY): the soname of pkg-config's PACKAGE's
# lib/LIBRARY.so, empty when not found
soname = $(shell objdump -p "$$(pkg-config --variable=libdir $(1) 2>/dev/null)/$(2).so" 2>/dev/null | awk '/SONAME/ {print $$2}')
EDIT_SONAME = $(call soname,libedit,libedit)
EDIT_CFLAGS = $(shell pkg-config --exists libedit 2>/dev/null && echo -DRDB_HAVE_LIBEDIT $$(pkg-config --cflags libedit)) $(if $(EDIT_SONAME),-DRDB_EDIT_SONAME='"$(EDIT_SONAME)"')
# the HTTP server of `retrodb serve` (scripts/install-deps.sh installs it),
# loaded by serve (dlopen) rather than linked: it brings GnuTLS with it,
# which would cost every start of the program 1.7 ms; its soname is the
# one of the library found here (tools/serve.c has a default)
HTTPD_SONAME = $(call soname,libmicrohttpd,libmicrohttpd)
HTTPD_CFLAGS = $(shell pkg-config --cflags libmicrohttpd 2>/dev/null) $(if $(HTTPD_SONAME),-DRDB_HTTPD_SONAME='"$(HTTPD_SONAME)"')

# src/ is one folder per concern (see docs/internals.md, "How the code is laid out")
LIB_SRC  := $(wildcard src/*.c src/*/*.c)
LIB_HDR  := $(wildcard src/*.h src/*/*.h include/retrodb/*.h)
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/src/%.o)
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)
TOOL_SRC := $(wildcard tools/*.c)
WEB_FILES := web/index.html web/explorer.js web/explorer.css
LIB      := $(BUILD)/libretrodb.a

# Where `make install` puts things; DESTDIR is put in front of each.
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
MANDIR       ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# One installed program for any x86-64 (tools/cpu_variant.c): the baseline
# build goes in BINDIR, and the x86-64-v3 (AVX2, BMI2) and x86-64-v4
# (AVX-512) builds it runs when the processor has them go in
# BINDIR/../libexec/retrodb/; the shared library's v3 and v4 builds go in
# LIBDIR/glibc-hwcaps/<level>/, where the dynamic loader looks first.
CPU_LEVELS   := x86-64-v3 x86-64-v4
PORTABLE_OPT := -O3 -march=x86-64 -mtune=generic
LIBEXECDIR    = $(BINDIR)/../libexec/retrodb

# The installable library, built apart from $(LIB): bin/retrodb and the
# tests call internal functions and want code tuned for this machine,
# while a library others link must run on any machine of the architecture
# (-O2, no -march=native), be position-independent to go into a shared
# object, and export only the public API of include/retrodb/ (RDB_API;
# -fvisibility=hidden makes everything else internal, so that no internal
# name can clash with a program's own).
PIC_BUILD  ?= build-pic
PIC_OPT    ?= -O2
PIC_CFLAGS  = -std=gnu11 $(PIC_OPT) $(WARN) -fPIC -fvisibility=hidden -fopenmp -Iinclude -Isrc \
              $(shell pkg-config --cflags libzstd) $(CFLAGS)
PIC_OBJ    := $(LIB_SRC:src/%.c=$(PIC_BUILD)/src/%.o)
VERSION    := $(shell sed -n 's/^.define RETRODB_VERSION "\(.*\)"$$/\1/p' include/retrodb/version.h)
VERSION_MAJOR := $(shell sed -n 's/^.define RETRODB_VERSION_MAJOR \([0-9]*\)$$/\1/p' include/retrodb/version.h)
SONAME     := libretrodb.so.$(VERSION_MAJOR)
SHLIB      := $(PIC_BUILD)/libretrodb.so.$(VERSION)
STLIB      := $(PIC_BUILD)/libretrodb.a
PUBLIC_HDR := $(wildcard include/retrodb/*.h)
MAN1       := $(wildcard man/*.1)
MAN3       := $(wildcard man/*.3)
OBJCOPY    ?= objcopy

.PHONY: portable all lib python python-lib check-python bench-python bench-web check-web deps deps-mpi mpi check-mpi check-scalar check-tsan bench-mpi check check-long test demo sanitize valgrind valgrind-run bench bench-cram bench-dots bench-query bench-quiet bench-quiet-speed bench-plan bench-kernel install uninstall clean

all: $(BIN)/retrodb

deps:
	@sh scripts/install-deps.sh

deps-mpi:
	@sh scripts/install-deps.sh --mpi

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD writes foo.d beside foo.o), so a changed header rebuilds only
# the files that include it. An object without its .d (one built before
# this rule, or whose .d was removed) is rebuilt: the empty rule for a
# missing .d makes it count as new.
DEPFLAGS = -MMD -MP

$(BUILD)/src/%.o: src/%.c $(BUILD)/src/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c $(BUILD)/tests/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(DEPFLAGS) $(shell pkg-config --cflags check) -c $< -o $@

DEP_FILES := $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(PIC_OBJ:.o=.d)
$(DEP_FILES): ;
-include $(DEP_FILES)

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN)/retrodb: $(TOOL_SRC) $(wildcard tools/*.h) $(LIB_HDR) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(EDIT_CFLAGS) $(HTTPD_CFLAGS) -Itools $(TOOL_SRC) $(LIB) $(LDLIBS_ALL) -o $@

# bin/retrodb-mpi: the build subcommands and their helpers with the MPI
# distribution of tools/mpi/, the only files compiled with mpi.h (by
# mpicc); the library is the same as bin/retrodb's.
MPICC   ?= mpicc
MPI_SRC := tools/build.c tools/build_cram.c tools/cli.c tools/options.c $(wildcard tools/mpi/*.c)

mpi: $(BIN)/retrodb-mpi

$(BIN)/retrodb-mpi: $(MPI_SRC) $(wildcard tools/*.h tools/mpi/*.h) $(LIB_HDR) $(LIB)
	@command -v $(MPICC) >/dev/null || { echo "mpi: $(MPICC) not found (make deps-mpi installs Open MPI)"; exit 2; }
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS_ALL) -Itools $(MPI_SRC) $(LIB) $(LDLIBS_ALL) -o $@

# Skipped, with a message, when no MPI is installed.
check-mpi: $(BIN)/retrodb
	@if command -v $(MPICC) >/dev/null && command -v mpirun >/dev/null; then \
	    $(MAKE) --no-print-directory $(BIN)/retrodb-mpi && \
	    RETRODB=$(BIN)/retrodb RETRODB_MPI=$(BIN)/retrodb-mpi bash tests/mpi.sh; \
	else \
	    echo "check-mpi: skipped, no MPI installed (make deps-mpi)"; \
	fi

bench-mpi: $(BIN)/retrodb $(BIN)/retrodb-mpi
	RETRODB=$(BIN)/retrodb RETRODB_MPI=$(BIN)/retrodb-mpi bash scripts/bench_mpi.sh

# The one file of the program the unit tests call (tools/picture.c: its
# XML escaping, its bytes), compiled on its own for them.
$(BUILD)/tools/picture.o: tools/picture.c tools/picture.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/test_runner: $(TEST_OBJ) $(BUILD)/tools/picture.o $(LIB)
	$(CC) $(CFLAGS_ALL) $(TEST_OBJ) $(BUILD)/tools/picture.o $(LIB) $(CHECK_LIBS) $(LDLIBS_ALL) -o $@

# tests/export.sh holds every exported record against the probe with this
# program, which uses the public headers only, as a program reading a book would
$(BUILD)/export_check: tests/export/check.c $(LIB_HDR) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $< $(LIB) $(LDLIBS_ALL) -o $@

lib: $(SHLIB) $(STLIB)

# The Python package (python/): the shared library copied into it, then
# installed by pip from Debian's setuptools, offline: into the active
# virtual environment when there is one (VIRTUAL_ENV), else into the
# system's Python (PY_INSTALL, PIP_FLAGS choose otherwise).
PYTHON     ?= /usr/bin/python3
PY_INSTALL ?= $(if $(VIRTUAL_ENV),$(VIRTUAL_ENV)/bin/python,$(PYTHON))
PIP_FLAGS  ?= $(if $(VIRTUAL_ENV),,--break-system-packages)
# The shared library, copied into the Python package (python/setup.py
# asks for it when `pip install ./python` finds it missing).
python-lib: $(SHLIB)
	rm -rf python/retrodb/_lib python/build python/*.egg-info && mkdir -p python/retrodb/_lib
	cp $(SHLIB) python/retrodb/_lib/libretrodb.so

python: python-lib
	@echo "installing the retrodb package with $(PY_INSTALL)$(if $(VIRTUAL_ENV), (the active virtual environment), (the system's Python: PY_INSTALL=venv/bin/python for another))"
	$(PY_INSTALL) -m pip install --no-build-isolation --no-index --no-deps $(PIP_FLAGS) ./python

bench-python: $(BIN)/retrodb $(SHLIB)
	PYTHON=$(PYTHON) bash scripts/bench_python.sh $(BOARD)

# A load test of `retrodb serve` on 127.0.0.1: 8 clients, 20,000 queries
# of random positions of a 3x4 database (built in db/3x4 when missing).
bench-web: $(BIN)/retrodb
	[ -f db/3x4/PARAMS ] || $(BIN)/retrodb build dots 3x4 --dir db/3x4 --quiet
	$(PYTHON) scripts/bench_web.py $(BIN)/retrodb db/3x4 8 20000

# The API and the page in headless Chromium alone (part of make check);
# SHOTS=docs/img writes the README's screenshots anew.
check-web: $(BIN)/retrodb
	RETRODB=$(BIN)/retrodb PYTHON=$(PYTHON) SHOTS=$(SHOTS) bash tests/web.sh

check-python: $(BIN)/retrodb $(SHLIB)
	RETRODB=$(BIN)/retrodb SHLIB=$(SHLIB) PYTHON=$(PYTHON) bash tests/python.sh

$(PIC_BUILD)/src/%.o: src/%.c $(PIC_BUILD)/src/%.d
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) $(DEPFLAGS) -c $< -o $@

# Both libraries are made of one relocatable object, in which every
# symbol but the public API is made local: the hidden ones (all of the
# library's own functions but RDB_API's) and any other global, such as the
# locks gcc makes for named OpenMP critical sections (-d gives those common
# symbols their space first, so that they can be made local). An archive
# of the separate objects would have exported every internal function,
# since hidden visibility binds only a shared object.
$(PIC_BUILD)/retrodb.o: $(PIC_OBJ)
	$(LD) -r -d $(PIC_OBJ) -o $@.tmp
	$(OBJCOPY) --localize-hidden --wildcard --keep-global-symbol='rdb_*' $@.tmp $@
	rm -f $@.tmp

# -z defs: every symbol the library uses comes from itself or from the
# libraries named here, so that a program needs only -lretrodb.
$(SHLIB): $(PIC_BUILD)/retrodb.o
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs $< \
	    $(shell pkg-config --libs libzstd) -fopenmp $(LDFLAGS) -o $@
	ln -sf $(notdir $@) $(PIC_BUILD)/$(SONAME)
	ln -sf $(SONAME) $(PIC_BUILD)/libretrodb.so

$(STLIB): $(PIC_BUILD)/retrodb.o
	rm -f $@
	$(AR) rcs $@ $<

include tests/faultinject/faultinject.mk

# The test command of the README: dependencies first, then a fresh make so
# that pkg-config sees them.
check: deps
	@$(MAKE) --no-print-directory test

# The unit tests' scratch folders (tests/test_util.c): in memory when the
# machine has a /dev/shm with 2 GB free (a container's is often 64 MB),
# since tests that damage a file and look it up again thousands of times
# are bound by fsync on a busy disk (the probe suite: 50 s on /tmp beside a
# running build, 8 s in /dev/shm; they hold about 60 MB there at most);
# else TMPDIR or /tmp.
TEST_BASE ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && \
                [ "$$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $$4}')" -ge 2097152 ] 2>/dev/null && \
                echo /dev/shm)

test: $(BIN)/retrodb $(BUILD)/test_runner $(BUILD)/export_check $(SHLIB)
	bash tests/architecture.sh
	bash tests/architecture_planted.sh
	RDB_TEST_BASE=$(TEST_BASE) $(BUILD)/test_runner
	RETRODB=$(BIN)/retrodb bash tests/cli.sh
	RETRODB=$(BIN)/retrodb bash tests/cli_help.sh
	RETRODB=$(BIN)/retrodb bash tests/query_forms.sh
	RETRODB=$(BIN)/retrodb bash tests/play.sh
	RETRODB=$(BIN)/retrodb bash tests/long_build.sh
	RETRODB=$(BIN)/retrodb bash tests/faults.sh
	RETRODB=$(BIN)/retrodb bash tests/quiet.sh
	RETRODB=$(BIN)/retrodb bash tests/quiet_half.sh
	RETRODB=$(BIN)/retrodb bash tests/repair.sh
	RETRODB=$(BIN)/retrodb SHLIB=$(SHLIB) PYTHON=$(PYTHON) bash tests/python.sh
	RETRODB=$(BIN)/retrodb SHIM=$(FAULTINJECT) bash tests/io_faults.sh
	RETRODB=$(BIN)/retrodb bash tests/cram_cli.sh
	RETRODB=$(BIN)/retrodb bash tests/svg.sh
	RETRODB=$(BIN)/retrodb PYTHON=$(PYTHON) bash tests/web.sh
	RETRODB=$(BIN)/retrodb SHLIB=$(SHLIB) PYTHON=$(PYTHON) bash tests/docs_examples.sh
	RETRODB=$(BIN)/retrodb EXPORT_CHECK=$(BUILD)/export_check bash tests/export.sh
	RETRODB=$(BIN)/retrodb bash tests/hostile.sh
	RETRODB=$(BIN)/retrodb MAKE="$(MAKE)" CC="$(CC)" bash tests/install.sh
	$(if $(SAN),@echo "check-scalar: not under the sanitizers",$(MAKE) --no-print-directory check-scalar)
	$(if $(SAN),@echo "check-tsan: not under the other sanitizers",$(MAKE) --no-print-directory check-tsan)
	$(if $(SAN),@echo "check-mpi: not under the sanitizers (Open MPI's own allocations)",$(MAKE) --no-print-directory check-mpi)
	$(MAKE) --no-print-directory fuzz-replay

# Eight threads probing one database at once (one handle shared, and one
# each; Dots-and-Boxes with deleted levels, quiet, Cram) under
# ThreadSanitizer: tests/test_probe.c, case "threads".
check-tsan:
	@$(MAKE) --no-print-directory BUILD=build-tsan BIN=bin-tsan OPT="-O1 -g" \
	    SAN="-fsanitize=thread" build-tsan/test_runner
	OMP_NUM_THREADS=1 TSAN_OPTIONS=halt_on_error=1 CK_RUN_SUITE=probe CK_RUN_CASE=threads \
	    build-tsan/test_runner

# The slice kernel's portable loop against its AVX-512 one, and the quiet
# index's bit gathers without BMI2: the program built again without either
# must give every checksum of data/checksums/ (which the native build of
# `test` gives too, in tests/cli.sh). On a machine without them both
# builds take the portable paths.
check-scalar:
	@$(MAKE) --no-print-directory BUILD=build-scalar BIN=bin-scalar \
	    OPT="-O3 -march=native -mno-avx512f -mno-bmi2" bin-scalar/retrodb
	RETRODB=bin-scalar/retrodb bash scripts/checksums.sh

demo: deps
	@$(MAKE) --no-print-directory all
	$(BIN)/retrodb build dots 3x3 --dir db/demo-3x3
	printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | $(BIN)/retrodb query --dir db/demo-3x3

# (sanitized code runs several times slower: the unit tests' time limits
# are stretched to match). It also checks the invariants whose checks cost
# work (src/common/invariant.h): every fast path against its reference.
sanitize: deps
	@CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-6} $(MAKE) --no-print-directory test BUILD=build-san BIN=bin-san OPT="-O1 -g" \
	    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DRDB_CHECK_INVARIANTS"

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
# Runs too long for `make check`: every Cram solver method on 3x12, 4x9 and
# 5x7, the published 7x7 and 6x7 on two threads, and the Dots-and-Boxes
# search against databases of variants and published values.
check-long: deps
	@$(MAKE) --no-print-directory all $(BUILD)/test_runner
	RDB_CRAM_STRESS=25 CK_TIMEOUT_MULTIPLIER=40 CK_RUN_SUITE=cram_solver $(BUILD)/test_runner
	RDB_DOTS_STRESS=30 CK_TIMEOUT_MULTIPLIER=40 CK_RUN_SUITE=dots_solver $(BUILD)/test_runner
	RETRODB=$(BIN)/retrodb bash tests/cram_long.sh
	RETRODB=$(BIN)/retrodb bash tests/dots_long.sh
	RETRODB=$(BIN)/retrodb bash tests/quiet_long.sh
	@$(MAKE) --no-print-directory $(SHLIB)
	RETRODB=$(BIN)/retrodb SHLIB=$(SHLIB) PYTHON=$(PYTHON) EXAMPLE_SECONDS=3600 bash tests/docs_examples.sh --long

# The Dots-and-Boxes solver benchmark; BIG=1 adds 3x5 and 4x4.
bench-dots: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_dots_solver.sh

# The slice kernel against an earlier commit (BASE, default HEAD~1),
# built in a temporary folder and timed in the same run.
bench-kernel: deps
	@$(MAKE) --no-print-directory all
	bash scripts/bench_kernel.sh $(BASE)

# How many positions a second `query --batch` answers (and one process a
# position, for comparison).
bench-query: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_query.sh

# The quiet database against the full one in the same run: positions,
# time, memory, disk, and the start's answers compared (BOARDS="3x5 4x4"
# for the boards of the issue; minutes each).
bench-quiet: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_quiet.sh $(BOARDS)

# The quiet build against an earlier commit's in one run: CPU a stored
# position, checksums compared, and the full build of Icelandic 3x5
# beside it (BASE=rev, default f8151b8; SPECS="3x4@1 4x4@2 ..."; about
# 25 minutes with the defaults).
bench-quiet-speed: deps
	@$(MAKE) --no-print-directory all
	bash scripts/bench_quiet_speed.sh $(or $(BASE),f8151b8) $(SPECS)

# --plan's time for quiet builds (from its sample) against the builds'
# own, board by board (minutes).
bench-plan: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_plan.sh $(SPECS)

# The quiet build on a part of a real database's finished level, against
# an earlier commit's, every value checked against the stored one
# (DIR=database, BASE=rev; LEVEL, SLICE, SKIP, COUNT, THREADS, PAIRS as in
# scripts/bench_quiet_part.sh; about a minute a pair on 4x5). CEILING=1,
# without BASE: two threads against two one-thread computations at once.
bench-quiet-part: deps
	bash scripts/bench_quiet_part.sh $(DIR) $(BASE)

bench-cram: deps
	@$(MAKE) --no-print-directory all
	RETRODB=$(BIN)/retrodb bash scripts/bench_cram.sh

# No ldconfig: the soname link is made here, and an install into DESTDIR
# (a package, a test) must not touch the system's cache. retrodb.pc holds
# ${prefix} where it can, so that it still reads right when the tree moves.
# the program and the library for each x86-64 level (see CPU_LEVELS)
portable:
	@$(MAKE) --no-print-directory BUILD=build-x86-64 BIN=bin-x86-64 OPT="$(PORTABLE_OPT)" \
	    bin-x86-64/retrodb
	@for l in $(CPU_LEVELS); do \
	    $(MAKE) --no-print-directory BUILD=build-$$l BIN=bin-$$l OPT="-O3 -march=$$l" \
	        bin-$$l/retrodb && \
	    $(MAKE) --no-print-directory PIC_BUILD=build-pic-$$l PIC_OPT="-O2 -march=$$l" \
	        build-pic-$$l/libretrodb.so.$(VERSION) || exit 1; \
	done

install: portable $(SHLIB) $(STLIB)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(INCLUDEDIR)/retrodb $(DESTDIR)$(LIBEXECDIR)
	install -m 755 bin-x86-64/retrodb $(DESTDIR)$(BINDIR)/retrodb
	for l in $(CPU_LEVELS); do \
	    install -m 755 bin-$$l/retrodb $(DESTDIR)$(LIBEXECDIR)/retrodb-$$l && \
	    install -d $(DESTDIR)$(LIBDIR)/glibc-hwcaps/$$l && \
	    install -m 755 build-pic-$$l/libretrodb.so.$(VERSION) $(DESTDIR)$(LIBDIR)/glibc-hwcaps/$$l/ && \
	    ln -sf libretrodb.so.$(VERSION) $(DESTDIR)$(LIBDIR)/glibc-hwcaps/$$l/$(SONAME) || exit 1; \
	done
	# bin/retrodb-mpi too, when `make mpi` has built it
	if [ -x $(BIN)/retrodb-mpi ]; then install -m 755 $(BIN)/retrodb-mpi $(DESTDIR)$(BINDIR)/retrodb-mpi; fi
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libretrodb.so
	install -m 644 $(STLIB) $(DESTDIR)$(LIBDIR)/libretrodb.a
	install -m 644 $(PUBLIC_HDR) $(DESTDIR)$(INCLUDEDIR)/retrodb/
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(VERSION)|' retrodb.pc.in > $(PIC_BUILD)/retrodb.pc
	install -m 644 $(PIC_BUILD)/retrodb.pc $(DESTDIR)$(PKGCONFIGDIR)/retrodb.pc
	# the explorer page of `retrodb serve`, found beside the program
	install -d $(DESTDIR)$(PREFIX)/share/retrodb/web
	install -m 644 $(WEB_FILES) $(DESTDIR)$(PREFIX)/share/retrodb/web/
ifneq ($(MAN1),)
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
endif
ifneq ($(MAN3),)
	install -d $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(MAN3) $(DESTDIR)$(MANDIR)/man3/
endif

# Exactly the files install puts, and the one folder that is retrodb's own.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/retrodb $(DESTDIR)$(BINDIR)/retrodb-mpi \
	    $(DESTDIR)$(LIBDIR)/$(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libretrodb.so $(DESTDIR)$(LIBDIR)/libretrodb.a \
	    $(DESTDIR)$(PKGCONFIGDIR)/retrodb.pc \
	    $(addprefix $(DESTDIR)$(INCLUDEDIR)/retrodb/,$(notdir $(PUBLIC_HDR))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1))) \
	    $(addprefix $(DESTDIR)$(MANDIR)/man3/,$(notdir $(MAN3))) \
	    $(addprefix $(DESTDIR)$(PREFIX)/share/retrodb/web/,$(notdir $(WEB_FILES))) \
	    $(foreach l,$(CPU_LEVELS),$(DESTDIR)$(LIBEXECDIR)/retrodb-$(l) \
	        $(DESTDIR)$(LIBDIR)/glibc-hwcaps/$(l)/libretrodb.so.$(VERSION) \
	        $(DESTDIR)$(LIBDIR)/glibc-hwcaps/$(l)/$(SONAME))
	for l in $(CPU_LEVELS); do rmdir $(DESTDIR)$(LIBDIR)/glibc-hwcaps/$$l 2>/dev/null || true; done
	rmdir $(DESTDIR)$(LIBDIR)/glibc-hwcaps $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(BINDIR)/../libexec 2>/dev/null || true
	rmdir $(DESTDIR)$(INCLUDEDIR)/retrodb 2>/dev/null || true
	rmdir $(DESTDIR)$(PREFIX)/share/retrodb/web $(DESTDIR)$(PREFIX)/share/retrodb 2>/dev/null || true

clean:
	rm -rf build build-san build-vg bin bin-san bin-vg $(PIC_BUILD) build-x86-64 bin-x86-64 \
	    $(foreach l,$(CPU_LEVELS),build-$(l) bin-$(l) build-pic-$(l))

# The fuzz harnesses: make fuzz, fuzz-smoke, fuzz-replay (tests/fuzz/README.md).
include tests/fuzz/fuzz.mk
