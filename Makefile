# binform: schemas -> bfgen -> generated C -> runtime, CLI, tests.
BUILD := build
CC := gcc
# Release builds (libraries, binform, bfgen) at -O2; the sanitizer build of the tests stays at
# -O1: SAN comes after CFLAGS_COMMON wherever both are used, and the last -O wins.
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -O2 -g
# -g1 (line tables only, last -g wins too): the sanitizers' reports still name file and line,
# and gcc skips variable tracking, a third of the sanitizer build's time on the large
# generated files (SAN_DEBUG=-g for a debugger's view of local variables).
SAN_DEBUG ?= -g1
SAN := -O1 $(SAN_DEBUG) -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# The sanitizer executables linked at a fixed address: a position-independent one relocates
# its tables of pointers (reflection, ASan's globals) page by page at every start, and the
# tests start them hundreds of times (Criterion runs each test in a process of its own, the
# CLI tests run binform).
SAN_LINK := -no-pie
SHARED ?= $(abspath ../shared)

.DEFAULT_GOAL := all

# ---- Debian packages: installed while this file is read, before anything uses them ----
# The build's; the tests' (the console ROM needs gcc-mips-linux-gnu and cen64, which needs a
# display: xvfb, xauth; the page tests need chromium, Pillow decodes DDS beside ours); the fuzzers' (clang and libFuzzer).
BUILD_PKGS := gcc make pkg-config libyaml-dev liblua5.4-dev libpng-dev binutils-mips-linux-gnu
TEST_PKGS := libcriterion-dev gcc-mips-linux-gnu cen64 xvfb xauth chromium python3-pil python3-yaml
FUZZ_PKGS := clang libclang-rt-14-dev
# Which of them a run needs follows from its goals: none to clean, the build's to build,
# generate and install, the fuzzers' too for fuzz*, the tests' too for everything else (test,
# n64-rom-test, a test binary, ...). They are installed here, before the rest of this file is
# read, so the tool checks below (command -v cen64, mips-linux-gnu-gcc, pkg-config) see what a
# first run on a fresh machine has just installed, and no rule can run before them. A stamp
# per group, newer than this file and .ci/deps.sh, skips the look-up; make -n installs nothing.
DEPS_NONE_GOALS := clean uninstall
DEPS_BUILD_GOALS := all deps demo generate check-generated install docs doc-coverage c99-check n64 bench
DEPS_GOALS := $(or $(MAKECMDGOALS),all)
DEPS_GROUPS := $(if $(filter-out $(DEPS_NONE_GOALS),$(DEPS_GOALS)),build) \
	$(if $(filter-out $(DEPS_NONE_GOALS) $(DEPS_BUILD_GOALS) fuzz%,$(DEPS_GOALS)),test) \
	$(if $(filter fuzz%,$(DEPS_GOALS)),fuzz)
DEPS_PKGS_build := $(BUILD_PKGS)
DEPS_PKGS_test := $(TEST_PKGS)
DEPS_PKGS_fuzz := $(FUZZ_PKGS)
DEPS_DRY_RUN := $(findstring n,$(filter-out -%,$(firstword $(MAKEFLAGS))))
deps_install = $(shell stamp=$(BUILD)/.deps-$(1); \
	{ [ $$stamp -nt Makefile ] && [ $$stamp -nt .ci/deps.sh ]; } || \
	{ sh .ci/deps.sh $(DEPS_PKGS_$(1)) && mkdir -p $(BUILD) && touch $$stamp; } || echo failed)
ifeq ($(DEPS_DRY_RUN),)
$(foreach g,$(DEPS_GROUPS),$(if $(call deps_install,$(g)),$(error the $(g) packages could not be installed: \
	$(DEPS_PKGS_$(g)))))
endif
# Nothing left to do for these: the packages came with reading this file.
deps test-deps:
	@:

