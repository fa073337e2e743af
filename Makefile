# ssdrev — one top-level Makefile, no recursive make.
# ---------------------------------------------------------------- user settings
CC      ?= cc
PREFIX  ?= /usr/local
# where `make install` puts profiles/, templates/, samples/; compiled into the
# binary (cli/util.c), so `make install PREFIX=...` rebuilds that one file
DATADIR ?= $(PREFIX)/share/ssdrev
MANDIR  ?= $(PREFIX)/share/man
BUILD   ?= build
OPT     ?= -O2 -g
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
# ------------------------------------------------------------ end user settings

VERSION := 0.1.0
WARN    := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wno-missing-field-initializers
STD     := -std=c11 -D_GNU_SOURCE
PKGS    := liburing cairo jansson libcmark-gfm fontconfig blkid sqlite3 xlsxwriter
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
EXT_LIBS   := -lcmark-gfm-extensions -lcsv -lhpdf -lm -lpthread
CFLAGS_ALL  = $(STD) $(WARN) $(OPT) -MMD -MP -I. $(PKG_CFLAGS) -DSSDREV_VERSION='"$(VERSION)"' $(CFLAGS)
LIBS_ALL    = $(PKG_LIBS) $(EXT_LIBS)
SAN        := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# The library's parts, lowest first (docs/architecture.md): each part includes
# only the public headers of the parts before it.
PARTS    := base log archive sim import bench analyze render
LIB_SRC  := $(sort $(foreach p,$(PARTS),$(shell find $(p) -name '*.c')))
CLI_SRC  := $(wildcard cli/*.c)
TEST_SRC := $(wildcard tests/unit/test_*.c)

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SLIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/san/%.o)
SCLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/san/%.o)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/test/%)

.PHONY: all deps test-deps e2e-deps demo test e2e asan ubsan valgrind fuzz lint clean install uninstall perf golden-update FORCE
# Each entry point checks the Debian packages first, then builds in a second
# make, so pkg-config is asked only once the packages are there.
all: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/ssdrev

# ---------------------------------------------------------------- dependencies
# Packages with a .pc file are checked with pkg-config; libcsv, libhpdf and the
# cmark-gfm extensions ship none, so their headers are checked instead.
deps:
	@sh scripts/deps.sh build
test-deps:
	@sh scripts/deps.sh test
e2e-deps:
	@sh scripts/deps.sh e2e

# ---------------------------------------------------------------- library + CLI
$(BUILD)/libssdrev.a: $(LIB_OBJ)
	@mkdir -p $(@D); rm -f $@; ar rcs $@ $^
$(BUILD)/ssdrev: $(CLI_OBJ) $(BUILD)/libssdrev.a
	$(CC) $(OPT) -o $@ $(CLI_OBJ) $(BUILD)/libssdrev.a $(LIBS_ALL)
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D); $(CC) $(CFLAGS_ALL) -c -o $@ $<

# The data directory is compiled into cli/util.c: the stamp holds the value
# it was built with and changes (rebuilding util.o) only when DATADIR does.
# Every user path reaches the shell as one single-quoted word ($(call
# sq,...)): spaces, semicolons, dollars and quotes in PREFIX or DESTDIR are plain
# characters; in a C string literal backslashes and double quotes are escaped too (cstr).
sq   = '$(subst ','\'',$(1))'
cstr = "$(subst ",\",$(subst \,\\,$(1)))"
$(BUILD)/obj/cli/util.o $(BUILD)/san/cli/util.o: CFLAGS_ALL += -DSSDREV_DATADIR=$(call sq,$(call cstr,$(DATADIR)))
$(BUILD)/obj/cli/util.o $(BUILD)/san/cli/util.o: $(BUILD)/datadir.stamp
$(BUILD)/datadir.stamp: FORCE
	@mkdir -p $(@D); printf '%s\n' $(call sq,$(DATADIR)) > $@.new; cmp -s $@.new $@ || mv $@.new $@; rm -f $@.new
FORCE:

# ------------------------------------------------ sanitizer build for the tests
$(BUILD)/libssdrev-san.a: $(SLIB_OBJ)
	@mkdir -p $(@D); rm -f $@; ar rcs $@ $^
$(BUILD)/ssdrev-san: $(SCLI_OBJ) $(BUILD)/libssdrev-san.a
	$(CC) $(SAN) -o $@ $(SCLI_OBJ) $(BUILD)/libssdrev-san.a $(LIBS_ALL)
$(BUILD)/san/%.o: %.c
	@mkdir -p $(@D); $(CC) $(CFLAGS_ALL) $(SAN) -O1 -c -o $@ $<
$(BUILD)/test/%: tests/unit/%.c tests/unit/testlib.h tests/unit/simlib.h $(BUILD)/libssdrev-san.a
	@mkdir -p $(@D); $(CC) $(CFLAGS_ALL) $(SAN) -O1 -o $@ $< $(BUILD)/libssdrev-san.a $(LIBS_ALL)

# ---------------------------------------------------------------- main jobs
demo: all
	@sh scripts/demo.sh $(BUILD)/ssdrev

test: test-deps
	@$(MAKE) --no-print-directory -k -j$(JOBS) $(TEST_BIN) $(BUILD)/ssdrev-san $(BUILD)/ssdrev
	@sh tests/run.sh $(BUILD)

# NVMe end to end in a QEMU guest (tests/e2e/run.sh): a few minutes.
e2e: e2e-deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/ssdrev
	@sh tests/e2e/run.sh $(BUILD)

asan ubsan: test

# Rewrites the expected outputs tests/golden/*.out (tests/golden/README.md).
golden-update: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/ssdrev
	@sh tests/golden/update.sh $(BUILD)

valgrind: test-deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/ssdrev
	@sh tests/valgrind.sh $(BUILD)

fuzz: deps
	@sh tests/fuzz/run.sh $(BUILD) $(FUZZ_SECONDS)

perf: all test-deps
	@sh perf/bench/run-all.sh $(BUILD)

lint:
	@# jansson.h is included so that its json_*_foreach macros are understood
	cppcheck --quiet --enable=warning,performance --error-exitcode=1 -I. --include=/usr/include/jansson.h \
	  --suppress=missingIncludeSystem -D__GNUC__ $(PARTS) cli

# The binary, the data it finds from anywhere (DATADIR: method files,
# templates, samples incl. the simulated drive models) and ssdrev(1).
# scripts/install.sh writes DATADIR/install-manifest.txt of the files and
# directories install made; uninstall removes only those (files that are
# regular files or links under PREFIX, DATADIR or MANDIR, then the
# directories once empty), never a file you put there.
DATA_FILES = $(wildcard profiles/*.json templates/*.md samples/*/*)
INSTALL_DIRS = $(call sq,$(DESTDIR)) $(call sq,$(PREFIX)) $(call sq,$(DATADIR)) $(call sq,$(MANDIR))
install: all
	@sh scripts/install.sh install $(INSTALL_DIRS) $(call sq,$(BUILD)/ssdrev) $(DATA_FILES)

uninstall:
	@sh scripts/install.sh uninstall $(INSTALL_DIRS)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
