# Software RDP (n64/rdp/) and its golden harness. Included from n64/n64.mk,
# whose object rules ($(N64_OBJ), $(N64_SAN_OBJ)) and flags it reuses.
#   make rdp          the library, plain and sanitized
#   make rdp-golden   runs ../shared/rdp-golden (or $RDP_GOLDEN_DIR): "N/304 golden"
#   make rdp-bench    milliseconds of CPU time per 320x240 frame of a few thousand triangles

RDP_SRCS := $(wildcard n64/rdp/*.c)
RDP_GOLDEN_SRCS := $(filter-out n64/rdp/golden/rdpg_main.c n64/rdp/golden/rdp_bench.c,$(wildcard n64/rdp/golden/*.c))

RDP_LIB := $(BUILD)/lib/librdp.a
RDP_SAN_LIB := $(BUILD)/n64/librdp-san.a
RDP_GOLDEN_TOOL := $(BUILD)/n64/rdp-golden
RDP_BENCH_TOOL := $(BUILD)/n64/rdp-bench

# what the Criterion binary links in addition to the RSP parts
RDP_TEST_OBJS := $(RDP_GOLDEN_SRCS:%.c=$(N64_SAN_OBJ)/%.o)
RDP_TEST_INCLUDES := -I n64/rdp -I n64/rdp/golden

$(RDP_LIB): $(RDP_SRCS:%.c=$(N64_OBJ)/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(RDP_SAN_LIB): $(RDP_SRCS:%.c=$(N64_SAN_OBJ)/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(N64_OBJ)/n64/rdp/golden/%.o: N64_CFLAGS += -I n64/rdp
$(N64_SAN_OBJ)/n64/rdp/golden/%.o: N64_CFLAGS += -I n64/rdp

$(RDP_GOLDEN_TOOL): $(RDP_GOLDEN_SRCS:%.c=$(N64_OBJ)/%.o) $(N64_OBJ)/n64/rdp/golden/rdpg_main.o $(RDP_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -o $@ $^

$(RDP_BENCH_TOOL): $(N64_OBJ)/n64/rdp/golden/rdp_bench.o $(RDP_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -o $@ $^ -lm

.PHONY: rdp rdp-golden rdp-bench
rdp: $(RDP_LIB) $(RDP_SAN_LIB) $(RDP_GOLDEN_TOOL) $(RDP_BENCH_TOOL)

# time per 320x240 frame of 3000 shaded, textured, Z-buffered triangles
rdp-bench: $(RDP_BENCH_TOOL)
	@$(RDP_BENCH_TOOL)

# the environment or the command line may name another folder
RDP_GOLDEN_DIR ?= $(SHARED)/rdp-golden

rdp-golden: $(RDP_GOLDEN_TOOL)
	@RDP_GOLDEN_DIR=$(RDP_GOLDEN_DIR) $(RDP_GOLDEN_TOOL)

-include $(wildcard $(N64_OBJ)/n64/rdp/*.d $(N64_OBJ)/n64/rdp/golden/*.d $(N64_SAN_OBJ)/n64/rdp/*.d \
                    $(N64_SAN_OBJ)/n64/rdp/golden/*.d)