SCHEMAS := $(sort $(wildcard schemas/*.yaml))
FORMATS := $(basename $(notdir $(SCHEMAS)))
TEMPLATES := $(wildcard generator/templates/*.lua)

RUNTIME_SRC := $(wildcard runtime/*.c)
GENERATOR_SRC := $(wildcard generator/*.c)
GENERATED_SRC := $(wildcard generated/*.c)
# The renderer's freestanding scene code (n64/scene/README.md).
SCENE_SRC := $(wildcard n64/scene/*.c)

BFGEN := $(BUILD)/bin/bfgen
# binform's one version, defined in runtime/bf_version.h: both tools' --version, the shared
# libraries' names, the .pc files, the man pages and the generated headers' check read it.
VERSION := $(shell sed -n 's/^\#define BF_RUNTIME_VERSION "\(.*\)"/\1/p' runtime/bf_version.h)
VERSION_MAJOR := $(firstword $(subst ., ,$(VERSION)))
RUNTIME_LIB := $(BUILD)/lib/libbfruntime.a
GENERATED_LIB := $(BUILD)/lib/libbfgenerated.a
RUNTIME_SO := $(BUILD)/lib/libbfruntime.so.$(VERSION)
GENERATED_SO := $(BUILD)/lib/libbfgenerated.so.$(VERSION)
SAN_LIB := $(BUILD)/san/libbinform-san.a
BINFORM := $(BUILD)/bin/binform
BINFORM_SRC := $(wildcard cli/binform/*.c)
SAN_BINFORM := $(BUILD)/san/bin/binform
# The explain page's style and script, built in (below: ---- command-line tools ----).
EXPLAIN_PAGE_FILES := cli/binform/explain_page.css cli/binform/explain_page.js
EXPLAIN_PAGE_C := $(BUILD)/gen/explain_page.c
EXPLAIN_PAGE_O := $(BUILD)/obj/gen/explain_page.o

# generated/ is searched for "quoted" includes only: a format may be named like a system or
# library header (png, zlib, stdio, string, ...), and its png.h must not stand in for <png.h>.
INCLUDES := -Iruntime -iquote generated
TEST_BINS :=
# What `make test` builds before it runs anything (the test binaries and TEST_BUILD), and the
# make targets it runs beside the test binaries (TEST_STEPS); the included makefiles add theirs.
TEST_BUILD :=
TEST_STEPS :=

.PHONY: all deps test-deps generate check-generated test demo bench clean install uninstall test-install
all: $(BFGEN) $(RUNTIME_LIB) $(GENERATED_LIB) $(RUNTIME_SO) $(GENERATED_SO) $(BUILD)/bin/t3dm_summary $(BUILD)/bin/t3dm_torus $(BINFORM)

# ---- the generator ----
GEN_CFLAGS = $(CFLAGS_COMMON) -Iruntime $(shell pkg-config --cflags yaml-0.1 lua5.4) \
	-DBFGEN_TEMPLATE_DIR='"$(abspath generator/templates)"'
GEN_LIBS = $(shell pkg-config --libs yaml-0.1 lua5.4)

$(BUILD)/obj/generator/%.o: generator/%.c generator/*.h runtime/bf_version.h
	@mkdir -p $(dir $@)
	$(CC) $(GEN_CFLAGS) -c $< -o $@
$(BFGEN): $(patsubst %.c,$(BUILD)/obj/%.o,$(GENERATOR_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $^ -o $@ $(GEN_LIBS)

# ---- runtime and generated code (plain, and with sanitizers for the tests) ----
# Each object depends on the headers it includes, as gcc lists them in OBJ.d (-MMD): a new
# format recompiles its own files and those that include formats.h, not everything. An object
# without its .d (built before there were any) is rebuilt once: OBJ.d is then a missing
# prerequisite with an empty rule, so make takes it as changed.
DEPFLAGS := -MMD -MP
$(BUILD)/obj/%.o: %.c $(BUILD)/obj/%.d runtime/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(DEPFLAGS) $(INCLUDES) -c $< -o $@
$(BUILD)/san/%.o: %.c $(BUILD)/san/%.d runtime/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(SAN_OPT) $(DEPFLAGS) $(INCLUDES) -c $< -o $@
DEP_FILES = $(foreach d,obj san,$(patsubst %.c,$(BUILD)/$(d)/%.d,$(RUNTIME_SRC) $(GENERATED_SRC) $(SCENE_SRC) $(BINFORM_SRC)))
$(DEP_FILES):
-include $(wildcard $(DEP_FILES))
# Other objects built by these rules (a generator file for a test) take their .d as it comes.
$(BUILD)/obj/%.d $(BUILD)/san/%.d: ;
# The generated writers, validators and reflection tables at -O0 in the sanitizer build: at
# -O1 they took 16 of its 42 s of CPU, at -O0 6 s, and the tests spend little time in them
# (about 4 s more in all): the readers and views, kept at -O1, are what the tests run. The
# sanitizers check -O0 code at least as closely.
SAN_COLD_GENERATED := $(filter %_write.c %_validate.c %_meta.c %/formats.c,$(GENERATED_SRC))
$(patsubst %.c,$(BUILD)/san/%.o,$(SAN_COLD_GENERATED)): SAN_OPT := -O0

# The generated code in the release library with line tables only (-g1, the last -g wins):
# full -g spends a quarter of these objects' -O2 compile in variable tracking, the largest
# part of the release build. Backtraces and profiles still name file and line;
# GENERATED_DEBUG=-g for a debugger's view of the generated functions' variables.
GENERATED_DEBUG ?= -g1
$(patsubst %.c,$(BUILD)/obj/%.o,$(GENERATED_SRC)): CFLAGS_COMMON += $(GENERATED_DEBUG)

# The libraries' objects position-independent: the same objects go into the static libraries and
# the shared ones (libbfruntime.so.VERSION, libbfgenerated.so.VERSION) that other languages load.
$(patsubst %.c,$(BUILD)/obj/%.o,$(RUNTIME_SRC) $(GENERATED_SRC)): CFLAGS_COMMON += -fPIC

$(RUNTIME_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(RUNTIME_SRC))
	@mkdir -p $(dir $@) && rm -f $@
	ar rcs $@ $^
$(GENERATED_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(GENERATED_SRC))
	@mkdir -p $(dir $@) && rm -f $@
	ar rcs $@ $^
# Shared libraries with a soname of the major version: libbfgenerated.so.1 needs libbfruntime.so.1.
$(RUNTIME_SO): $(patsubst %.c,$(BUILD)/obj/%.o,$(RUNTIME_SRC))
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(notdir $(RUNTIME_SO:.$(VERSION)=.$(VERSION_MAJOR))) $^ -o $@
$(GENERATED_SO): $(patsubst %.c,$(BUILD)/obj/%.o,$(GENERATED_SRC)) $(RUNTIME_SO)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(notdir $(GENERATED_SO:.$(VERSION)=.$(VERSION_MAJOR))) $^ -o $@ -lm
$(SAN_LIB): $(patsubst %.c,$(BUILD)/san/%.o,$(RUNTIME_SRC) $(GENERATED_SRC) $(SCENE_SRC))
	@mkdir -p $(dir $@) && rm -f $@
	ar rcs $@ $^

# ---- generation ----
generate: $(BFGEN)
	@sh generator/sync_generated.sh $(BFGEN) generated $(BUILD)/genscratch $(SCHEMAS)
# Plain `make` (any goal but these) keeps generated/ in line by itself: when bfgen, a schema or
# a template changed, or a schema was added or removed (the time of the schemas/ folder), this
# included file is remade first: generated/ is brought in line, stale files deleted, and make
# reads this Makefile again, with the generated sources as they now are.
# AUTO_GENERATE=no leaves generated/ as it is.
GENERATED_MK := $(BUILD)/generated.mk
AUTO_GENERATE ?= yes
ifeq ($(AUTO_GENERATE)$(filter clean uninstall generate check-generated deps test-deps,$(MAKECMDGOALS)),yes)
-include $(GENERATED_MK)
endif
$(GENERATED_MK): $(BFGEN) $(SCHEMAS) $(TEMPLATES) schemas
	@sh generator/sync_generated.sh $(BFGEN) generated $(BUILD)/genscratch $(SCHEMAS)
	@echo "# generated/ was brought in line with schemas/ when this file was written" > $@
# generated/ is what bfgen writes, no more (a file it no longer writes is stale), it is what
# is committed (plain make may have regenerated it), and the schemas and the C stay within
# 160 columns.
check-generated: $(BFGEN)
	$(BFGEN) --check --out generated $(SCHEMAS)
	@rm -rf $(BUILD)/gencheck && mkdir -p $(BUILD)/gencheck && $(BFGEN) --out $(BUILD)/gencheck $(SCHEMAS) >/dev/null
	@cd generated && find . -type f | sort > $(abspath $(BUILD))/gencheck.have
	@cd $(BUILD)/gencheck && find . -type f | sort > $(abspath $(BUILD))/gencheck.want
	@diff $(BUILD)/gencheck.want $(BUILD)/gencheck.have >/dev/null || \
		{ echo "generated/ differs from what bfgen writes in its files (< missing, > stale):"; \
		  diff $(BUILD)/gencheck.want $(BUILD)/gencheck.have | grep '^[<>]'; exit 1; }
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -n "$$(git status --porcelain -- generated)" ]; then \
		echo "generated/ is not what is committed (make regenerated it from the schemas: commit it):"; \
		git status --porcelain -- generated; exit 1; fi
	@awk 'length > 160 { print FILENAME ":" FNR ": " length " columns, over 160"; n++ } END { exit n > 0 }' \
		generated/*.c generated/*.h $(SCHEMAS)

# The runtime and the generated code claim C99: hold them to it, pedantically (make test runs it).
.PHONY: c99-check
c99-check:
	@set -e; for f in $(RUNTIME_SRC) $(GENERATED_SRC); do \
		$(CC) -std=c99 -pedantic -Wall -Wextra -Werror $(INCLUDES) -fsyntax-only $$f; done
	@echo "c99-check: the runtime and generated/ compile as C99 with -pedantic"
TEST_STEPS += c99-check

# ---- tests (Criterion, under ASan + UBSan) ----
# The test files, in folders by the part they test (tests/n64 is test_n64's, n64/n64.mk); each
# tests/PART/test_NAME.c is built as $(BUILD)/tests/test_NAME, found through vpath.
TEST_PARTS := cli formats generator rom runtime scene
TEST_SRC := $(sort $(foreach p,$(TEST_PARTS),$(wildcard tests/$(p)/test_*.c)))
vpath test_%.c $(addprefix tests/,$(TEST_PARTS))
TEST_CFLAGS = $(CFLAGS_COMMON) $(SAN) $(INCLUDES) -In64/scene -Itests/support -Icli/binform -DBF_SHARED_DIR='"$(SHARED)"' \
	-DBF_PROJECT_DIR='"$(abspath .)"'
# binform's JSON parser, writer and dump are the tests' too.
TEST_SUPPORT := $(filter-out %/lazy_git.c,$(wildcard tests/support/*.c)) cli/binform/json_parse.c cli/binform/json.c cli/binform/dump.c
# Criterion's libgit2 initialized only when a diff is made (tests/support/lazy_git.c): linked
# into every test binary as an object, so that its definitions are the ones Criterion gets.
TEST_LAZY_GIT := $(BUILD)/san/tests/support/lazy_git.o

# Small schemas that exercise each language construct, generated for the tests only.
TEST_SCHEMAS := $(sort $(wildcard tests/schemas/*.yaml))
TESTGEN := $(BUILD)/testgen
# Made anew each time: files a new bfgen no longer writes must not linger into the test library.
$(TESTGEN)/.stamp: $(BFGEN) $(TEST_SCHEMAS) $(TEMPLATES)
	@rm -rf $(TESTGEN) && mkdir -p $(TESTGEN)
	$(if $(TEST_SCHEMAS),$(BFGEN) --out $(TESTGEN) $(TEST_SCHEMAS))
	@touch $@

# The views' agreement checks with the struct reader (<format>_view_same.h/.c), for the tests
# only: generated beside the build, not into generated/, and compiled into the test library.
VIEW_SAME := $(BUILD)/viewsame
$(VIEW_SAME)/.stamp: $(BFGEN) $(SCHEMAS) $(TEMPLATES)
	@rm -rf $(VIEW_SAME) && mkdir -p $(VIEW_SAME)
	$(BFGEN) --emit view-same --out $(VIEW_SAME) $(SCHEMAS)
	@touch $@

# The test helpers, the test schemas' code and the agreement checks are compiled once, into
# one library every test links. Which files bfgen writes for the test schemas is known only after it ran,
# so they are compiled by the recipe (in parallel), not by pattern rules.
TEST_LIB := $(BUILD)/san/libtestsupport.a
# The test files and the test schemas' code at TEST_OPT, -O0: little of what the tests run is
# theirs (the library, binform, the helpers and the renderer keep SAN's -O1), the sanitizers
# check them as closely, and gcc compiles them in half the time.
TEST_OPT ?= -O0
# ...except test_badinput, whose own code walks every document it reads (tests/fuzz/bf_walk.h):
# at -O0 it runs longer than it compiles faster. private: not for the test library it needs.
$(BUILD)/tests/test_badinput: private TEST_OPT := -O1
$(BUILD)/tests/test_badinput: tests/fuzz/bf_walk.h
# The test library has the explain page's files too: test_explain compiles explain_html.c in.
TEST_SUPPORT_OBJS := $(patsubst %.c,$(BUILD)/san/%.o,$(TEST_SUPPORT)) $(EXPLAIN_PAGE_O)
$(BUILD)/san/tests/support/%.o: tests/support/%.c $(wildcard tests/support/*.h) cli/binform/json_parse.h runtime/*.h $(wildcard generated/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -c $< -o $@
$(TEST_LIB): $(TESTGEN)/.stamp $(VIEW_SAME)/.stamp $(TEST_SUPPORT_OBJS)
	@rm -rf $(TESTGEN)/obj && mkdir -p $(TESTGEN)/obj
	@ls $(TESTGEN)/*.c | grep -v '/formats.c$$' | xargs -r -P $$(nproc) -I{} \
		sh -c '$(CC) $(TEST_CFLAGS) $(TEST_OPT) -iquote $(TESTGEN) -c {} -o $(TESTGEN)/obj/$$(basename {} .c).o'
	@ls $(VIEW_SAME)/*.c | xargs -r -P $$(nproc) -I{} \
		sh -c '$(CC) $(TEST_CFLAGS) $(TEST_OPT) -iquote $(VIEW_SAME) -c {} -o $(TESTGEN)/obj/$$(basename {} .c).o'
	@rm -f $@
	ar rcs $@ $(TEST_SUPPORT_OBJS) $(TESTGEN)/obj/*.o

$(BUILD)/tests/test_%: test_%.c $(TEST_LAZY_GIT) $(TEST_LIB) $(SAN_LIB) $(wildcard tests/support/*.h) $(SAN_BINFORM)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TEST_OPT) $(SAN_LINK) -iquote $(TESTGEN) -iquote $(VIEW_SAME) $< $(TEST_LAZY_GIT) $(TEST_LIB) $(SAN_LIB) -o $@ -lcriterion -lm

# test_c_wrap tests the generator's line breaking itself: it links c_wrap.c, nothing else.
$(BUILD)/tests/test_c_wrap: tests/generator/test_c_wrap.c $(BUILD)/san/generator/c_wrap.o generator/c_wrap.h $(TEST_LAZY_GIT)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TEST_OPT) $(SAN_LINK) -Igenerator $< $(BUILD)/san/generator/c_wrap.o $(TEST_LAZY_GIT) -o $@ -lcriterion

# test_texture_codec tests the texture decoders alone (and against Pillow): it links them only.
TEXTURE_CODEC_OBJS := $(BUILD)/san/cli/binform/texture_gx.o $(BUILD)/san/cli/binform/texture_dxt.o
$(BUILD)/tests/test_texture_codec: tests/cli/test_texture_codec.c $(TEXTURE_CODEC_OBJS) cli/binform/texture_codec.h $(TEST_LAZY_GIT)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TEST_OPT) $(SAN_LINK) $< $(TEXTURE_CODEC_OBJS) $(TEST_LAZY_GIT) -o $@ -lcriterion

# test_textures reads the PNGs binform writes: libpng besides the usual.
$(BUILD)/tests/test_textures: tests/cli/test_textures.c $(TEST_LAZY_GIT) $(TEST_LIB) $(SAN_LIB) $(wildcard tests/support/*.h) $(SAN_BINFORM)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TEST_OPT) $(SAN_LINK) -iquote $(TESTGEN) $< $(TEST_LAZY_GIT) $(TEST_LIB) $(SAN_LIB) -o $@ -lcriterion -lm \
		$(BINFORM_LIBS)

# test_template_lib tests the templates' C helpers through Lua: it links them and Lua, nothing else.
$(BUILD)/tests/test_template_lib: tests/generator/test_template_lib.c generator/template_lib.c generator/template_lib.h \
		$(TEST_LAZY_GIT)
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TEST_OPT) $(SAN_LINK) -Igenerator $(shell pkg-config --cflags lua5.4) $< generator/template_lib.c \
		$(TEST_LAZY_GIT) -o $@ -lcriterion $(shell pkg-config --libs lua5.4)

TEST_BINS += $(patsubst %.c,$(BUILD)/tests/%,$(notdir $(TEST_SRC)))

-include n64/n64.mk
-include n64/scene/scene.mk
-include n64/rom/rom.mk
-include generator/docs.mk
-include tests/fuzz/fuzz.mk
-include tests/bfgen/bfgen.mk
-include tests/kst/kst.mk

# `make test` in two phases, each with TEST_JOBS jobs even when make was started without -j
# (a make started with -j keeps its own): everything is built first, then the test binaries
# and TEST_STEPS run TEST_JOBS at a time, the slowest first. Each writes its output to
# $(TEST_LOG_DIR)/NAME.log and prints one line; a failure prints its whole log and is listed at
# the end (-k: the others still run).
TEST_JOBS ?= 2
TEST_LOG_DIR := $(BUILD)/test-logs
TEST_BUILD += $(BFGEN) $(TEST_BINS) all $(BUILD)/man/.stamp
TEST_STEPS += test-install test-make-fresh test-make-schemas test-make-summary test-golden-outputs
TEST_SLOWEST := test_badinput test-make-fresh test_docs_browser test_views n64-rom-test test_dump_build test_n64
TEST_RUNS = $(addprefix test-run/,$(foreach t,$(TEST_SLOWEST),$(filter $(t),$(notdir $(TEST_BINS)) $(TEST_STEPS))) \
	$(filter-out $(TEST_SLOWEST),$(notdir $(TEST_BINS)) $(TEST_STEPS)))
test_make_jobs = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS))

.PHONY: test-build test-run $(addprefix test-run/,$(notdir $(TEST_BINS)) $(TEST_STEPS))
test:
	@$(MAKE) --no-print-directory $(test_make_jobs) test-build
	@rm -rf $(TEST_LOG_DIR) && mkdir -p $(TEST_LOG_DIR)
	@status=0; $(MAKE) --no-print-directory $(test_make_jobs) -k -Otarget test-run || { status=1; \
		echo "== FAILED: $$(cd $(TEST_LOG_DIR) && ls *.failed | sed 's/\.failed$$//' | tr '\n' ' ')"; \
		echo "   (logs: $(TEST_LOG_DIR)/NAME.log)"; }; \
	echo "== make test: $(words $(TEST_RUNS)) runs (logs: $(TEST_LOG_DIR))"; \
	sh tests/summary.sh $(TEST_LOG_DIR); exit $$status
test-build: $(TEST_BUILD)
test-run: $(TEST_RUNS)

# run_logged NAME COMMAND: runs COMMAND with its output in NAME.log; one line when it passes,
# the whole log and a NAME.failed mark when it fails.
run_logged = start=$$(date +%s); \
	if $(2) > $(TEST_LOG_DIR)/$(1).log 2>&1; then \
		echo "== $(1): passed in $$(($$(date +%s) - start)) s $$(sed -n 's/^\[====\] Synthesis: //p' $(TEST_LOG_DIR)/$(1).log)"; \
	else status=$$?; touch $(TEST_LOG_DIR)/$(1).failed; \
		echo "== $(1): FAILED (exit $$status); its output ($(TEST_LOG_DIR)/$(1).log):"; \
		cat $(TEST_LOG_DIR)/$(1).log; echo "== end of $(1)"; exit 1; fi
$(addprefix test-run/,$(notdir $(TEST_BINS))): test-run/%:
	@$(call run_logged,$*,env ASAN_OPTIONS=detect_leaks=1 BF_SHARED_DIR=$(SHARED) RSP_GOLDEN_DIR=$(SHARED)/rsp-golden \
		$(BUILD)/tests/$* --jobs $(TEST_JOBS) --tap=$(TEST_LOG_DIR)/$*.tap)
$(addprefix test-run/,$(TEST_STEPS)): test-run/%:
	@$(call run_logged,$*,$(MAKE) --no-print-directory $*)

# ---- command-line tools ----
# binform links the renderer: n64/host_run and n64/driver with the microcode built in, the RSP
# interpreter, the software RDP, n64/scene; and libpng for render's pictures.
BINFORM_RENDER_LIBS = $(N64_RENDER_LIB) $(SCENE_LIB) $(N64_LIB) $(RDP_LIB)
BINFORM_SAN_RENDER_LIBS = $(N64_RENDER_SAN_LIB) $(N64_SAN_LIB) $(RDP_SAN_LIB)
BINFORM_CFLAGS = $(INCLUDES) -In64/host_run $(shell pkg-config --cflags libpng 2>/dev/null)
BINFORM_LIBS = $(shell pkg-config --libs libpng 2>/dev/null || echo -lpng) -lm -pthread

# One object per source file, not one gcc call for all: make -j overlaps them with the rest of
# the build (the two binform builds were the longest single steps of make test). -pthread as
# when they were compiled and linked in one call: some files rely on what it declares (fileno).
BINFORM_HEADERS = $(BUILD)/obj/cli/binform/%.d $(wildcard cli/binform/*.h) runtime/*.h $(wildcard n64/host_run/*.h n64/scene/*.h)
$(BUILD)/obj/cli/binform/%.o: cli/binform/%.c $(BINFORM_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(DEPFLAGS) $(BINFORM_CFLAGS) -pthread -c $< -o $@
$(BUILD)/san/cli/binform/%.o: cli/binform/%.c $(subst /obj/,/san/,$(BINFORM_HEADERS))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(DEPFLAGS) $(BINFORM_CFLAGS) -pthread -c $< -o $@

$(BINFORM): $(patsubst %.c,$(BUILD)/obj/%.o,$(BINFORM_SRC)) $(BINFORM_RENDER_LIBS) $(GENERATED_LIB) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(patsubst %.c,$(BUILD)/obj/%.o,$(BINFORM_SRC)) $(BINFORM_RENDER_LIBS) $(GENERATED_LIB) \
		$(RUNTIME_LIB) -o $@ $(BINFORM_LIBS)
$(BUILD)/bin/%: cli/%.c $(GENERATED_LIB) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(INCLUDES) $< $(GENERATED_LIB) $(RUNTIME_LIB) -o $@ -lm

# The CLI with sanitizers, for the tests.
$(SAN_BINFORM): $(patsubst %.c,$(BUILD)/san/%.o,$(BINFORM_SRC)) $(BINFORM_SAN_RENDER_LIBS) $(SAN_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(SAN_LINK) $(patsubst %.c,$(BUILD)/san/%.o,$(BINFORM_SRC)) $(BINFORM_SAN_RENDER_LIBS) \
		$(SAN_LIB) -o $@ $(BINFORM_LIBS)

# binform --schema (cli/binform/schema_cache.c) compiles a user's schema into a shared object
# that calls binform's own runtime: the runtime's objects linked whole (the object may call any
# of it) and exported; the runtime's headers built in, to compile the object against.
SCHEMA_HEADERS_C := $(BUILD)/gen/runtime_headers.c
$(SCHEMA_HEADERS_C): cli/binform/embed_headers.sh $(wildcard runtime/*.h)
	@mkdir -p $(dir $@)
	sh cli/binform/embed_headers.sh $@ $(wildcard runtime/*.h)
$(BUILD)/obj/gen/runtime_headers.o: $(SCHEMA_HEADERS_C) cli/binform/runtime_headers.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Icli/binform -c $< -o $@
SCHEMA_LINK := $(BUILD)/obj/gen/runtime_headers.o -Wl,--dynamic-list=cli/binform/runtime.exports
$(BINFORM): $(BUILD)/obj/gen/runtime_headers.o cli/binform/runtime.exports
$(BINFORM): private CFLAGS_COMMON += $(patsubst %.c,$(BUILD)/obj/%.o,$(RUNTIME_SRC)) $(SCHEMA_LINK)
$(SAN_BINFORM): $(BUILD)/obj/gen/runtime_headers.o cli/binform/runtime.exports $(patsubst %.c,$(BUILD)/san/%.o,$(RUNTIME_SRC))
$(SAN_BINFORM): private CFLAGS_COMMON += $(patsubst %.c,$(BUILD)/san/%.o,$(RUNTIME_SRC)) $(SCHEMA_LINK)

# The explain page's style and script (explain_html.c), edited as the files they are and built
# into binform as C arrays, the way n64/host_run embeds the microcode.
$(EXPLAIN_PAGE_C): cli/binform/embed_files.sh $(EXPLAIN_PAGE_FILES)
	@mkdir -p $(dir $@)
	sh cli/binform/embed_files.sh $@ explain_page.h explain_page_css cli/binform/explain_page.css \
		explain_page_js cli/binform/explain_page.js
$(EXPLAIN_PAGE_O): $(EXPLAIN_PAGE_C) cli/binform/explain_page.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Icli/binform -c $< -o $@
$(BINFORM) $(SAN_BINFORM): $(EXPLAIN_PAGE_O)
$(BINFORM) $(SAN_BINFORM): private CFLAGS_COMMON += $(EXPLAIN_PAGE_O)

# ---- installing: make install PREFIX=/usr/local DESTDIR= ----
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BIN := $(DESTDIR)$(PREFIX)/bin
INSTALL_INCLUDE := $(DESTDIR)$(PREFIX)/include/binform
INSTALL_LIB := $(DESTDIR)$(PREFIX)/lib
INSTALL_PC := $(INSTALL_LIB)/pkgconfig
INSTALL_SHARE := $(DESTDIR)$(PREFIX)/share/binform
INSTALL_MAN := $(DESTDIR)$(PREFIX)/share/man/man1
INSTALLED_HEADERS := $(wildcard runtime/*.h) $(wildcard generated/*.h)
MAN_DIR := $(BUILD)/man

$(MAN_DIR)/.stamp: $(BINFORM) $(BFGEN) install/man.sh
	sh install/man.sh $(BINFORM) $(BFGEN) $(MAN_DIR) $(VERSION)
	@touch $@

install: all $(MAN_DIR)/.stamp
	install -d $(INSTALL_BIN) $(INSTALL_INCLUDE) $(INSTALL_PC) $(INSTALL_MAN) \
		$(INSTALL_SHARE)/templates $(INSTALL_SHARE)/schemas $(INSTALL_SHARE)/docs
	install -m 755 $(BINFORM) $(BFGEN) $(INSTALL_BIN)
	install -m 644 $(INSTALLED_HEADERS) $(INSTALL_INCLUDE)
	install -m 644 $(RUNTIME_LIB) $(GENERATED_LIB) $(INSTALL_LIB)
	install -m 755 $(RUNTIME_SO) $(GENERATED_SO) $(INSTALL_LIB)
	for so in $(notdir $(RUNTIME_SO) $(GENERATED_SO)); do \
		ln -sf $$so $(INSTALL_LIB)/$${so%.$(VERSION)}.$(VERSION_MAJOR) && ln -sf $$so $(INSTALL_LIB)/$${so%.$(VERSION)}; done
	for pc in binform-runtime binform-formats; do \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@FORMATS@|$(FORMATS)|' \
			install/$$pc.pc.in > $(INSTALL_PC)/$$pc.pc; done
	install -m 644 $(TEMPLATES) $(INSTALL_SHARE)/templates
	install -m 644 $(SCHEMAS) $(INSTALL_SHARE)/schemas
	install -m 644 generator/LANGUAGE.md $(INSTALL_SHARE)/docs
	install -m 644 $(wildcard generated/docs/*) $(INSTALL_SHARE)/docs
	install -m 644 $(MAN_DIR)/*.1 $(INSTALL_MAN)

uninstall:
	rm -f $(INSTALL_BIN)/binform $(INSTALL_BIN)/bfgen
	rm -f $(addprefix $(INSTALL_INCLUDE)/,$(notdir $(INSTALLED_HEADERS)))
	rm -f $(INSTALL_LIB)/$(notdir $(RUNTIME_LIB)) $(INSTALL_LIB)/$(notdir $(GENERATED_LIB))
	rm -f $(addprefix $(INSTALL_LIB)/,$(foreach so,$(notdir $(RUNTIME_SO) $(GENERATED_SO)),$(so) \
		$(so:.$(VERSION)=.$(VERSION_MAJOR)) $(so:.$(VERSION)=)))
	rm -f $(INSTALL_PC)/binform-runtime.pc $(INSTALL_PC)/binform-formats.pc
	rm -f $(INSTALL_MAN)/binform.1 $(INSTALL_MAN)/binform-*.1 $(INSTALL_MAN)/bfgen.1
	rm -rf $(INSTALL_SHARE)
	-rmdir $(INSTALL_INCLUDE) 2>/dev/null

# Installs into a temporary prefix and uses it from outside the tree (tests/install/run.sh).
test-install: all
	sh tests/install/run.sh $(SHARED)

# The Makefile itself: on a simulated fresh machine (packages installed before anything uses
# them), and with schemas added and removed (plain make follows them); make test's summary on
# logs made up for it.
.PHONY: test-make-fresh test-make-schemas test-make-summary test-golden-outputs
test-make-fresh:
	@sh tests/make/fresh_machine.sh
test-make-schemas: all
	@sh tests/make/schema_added.sh $(BUILD)
test-make-summary:
	@sh tests/make/summary_lists_skips.sh
# What dump, check and explain print for every sample and fixture, whole and cut short, against
# the hashes recorded in tests/golden/outputs.sha256 (`make golden-outputs` records them anew,
# for a change meant to be seen).
test-golden-outputs: $(BINFORM)
	@sh tests/golden/outputs.sh compare $(BINFORM) $(SHARED)
golden-outputs: $(BINFORM)
	@sh tests/golden/outputs.sh record $(BINFORM) $(SHARED)

# ---- the demo: regenerate the bindings, then read the project's own model ----
DEMO_MODEL := tests/fixtures/demo/pyramid
demo:
	$(MAKE) --no-print-directory generate
	$(MAKE) --no-print-directory all
	@echo "== what the generated reader finds in $(DEMO_MODEL).t3dm"
	$(BUILD)/bin/t3dm_summary $(DEMO_MODEL).t3dm $(DEMO_MODEL).0.sdata
	@echo "== a torus built from scratch by the generated builder"
	@mkdir -p $(BUILD)/demo
	$(BUILD)/bin/t3dm_torus $(BUILD)/demo
	$(BINFORM) check $(BUILD)/demo/torus.t3dm $(BUILD)/demo/torus.0.sdata
	$(BUILD)/bin/t3dm_summary $(BUILD)/demo/torus.t3dm $(BUILD)/demo/torus.0.sdata
	@echo "== both drawn by the N64 renderer: the project's RSP microcode on the RSP interpreter,"
	@echo "   then the software RDP (the pyramid at a frame of its animation)"
	$(BINFORM) render $(DEMO_MODEL).t3dm -o $(BUILD)/demo/pyramid.png --anim spin --time 0.3 --stats
	$(BINFORM) render $(BUILD)/demo/torus.t3dm -o $(BUILD)/demo/torus.png --yaw 20 --pitch 40 --stats
	@echo "== pictures: $(BUILD)/demo/pyramid.png and $(BUILD)/demo/torus.png"

# ---- benchmarks: speed and memory numbers, never pass/fail ----
BENCH_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g $(INCLUDES)
$(BUILD)/bench/%: tests/bench/%.c $(GENERATED_LIB) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $< $(GENERATED_LIB) $(RUNTIME_LIB) -o $@
# BENCH_FILES: the size of the tree 'binform check -r --jobs' goes through.
BENCH_FILES ?= 100000
# bench_bfgen_cpu runs bfgen and needs no library.
$(BUILD)/bench/bench_bfgen_cpu: tests/bench/bench_bfgen_cpu.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $< -o $@
# Every bench's output goes through `| tee -a $(BENCH_LOG)`; its `bench: KEY VALUE` lines (the
# figures DESIGN.md and the issues ask for) are listed again at the end, as the summary. A new
# bench need only print such lines and have its output teed there too.
BENCH_LOG := $(BUILD)/bench/log
bench: $(BUILD)/bench/bench_t3dm_read $(BUILD)/bench/bench_t3dm_build $(BUILD)/bench/bench_t3dm_views $(BINFORM) $(BFGEN) \
		$(BUILD)/bench/bench_bfgen_cpu
	@mkdir -p $(dir $(BENCH_LOG)) && : > $(BENCH_LOG)
	@if [ -d $(SHARED)/samples/t3dm ]; then \
		$(BUILD)/bench/bench_t3dm_read $$(find $(SHARED)/samples/t3dm -name '*.t3dm' | sort) | tee -a $(BENCH_LOG); \
		$(BUILD)/bench/bench_t3dm_views $$(find $(SHARED)/samples/t3dm -name '*.t3dm' -o -name '*.sdata' | sort) | tee -a $(BENCH_LOG); \
	else echo "bench: $(SHARED)/samples not found; no reading to measure"; fi
	@echo "== building, replay-writing and validating T3DM models of growing size" | tee -a $(BENCH_LOG)
	@$(BUILD)/bench/bench_t3dm_build | tee -a $(BENCH_LOG)
	@$(BUILD)/bench/bench_bfgen_cpu 7 $(BUILD)/bench/bfgen_out $(BFGEN) $(SCHEMAS) | tee -a $(BENCH_LOG)
	@sh tests/bench/batch_check.sh $(BINFORM) $(SHARED) $(BENCH_FILES) | tee -a $(BENCH_LOG)
	@sh tests/bench/explain_page.sh $(BINFORM) $(SHARED) | tee -a $(BENCH_LOG)
	@sh tests/bench/build_memory.sh $(BINFORM) $(SHARED) | tee -a $(BENCH_LOG)
	@sh tests/bench/schema_bench.sh $(BINFORM) $(SHARED) | tee -a $(BENCH_LOG)
	@echo "== summary"
	@grep '^bench: ' $(BENCH_LOG) || echo "bench: (no figures)"

# n64-bench: the renderer microcode's RSP cycles per vertex and per triangle for every sample
# model and the demo's pyramid (n64/rsp/README.md, "Speed"); n64-profile: where they go, by label.
N64_BENCH := $(BUILD)/bench/bench_n64_render
N64_BENCH_MODELS = $(if $(wildcard $(SHARED)/samples/t3dm),$(sort $(shell find $(SHARED)/samples/t3dm -name '*.t3dm')))
N64_BENCH_SYMS := $(BUILD)/n64/rsp/render.syms
$(N64_BENCH): tests/bench/bench_n64_render.c $(BINFORM_RENDER_LIBS) $(GENERATED_LIB) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) -In64/host_run $< $(BINFORM_RENDER_LIBS) $(GENERATED_LIB) $(RUNTIME_LIB) -o $@ -lm
# hot code labels, and the overlays (cold or clip) as one
$(N64_BENCH_SYMS): $(N64_RSP_OUT)/render.elf
	{ $(N64_MIPS_OBJDUMP) -t $< | awk 'NF >= 4 && $$(NF-2) == ".text" && $$NF !~ /^\./ { print $$1, $$NF }'; \
	  $(N64_MIPS_OBJDUMP) -t $< | awk '$$NF == "ovl_cold_begin" { print $$1, "overlay(cold|clip)" }'; } > $@
.PHONY: n64-bench n64-profile
n64-bench: $(N64_BENCH)
	@$(if $(N64_BENCH_MODELS),,echo "n64-bench: $(SHARED)/samples/t3dm not found; the demo's pyramid only";) \
		$(N64_BENCH) $(N64_BENCH_MODELS) $(DEMO_MODEL).t3dm
n64-profile: $(N64_BENCH) $(N64_BENCH_SYMS)
	@$(N64_BENCH) --profile $(N64_BENCH_SYMS) $(N64_BENCH_MODELS) $(DEMO_MODEL).t3dm

clean:
	rm -rf $(BUILD)
