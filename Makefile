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
# The zsh hook's module, where zsh's headers are (Debian: zsh-dev); the
# module path's layout is zmodload's: DIR/deliberate/hook.so.
ZSH_MODULE := $(BUILD)/zsh/deliberate/hook.so
ifneq ($(wildcard /usr/include/zsh/zsh.mdh),)
PROGS += $(ZSH_MODULE)
endif

.PHONY: all test unit integration asan bench fuzz install uninstall clean
.DEFAULT_GOAL := all
.SECONDARY:

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
	$(CC) $(ALL_LDFLAGS) -pthread -o $@ $(CLI_OBJ) $(LIBCOMMON) $(PKG_LIBS) -lm

$(BUILD)/test-tool: $(HELPER_OBJ) $(LIBCOMMON)
	$(CC) $(ALL_LDFLAGS) -o $@ $(HELPER_OBJ) $(LIBCOMMON) $(PKG_LIBS) -lm

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBCOMMON) $(PKG_LIBS) -lm

# test-classify also checks the hooks' fast path (hookcore.c) against the
# classifier.
$(BUILD)/tests/test-classify: $(BUILD)/tests/unit/test-classify.o \
    $(BUILD)/shell-hooks/hookcore.o $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/shell-hooks/hookcore.o \
	    $(LIBCOMMON) $(PKG_LIBS) -lm

# Shared objects loaded into other programs (the shim, the shell hooks):
# text and read-only data in one segment, so each maps fewer areas, which
# every fork of the host process copies and every exec tears down.
SHLIB_LDFLAGS = -shared -Wl,-z,noexecstack -Wl,-z,noseparate-code

# The shim links the C library only and never carries sanitizers: it is
# loaded into every process of the tree.
PRELOAD_CFLAGS = $(WARN) $(CFLAGS) -D_GNU_SOURCE -Icommon -fPIC \
		 -fvisibility=hidden -MMD -MP
$(BUILD)/preload/%.o: preload/%.c
	@mkdir -p $(dir $@)
	$(CC) $(PRELOAD_CFLAGS) -c -o $@ $<

$(BUILD)/libdeliberate.so: $(PRELOAD_SRC:%.c=$(BUILD)/%.o)
	$(CC) $(SHLIB_LDFLAGS) -Wl,-z,now -o $@ $^ -ldl

$(BUILD)/shell-hooks/bash-builtin.o: shell-hooks/bash-builtin.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Wstrict-prototypes -Wmissing-prototypes -Wcast-qual -Wmissing-declarations -Wshadow -Wundef,$(WARN)) $(CFLAGS) -D_GNU_SOURCE -Icommon -fPIC \
	    -I/usr/include/bash -I/usr/include/bash/include \
	    -I/usr/include/bash/builtins -MMD -MP -c -o $@ $<

$(BUILD)/deliberate-bash.so: $(BUILD)/shell-hooks/bash-builtin.o \
    $(BUILD)/shell-hooks/hookcore.o
	$(CC) $(SHLIB_LDFLAGS) -o $@ $^

# Shared by the bash builtin and the zsh module: both are loaded into a
# shell, so PIC and no sanitizers (the shell is not built with them).
$(BUILD)/shell-hooks/hookcore.o: shell-hooks/hookcore.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) -D_GNU_SOURCE -fPIC -fvisibility=hidden \
	    -MMD -MP -c -o $@ $<

# zsh's headers trip the stricter warnings; the module is checked with
# the rest (-Wall -Wextra, -Werror under DEVELOPER=1).
$(BUILD)/shell-hooks/zsh-module.o: shell-hooks/zsh-module.c
	@mkdir -p $(dir $@)
	$(CC) -Wall -Wextra $(filter -Werror,$(WARN)) $(CFLAGS) -fPIC \
	    -Ishell-hooks/zsh-compat -I/usr/include -MMD -MP -c -o $@ $<

$(ZSH_MODULE): $(BUILD)/shell-hooks/zsh-module.o $(BUILD)/shell-hooks/hookcore.o
	@mkdir -p $(dir $@)
	$(CC) $(SHLIB_LDFLAGS) -o $@ $^

test: all
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run.sh

asan:
	$(MAKE) BUILD=build-asan SANITIZE=1 CFLAGS="-O1 -g" test

bench: all
	@BUILD=$(BUILD) sh bench/run.sh

fuzz:
	@sh tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60)

BINDIR	 = $(DESTDIR)$(PREFIX)/bin
LIBDIR	 = $(DESTDIR)$(PREFIX)/lib/deliberate
SHAREDIR = $(DESTDIR)$(PREFIX)/share/deliberate
MANDIR	 = $(DESTDIR)$(PREFIX)/share/man
COMPDIR_BASH = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
COMPDIR_ZSH  = $(DESTDIR)$(PREFIX)/share/zsh/site-functions

install: all
	install -d -m 0755 $(BINDIR) $(LIBDIR) $(SHAREDIR) \
	    $(SHAREDIR)/redaction-rules $(SHAREDIR)/risk-rules \
	    $(SHAREDIR)/shell-hooks $(SHAREDIR)/schemas $(SHAREDIR)/systemd
	install -m 0755 $(BUILD)/deliberate $(BUILD)/deliberated $(BINDIR)/
	for f in $(BUILD)/libdeliberate.so $(BUILD)/deliberate-bash.so; do \
	    if [ -f $$f ]; then install -m 0755 $$f $(LIBDIR)/; fi; done
	if [ -f $(ZSH_MODULE) ]; then install -d -m 0755 $(LIBDIR)/zsh/deliberate && \
	    install -m 0755 $(ZSH_MODULE) $(LIBDIR)/zsh/deliberate/; fi
	install -m 0644 redaction-rules/*.rules redaction-rules/*.model redaction-rules/safe-words.txt \
	    redaction-rules/README.md \
	    $(SHAREDIR)/redaction-rules/
	for f in risk-rules/*.rules risk-rules/*.model risk-rules/README.md; do \
	    if [ -f $$f ]; then install -m 0644 $$f $(SHAREDIR)/risk-rules/; fi; done
	for f in shell-hooks/*; do case $$f in *.[ch]|*/zsh-compat) ;; \
	    *) install -m 0644 $$f $(SHAREDIR)/shell-hooks/ ;; esac; done
	install -m 0644 schemas/*.json $(SHAREDIR)/schemas/
	for f in systemd/*; do if [ -f $$f ]; then \
	    install -m 0644 $$f $(SHAREDIR)/systemd/; fi; done
	for f in man/*.[0-9]; do if [ -f $$f ]; then \
	    s=$${f##*.}; install -d -m 0755 $(MANDIR)/man$$s; \
	    install -m 0644 $$f $(MANDIR)/man$$s/; fi; done
	install -d -m 0755 $(COMPDIR_BASH) $(COMPDIR_ZSH)
	install -m 0644 shell-hooks/completion.bash $(COMPDIR_BASH)/deliberate
	install -m 0644 shell-hooks/_deliberate $(COMPDIR_ZSH)/_deliberate

uninstall:
	rm -f $(BINDIR)/deliberate $(BINDIR)/deliberated
	rm -rf $(LIBDIR) $(SHAREDIR)
	rm -f $(COMPDIR_BASH)/deliberate $(COMPDIR_ZSH)/_deliberate
	for f in man/*.[0-9]; do if [ -f $$f ]; then \
	    s=$${f##*.}; rm -f $(MANDIR)/man$$s/$${f##*/}; fi; done

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
