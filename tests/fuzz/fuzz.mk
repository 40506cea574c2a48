# Fuzzing the generated readers with libFuzzer (clang), one harness for every format.
#
#   make fuzz FORMAT=t3dm [ENTRY=model] [SECONDS=600]   one harness, until SECONDS or a finding
#   make fuzz-ci                                         every format and bfgen, FUZZ_CI_RUNS inputs each
#   make -j2 fuzz-campaign [CAMPAIGN_RUNS=10000000]      every format to CAMPAIGN_RUNS executions
#
# Seeds: the files under tests/fixtures, $(SHARED)/samples and tests/fuzz/regressions that
# bf_detect assigns to the format. The corpus grows in $(BUILD)/fuzz/corpus/FORMAT. Inputs
# that crash, leak, time out or break a property are copied to tests/fuzz/regressions/FORMAT/,
# which tests/formats/test_badinput.c replays in `make test`.
FUZZ_CC ?= clang
FORMAT ?= t3dm
ENTRY ?=
SECONDS ?= 600
FUZZ_CI_SECONDS ?= 150
# CI runs a fixed number of inputs from a fixed seed: the same result every time, so a run
# that passes before a submission passes in CI (longer, random runs are `make fuzz`'s job).
FUZZ_CI_RUNS ?= 15000
RUNS ?=
SEED ?= 0
# 4 KiB: every structure of every format fits (our fixtures do; larger seeds are truncated by
# libFuzzer), and a run makes about ten times the executions it makes at 64 KiB with the same
# coverage to within a few per cent (measured: j3d 14 300 exec/s vs 2 000). FUZZ_MAX_LEN=65536
# reaches the paths only large files take. 5 s is far beyond any honest read under ASan.
FUZZ_MAX_LEN ?= 4096
FUZZ_TIMEOUT ?= 5
FUZZ_DIR := $(BUILD)/fuzz
# The project is built with gcc; clang also warns about the generated code's unused
# `static inline` accessors and positional initializers that leave trailing members zero.
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -Wno-unused-function -Wno-missing-field-initializers -O1 -g \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-fsanitize-coverage-ignorelist=tests/fuzz/no_coverage.txt \
	$(INCLUDES) -Itests/fuzz

.PHONY: fuzz fuzz-ci fuzz-build

