# faultinject.mk — the fault-injection library that tests/io_faults.sh
# preloads into bin/retrodb (tests/faultinject/shim.c), included by the
# Makefile. It is built without the sanitizers of `make sanitize`: a
# preloaded library comes before their runtime, and it only forwards calls.
# Without _FORTIFY_SOURCE, which some compilers turn on and which makes
# open() an inline wrapper in <fcntl.h> that the library could not define.
FAULTINJECT := $(BUILD)/faultinject.so

$(FAULTINJECT): tests/faultinject/shim.c tests/faultinject/faultinject.mk
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 $(WARN) -U_FORTIFY_SOURCE -shared -fPIC $< -o $@ -ldl

# `make test` runs tests/io_faults.sh, which needs the library
test: $(FAULTINJECT)
