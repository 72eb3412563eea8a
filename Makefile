# Deliberate: one non-recursive GNU Makefile.
#
#   make [all]            build/deliberate, build/deliberated, tests helpers
#   make test             unit + integration suite (set DEVELOPER=1 for -Werror)
#   make asan             the whole suite under ASan+UBSan, in build-asan/
#   make bench            print the benchmark table
#   make fuzz             run the libFuzzer targets for FUZZ_SECONDS each
#   make install          PREFIX=~/.local (or /usr/local) DESTDIR=
#   make clean
#
# Variables: BUILD (output dir), CC, CFLAGS, LDFLAGS, DEVELOPER=1, SANITIZE=1.

BUILD	?= build
PREFIX	?= $(HOME)/.local
DESTDIR	?=
CC	?= cc
CFLAGS	?= -O2 -g
VERSION	:= 0.1.0

PKGS	:= libseccomp zlib json-c libpcre2-8 libsodium
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(PKG_LIBS),)
ifneq ($(MAKECMDGOALS),clean)
$(error pkg-config cannot find $(PKGS); run ./install.sh --deps)
endif
endif

WARN	:= -std=c11 -Wall -Wextra -Wformat=2 -Wstrict-prototypes \
	   -Wmissing-prototypes -Wmissing-declarations -Wshadow \
	   -Wpointer-arith -Wwrite-strings -Wcast-qual -Wsign-compare \
	   -Wundef -Wvla -fno-common
ifeq ($(DEVELOPER),1)
WARN	+= -Werror
endif
ifeq ($(SANITIZE),1)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	    -fno-sanitize-recover=undefined
endif

ALL_CFLAGS = $(WARN) $(CFLAGS) $(SANFLAGS) -D_GNU_SOURCE \
	     -DDELIBERATE_VERSION='"$(VERSION)"' -Icommon $(PKG_CFLAGS) -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS)

COMMON_SRC  := $(sort $(wildcard common/*.c))
DAEMON_SRC  := $(sort $(wildcard daemon/*.c))
CLI_SRC     := $(sort $(wildcard cli/*.c))
PRELOAD_SRC := $(sort $(wildcard preload/*.c))
UNIT_SRC    := $(sort $(wildcard tests/unit/test-*.c))
HELPER_SRC  := $(sort $(wildcard tests/helper/*.c))

COMMON_OBJ  := $(COMMON_SRC:%.c=$(BUILD)/%.o)
DAEMON_OBJ  := $(DAEMON_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ     := $(CLI_SRC:%.c=$(BUILD)/%.o)
HELPER_OBJ  := $(HELPER_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIBCOMMON   := $(BUILD)/libcommon.a

PROGS := $(BUILD)/deliberate $(BUILD)/deliberated
ifneq ($(PRELOAD_SRC),)
PROGS += $(BUILD)/libdeliberate.so
endif
ifneq ($(HELPER_SRC),)
PROGS += $(BUILD)/test-tool
endif
ifneq ($(wildcard shell-hooks/bash-builtin.c),)
ifneq ($(wildcard /usr/include/bash/builtins.h),)
PROGS += $(BUILD)/deliberate-bash.so
endif
endif

.PHONY: all test unit integration asan bench fuzz install uninstall clean
.DEFAULT_GOAL := all

all: $(PROGS) $(UNIT_BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBCOMMON): $(COMMON_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/deliberated: $(DAEMON_OBJ) $(LIBCOMMON)
	$(CC) $(ALL_LDFLAGS) -o $@ $(DAEMON_OBJ) $(LIBCOMMON) $(PKG_LIBS) -lm

$(BUILD)/deliberate: $(CLI_OBJ) $(LIBCOMMON)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(LIBCOMMON) $(PKG_LIBS) -lm

$(BUILD)/test-tool: $(HELPER_OBJ) $(LIBCOMMON)
	$(CC) $(ALL_LDFLAGS) -o $@ $(HELPER_OBJ) $(LIBCOMMON) $(PKG_LIBS) -lm

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBCOMMON) $(PKG_LIBS) -lm

# The shim links the C library only and never carries sanitizers: it is
# loaded into every process of the tree.
PRELOAD_CFLAGS = $(WARN) $(CFLAGS) -D_GNU_SOURCE -Icommon -fPIC \
		 -fvisibility=hidden -MMD -MP
$(BUILD)/preload/%.o: preload/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PRELOAD_CFLAGS) -c -o $@ $<

$(BUILD)/libdeliberate.so: $(PRELOAD_SRC:%.c=$(BUILD)/%.o)
	$(CC) -shared -Wl,-z,noexecstack -Wl,-z,now -o $@ $^ -ldl

$(BUILD)/shell-hooks/bash-builtin.o: shell-hooks/bash-builtin.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Wstrict-prototypes -Wmissing-prototypes -Wcast-qual -Wmissing-declarations -Wshadow -Wundef,$(WARN)) $(CFLAGS) -D_GNU_SOURCE -Icommon -fPIC \
	    -I/usr/include/bash -I/usr/include/bash/include \
	    -I/usr/include/bash/builtins -MMD -MP -c -o $@ $<

$(BUILD)/deliberate-bash.so: $(BUILD)/shell-hooks/bash-builtin.o
	$(CC) -shared -Wl,-z,noexecstack -o $@ $^

test: all
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run.sh

asan:
	$(MAKE) BUILD=build-asan SANITIZE=1 CFLAGS="-O1 -g" test

bench: all
	@BUILD=$(BUILD) sh bench/run.sh

fuzz:
	@sh tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60)

install: all
	BUILD=$(BUILD) PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) sh tests/../install-files.sh

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