# One binary for every format (generated/*.c includes formats.c, the table it selects from);
# `make fuzz` picks the format with BF_FUZZ_FORMAT at run time, so fuzz-ci builds once.
FUZZ_BIN := $(FUZZ_DIR)/fuzz_reader
$(FUZZ_BIN): tests/fuzz/fuzz_reader.c tests/fuzz/bf_walk.h tests/fuzz/no_coverage.txt $(RUNTIME_SRC) $(GENERATED_SRC) \
		$(wildcard runtime/*.h generated/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) tests/fuzz/fuzz_reader.c $(RUNTIME_SRC) $(GENERATED_SRC) -o $@

$(FUZZ_DIR)/seeds-tool: tests/fuzz/fuzz_seeds.c $(GENERATED_LIB) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(INCLUDES) $< $(GENERATED_LIB) $(RUNTIME_LIB) -o $@

fuzz-build: $(FUZZ_BIN) $(FUZZ_DIR)/seeds-tool

# One worker, so that the rest of the machine stays usable. A finding stops the run and
# fails the target, after its input is kept as a regression file (named ENTRY-... when
# ENTRY was given, so that the replay uses that reader; otherwise every reader replays it).
fuzz: fuzz-build
	@rm -rf $(FUZZ_DIR)/seeds/$(FORMAT) $(FUZZ_DIR)/artifacts/$(FORMAT)
	@mkdir -p $(FUZZ_DIR)/seeds/$(FORMAT) $(FUZZ_DIR)/corpus/$(FORMAT) $(FUZZ_DIR)/artifacts/$(FORMAT)
	@$(FUZZ_DIR)/seeds-tool $(FORMAT) $(FUZZ_DIR)/seeds/$(FORMAT) tests/fixtures $(SHARED)/samples \
		tests/fuzz/regressions/$(FORMAT)
	@status=0; BF_FUZZ_FORMAT=$(FORMAT) BF_FUZZ_ENTRY=$(ENTRY) $(FUZZ_BIN) -max_total_time=$(SECONDS) \
		$(if $(RUNS),-runs=$(RUNS)) -seed=$(SEED) \
		-timeout=$(FUZZ_TIMEOUT) -max_len=$(FUZZ_MAX_LEN) -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/$(FORMAT)/ \
		$(FUZZ_DIR)/corpus/$(FORMAT) $(FUZZ_DIR)/seeds/$(FORMAT) || status=$$?; \
	for a in $(FUZZ_DIR)/artifacts/$(FORMAT)/*; do \
		[ -f "$$a" ] || continue; mkdir -p tests/fuzz/regressions/$(FORMAT); \
		cp "$$a" tests/fuzz/regressions/$(FORMAT)/$(if $(ENTRY),$(ENTRY)-)$$(basename "$$a"); \
		echo "fuzz: kept $$a as tests/fuzz/regressions/$(FORMAT)/$(if $(ENTRY),$(ENTRY)-)$$(basename "$$a")"; \
	done; exit $$status

# A campaign: every format (or CAMPAIGN_FORMATS) until CAMPAIGN_RUNS executions each, one
# format per job (`make -j2 fuzz-campaign`), each from its own seed. Logs go to
# $(FUZZ_DIR)/logs/FORMAT.log; the summary table (executions, seconds, coverage, findings) to
# $(FUZZ_DIR)/campaign.txt.
CAMPAIGN_RUNS ?= 10000000
CAMPAIGN_SECONDS ?= 86400
CAMPAIGN_FORMATS ?= $(FORMATS)
.PHONY: fuzz-campaign $(addprefix fuzz-campaign-,$(CAMPAIGN_FORMATS))
fuzz-campaign: $(addprefix fuzz-campaign-,$(CAMPAIGN_FORMATS))
	@printf '%-6s %12s %8s %8s %6s  %s\n' format executions seconds exec/s cov result > $(FUZZ_DIR)/campaign.txt
	@cat $(addprefix $(FUZZ_DIR)/logs/,$(addsuffix .row,$(CAMPAIGN_FORMATS))) >> $(FUZZ_DIR)/campaign.txt
	@cat $(FUZZ_DIR)/campaign.txt
$(addprefix fuzz-campaign-,$(CAMPAIGN_FORMATS)): fuzz-campaign-%: fuzz-build
	@mkdir -p $(FUZZ_DIR)/logs
	@start=$$(date +%s); status=0; \
	$(MAKE) --no-print-directory fuzz FORMAT=$* RUNS=$(CAMPAIGN_RUNS) SECONDS=$(CAMPAIGN_SECONDS) \
		SEED=$$(printf '%s' $* | cksum | cut -d' ' -f1) > $(FUZZ_DIR)/logs/$*.log 2>&1 || status=$$?; \
	end=$$(date +%s); log=$(FUZZ_DIR)/logs/$*.log; \
	runs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log | tail -1); \
	cov=$$(grep -o 'cov: [0-9]*' $$log | tail -1 | cut -d' ' -f2); \
	secs=$$((end - start)); [ $$secs -gt 0 ] || secs=1; \
	result=clean; [ $$status -eq 0 ] || result="FINDING (see $$log)"; \
	printf '%-6s %12s %8s %8s %6s  %s\n' $* "$${runs:-?}" $$secs $$(( $${runs:-0} / secs )) "$${cov:-?}" "$$result" \
		| tee $(FUZZ_DIR)/logs/$*.row; exit $$status

# CI: every format for a short time. Without a working libFuzzer this says so and skips.
fuzz-ci:
	@if ! command -v $(FUZZ_CC) >/dev/null 2>&1 || ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
		| $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1; then \
		echo "fuzz-ci: $(FUZZ_CC) with libFuzzer (-fsanitize=fuzzer) not available; skipping"; \
	else set -e; for f in $(FORMATS); do \
		echo "== fuzz $$f ($(FUZZ_CI_RUNS) inputs from seed 1, at most $(FUZZ_CI_SECONDS) s)"; \
		rm -rf $(FUZZ_DIR)/corpus/$$f; \
		$(MAKE) --no-print-directory fuzz FORMAT=$$f SECONDS=$(FUZZ_CI_SECONDS) RUNS=$(FUZZ_CI_RUNS) SEED=1; \
	done; \
	echo "== fuzz bfgen ($(FUZZ_CI_RUNS) inputs from seed 1, at most $(FUZZ_CI_SECONDS) s)"; \
	rm -rf $(FUZZ_DIR)/corpus/bfgen; \
	$(MAKE) --no-print-directory fuzz-bfgen SECONDS=$(FUZZ_CI_SECONDS) RUNS=$(FUZZ_CI_RUNS) SEED=1; fi

# ---- bfgen: schemas are input too ----
#
#   make fuzz-bfgen [SECONDS=600] [RUNS=N] [SEED=0]   bfgen's loader, model and checker
#
# Seeds: every schema of the project (schemas/, tests/schemas/), $(SHARED)/repro and the
# regression inputs in tests/fuzz/regressions/bfgen/, which test-bfgen-schemas also runs
# (tests/bfgen/bfgen.mk). Inputs up to FUZZ_BFGEN_MAX_LEN bytes (larger seeds are cut), with
# the schema language's words as a dictionary (bfgen.dict). The generator is written for gcc:
# two clang warnings are off (check.c's `!a | !b` evaluates both on purpose; ir_lua.c's
# macros repeat const).
FUZZ_BFGEN_MAX_LEN ?= 16384
FUZZ_BFGEN_BIN := $(FUZZ_DIR)/fuzz_bfgen
FUZZ_BFGEN_SRC := $(addprefix generator/,yaml_tree.c diag.c name_map.c expr.c model.c check.c suggest.c ir_lua.c)
$(FUZZ_BFGEN_BIN): tests/fuzz/fuzz_bfgen.c $(FUZZ_BFGEN_SRC) generator/*.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -Wall -Wextra -Werror -Wno-bitwise-instead-of-logical -Wno-duplicate-decl-specifier -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -fno-omit-frame-pointer -Iruntime -Igenerator $(shell pkg-config --cflags yaml-0.1 lua5.4) \
		tests/fuzz/fuzz_bfgen.c $(FUZZ_BFGEN_SRC) -o $@ $(shell pkg-config --libs yaml-0.1 lua5.4)

.PHONY: fuzz-bfgen
fuzz-bfgen: $(FUZZ_BFGEN_BIN)
	@rm -rf $(FUZZ_DIR)/seeds/bfgen $(FUZZ_DIR)/artifacts/bfgen
	@mkdir -p $(FUZZ_DIR)/seeds/bfgen $(FUZZ_DIR)/corpus/bfgen $(FUZZ_DIR)/artifacts/bfgen
	@for s in schemas/*.yaml tests/schemas/*.yaml $(wildcard $(SHARED)/repro/*.yaml $(SHARED)/repro/*/*.yaml) \
		$(wildcard tests/fuzz/regressions/bfgen/*); do \
		cp "$$s" $(FUZZ_DIR)/seeds/bfgen/$$(printf '%s' "$$s" | tr '/' '_'); done
	@status=0; $(FUZZ_BFGEN_BIN) -max_total_time=$(SECONDS) $(if $(RUNS),-runs=$(RUNS)) -seed=$(SEED) \
		-timeout=$(FUZZ_TIMEOUT) -max_len=$(FUZZ_BFGEN_MAX_LEN) -dict=tests/fuzz/bfgen.dict -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/bfgen/ \
		$(FUZZ_DIR)/corpus/bfgen $(FUZZ_DIR)/seeds/bfgen || status=$$?; \
	for a in $(FUZZ_DIR)/artifacts/bfgen/*; do \
		[ -f "$$a" ] || continue; mkdir -p tests/fuzz/regressions/bfgen; \
		cp "$$a" tests/fuzz/regressions/bfgen/$$(basename "$$a").yaml; \
		echo "fuzz: kept $$a as tests/fuzz/regressions/bfgen/$$(basename "$$a").yaml"; \
	done; exit $$status

# ---- random valid schemas ----
#
#   make fuzz-schemas [SCHEMA_FIRST=1] [SCHEMA_COUNT=200] [SCHEMA_EVERY=10] [SCHEMA_INPUTS=2000]
#
# SCHEMA_COUNT random schemas from tests/fuzz/schema_gen.c (what they cover: its opening
# comment): bfgen accepts each and its C compiles with the project's flags; every
# SCHEMA_EVERY-th is built with the sanitizers into fuzz_reader.c, fed SCHEMA_INPUTS inputs
# (random_inputs.c), and what reads must write back and read again byte for byte.
SCHEMA_FIRST ?= 1
SCHEMA_COUNT ?= 200
SCHEMA_EVERY ?= 10
SCHEMA_INPUTS ?= 2000
FUZZ_SCHEMAS_DIR := $(FUZZ_DIR)/schemas
FUZZ_SCHEMAS_OBJS := $(patsubst %.c,$(FUZZ_SCHEMAS_DIR)/obj/%.o,$(notdir $(RUNTIME_SRC)) random_inputs.c)
$(FUZZ_SCHEMAS_DIR)/obj/%.o: runtime/%.c runtime/*.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -Iruntime -c $< -o $@
$(FUZZ_SCHEMAS_DIR)/obj/random_inputs.o: tests/fuzz/random_inputs.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -c $< -o $@
$(FUZZ_SCHEMAS_DIR)/schema_gen: tests/fuzz/schema_gen.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $< -o $@

.PHONY: fuzz-schemas
fuzz-schemas: $(BFGEN) $(FUZZ_SCHEMAS_DIR)/schema_gen $(FUZZ_SCHEMAS_OBJS)
	@sh tests/fuzz/fuzz_schemas.sh $(BFGEN) $(FUZZ_SCHEMAS_DIR)/schema_gen "$(FUZZ_SCHEMAS_OBJS)" $(FUZZ_SCHEMAS_DIR)/work \
		$(SCHEMA_FIRST) $(SCHEMA_COUNT) $(SCHEMA_EVERY) $(SCHEMA_INPUTS)
