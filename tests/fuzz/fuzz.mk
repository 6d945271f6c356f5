# fuzz.mk — the fuzz harnesses of tests/fuzz/ (see tests/fuzz/README.md),
# included by the Makefile.
#
#   make fuzz         build each harness with clang and libFuzzer, run each
#                     for FUZZ_SECONDS (60) on its corpus; what crashes goes
#                     to tests/fuzz/crashes/<target>/
#   make fuzz-smoke   the same for a few seconds per target
#   make fuzz-replay  every input of tests/fuzz/corpus/ and crashes/ once
#                     through harnesses built with $(CC) (part of make test)
#
# FUZZ_TARGETS picks targets, FUZZ_FLAGS adds libFuzzer options (e.g.
# FUZZ_FLAGS=-jobs=2). clang is not installed by `make deps`: `make fuzz`
# says so and stops when it is missing (apt-get install clang).

FUZZ_TARGETS ?= dots_diagram cram_diagram problem slice params manifest cram_tt dots_tt \
                dots_ledger cram_ledger position \
                serve_request
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   ?=
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS   = -std=gnu11 -O1 -g -Wall -Wextra -Werror -fopenmp -Iinclude -Isrc -Itests \
                $(shell pkg-config --cflags libzstd) $(FUZZ_SAN)

# Harness sources beyond its own file and fuzz_util.c.
FUZZ_EXTRA_cram_tt := tests/naive_cram.c
FUZZ_EXTRA_dots_tt := tests/naive_dots.c
# serve_request drives the program's own request handling (tools/), which
# answers through query's printers and position readers
SERVE_TOOL_SRC := tools/serve_api.c tools/query_answer.c tools/dots_answer_print.c \
                  tools/cram_answer_print.c tools/perfect_game_print.c tools/cli.c \
                  tools/query_picture.c tools/picture.c tools/options.c
FUZZ_EXTRA_serve_request := $(SERVE_TOOL_SRC) -Itools

FUZZ_LIB_OBJ := $(LIB_SRC:src/%.c=$(FUZZ_BUILD)/src/%.o)
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
REPLAY_BINS  := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-replay fuzz-check-cc

# ---- libFuzzer builds (clang) ----

$(FUZZ_BUILD)/src/%.o: src/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.c tests/fuzz/fuzz_util.h \
                      $(FUZZ_LIB_OBJ) $(wildcard tests/naive_*.[ch])
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< tests/fuzz/fuzz_util.c $(FUZZ_EXTRA_$*) \
	    $(FUZZ_LIB_OBJ) $(shell pkg-config --libs libzstd) -o $@

# Checked before anything is compiled with it.
fuzz-check-cc:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
	    echo "fuzz: $(FUZZ_CC) not found; the fuzz targets need clang with libFuzzer (apt-get install clang)"; \
	    exit 2; }

$(FUZZ_LIB_OBJ) $(FUZZ_BINS): | fuzz-check-cc

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_FLAGS="$(FUZZ_FLAGS)" \
	    sh tests/fuzz/fuzz.sh $(FUZZ_TARGETS)

fuzz-smoke:
	@if command -v $(FUZZ_CC) >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=3; \
	else \
	    echo "fuzz-smoke: skipped, $(FUZZ_CC) not found (apt-get install clang)"; \
	fi

# ---- replay (the project's compiler and flags) ----

$(BUILD)/tests/fuzz/%.o: tests/fuzz/%.c tests/fuzz/fuzz_util.h $(LIB_HDR) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests -c $< -o $@

$(BUILD)/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/fuzz_util.o \
                        $(BUILD)/tests/fuzz/replay_main.o $(LIB) $(BUILD)/tests/naive_cram.o \
                        $(BUILD)/tests/naive_dots.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(filter %.o,$^) $(LIB) $(LDLIBS_ALL) -o $@

$(BUILD)/tools/%.o: tools/%.c $(wildcard tools/*.h) $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools -c $< -o $@

$(BUILD)/tests/fuzz/fuzz_serve_request.o: CFLAGS_ALL += -Itools
$(BUILD)/fuzz/replay_serve_request: $(SERVE_TOOL_SRC:%.c=$(BUILD)/%.o)

# Each target's corpus and the inputs that crashed it once; pending/ holds
# inputs of bugs not fixed yet and is not replayed.
fuzz-replay: $(REPLAY_BINS)
	@for t in $(FUZZ_TARGETS); do \
	    dirs=""; \
	    for d in tests/fuzz/corpus/$$t tests/fuzz/crashes/$$t; do \
	        [ -d $$d ] && dirs="$$dirs $$d"; \
	    done; \
	    [ -n "$$dirs" ] || continue; \
	    echo "fuzz-replay: $$t"; \
	    OMP_NUM_THREADS=2 $(BUILD)/fuzz/replay_$$t $$dirs 2>$(BUILD)/fuzz/replay_$$t.log || { \
	        cat $(BUILD)/fuzz/replay_$$t.log; echo "fuzz-replay: $$t failed"; exit 1; }; \
	done

# Objects made through pattern rules are kept, so that a second make
# relinks nothing.
.PRECIOUS: $(BUILD)/tests/fuzz/%.o $(FUZZ_BUILD)/src/%.o
