# N64 RSP interpreter, its golden-test harness and the RSP microcode toolchain.
# Included by the top-level Makefile, which provides BUILD, CC, CFLAGS_COMMON,
# SAN and TEST_BINS. Everything here is prefixed N64_ to stay out of its way.

N64_SIM_SRCS := $(wildcard n64/sim/*.c)
# the renderer's host side: command lists (n64/driver), running them (n64/host_run)
N64_RENDER_SRCS := $(wildcard n64/driver/*.c n64/host_run/*.c)
N64_GOLDEN_SRCS := $(filter-out n64/sim/golden/golden_main.c,$(wildcard n64/sim/golden/*.c))
N64_TEST_SRCS := $(wildcard tests/n64/*.c)

N64_OBJ := $(BUILD)/n64/obj
N64_SAN_OBJ := $(BUILD)/n64/obj-san
N64_RSP_OUT := $(BUILD)/n64/rsp

N64_LIB := $(BUILD)/lib/librspsim.a
N64_SAN_LIB := $(BUILD)/n64/librspsim-san.a
N64_RENDER_LIB := $(BUILD)/lib/librender.a
N64_RENDER_SAN_LIB := $(BUILD)/n64/librender-san.a
N64_UCODE_C := $(BUILD)/gen/render_ucode.c
N64_GOLDEN_TOOL := $(BUILD)/n64/rsp-golden
N64_TEST_BIN := $(BUILD)/tests/test_n64

# Absolute paths are baked in so that binaries work from any directory.
N64_DEFINES := -DN64_PROJECT_ROOT=\"$(CURDIR)\" -DN64_RSP_IMAGE_DIR=\"$(abspath $(N64_RSP_OUT))\"
N64_CFLAGS := $(CFLAGS_COMMON) -MMD -MP $(N64_DEFINES) $(INCLUDES)

# ---- RSP microcode: n64/rsp/NAME.S -> NAME.imem.bin (IMEM) + NAME.dmem.bin (DMEM) ----

N64_MIPS_AS := mips-linux-gnu-as
N64_MIPS_LD := mips-linux-gnu-ld
N64_MIPS_OBJCOPY := mips-linux-gnu-objcopy
N64_MIPS_OBJDUMP := mips-linux-gnu-objdump
N64_HAVE_MIPS_AS := $(shell command -v $(N64_MIPS_AS) 2>/dev/null)

N64_RSP_SRCS := $(wildcard n64/rsp/*.S)
N64_RSP_IMAGES := $(foreach s,$(N64_RSP_SRCS),$(N64_RSP_OUT)/$(basename $(notdir $(s))).imem.bin \
                                               $(N64_RSP_OUT)/$(basename $(notdir $(s))).dmem.bin)

# Through the C preprocessor first (the host's: only its preprocessing is used): render.S
# includes render_abi.h, the one statement of the ABI the host's C includes too, and the
# routines name their vector registers with #define. -undef: no host macro (unix, linux, ...)
# may stand for a word of the source.
$(N64_RSP_OUT)/%.s: n64/rsp/%.S $(wildcard n64/rsp/*.inc) n64/rsp/render_abi.h
	@mkdir -p $(@D)
	$(CC) -E -x assembler-with-cpp -undef -nostdinc -I n64/rsp $< -o $@

$(N64_RSP_OUT)/%.o: $(N64_RSP_OUT)/%.s
	$(N64_MIPS_AS) -march=mips1 -mabi=32 -EB -o $@ $<

$(N64_RSP_OUT)/%.elf: $(N64_RSP_OUT)/%.o n64/rsp/rsp.ld
	$(N64_MIPS_LD) -T n64/rsp/rsp.ld -o $@ $<

$(N64_RSP_OUT)/%.imem.bin: $(N64_RSP_OUT)/%.elf
	$(N64_MIPS_OBJCOPY) -O binary -j .text $< $@

$(N64_RSP_OUT)/%.dmem.bin: $(N64_RSP_OUT)/%.elf
	$(N64_MIPS_OBJCOPY) -O binary -j .data $< $@

# The renderer's overlays (rsp.ld: .ovl_cold, .ovl_clip), for the host to put in RDRAM.
$(N64_RSP_OUT)/render.cold.bin: $(N64_RSP_OUT)/render.elf
	$(N64_MIPS_OBJCOPY) -O binary -j .ovl_cold $< $@
$(N64_RSP_OUT)/render.clip.bin: $(N64_RSP_OUT)/render.elf
	$(N64_MIPS_OBJCOPY) -O binary -j .ovl_clip $< $@
N64_RSP_IMAGES += $(N64_RSP_OUT)/render.cold.bin $(N64_RSP_OUT)/render.clip.bin

.PRECIOUS: $(N64_RSP_OUT)/%.s $(N64_RSP_OUT)/%.o $(N64_RSP_OUT)/%.elf

.PHONY: n64 rsp-golden

ifneq ($(N64_HAVE_MIPS_AS),)
n64: $(N64_RSP_IMAGES)
N64_TEST_IMAGES := $(N64_RSP_IMAGES)
else
n64:
	@echo "n64: $(N64_MIPS_AS) not found (install binutils-mips-linux-gnu); RSP microcode not assembled"
N64_TEST_IMAGES :=
endif

# ---- interpreter library (normal and sanitizer builds) ----

$(N64_OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(N64_CFLAGS) -c $< -o $@

$(N64_SAN_OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(N64_CFLAGS) $(SAN) $(N64_SAN_OPT) -c $< -o $@

$(N64_LIB): $(N64_SIM_SRCS:%.c=$(N64_OBJ)/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(N64_SAN_LIB): $(N64_SIM_SRCS:%.c=$(N64_SAN_OBJ)/%.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# ---- the renderer's host side, with the microcode built in ----

$(N64_UCODE_C): $(N64_RSP_OUT)/render.imem.bin $(N64_RSP_OUT)/render.dmem.bin $(N64_RSP_OUT)/render.cold.bin \
                $(N64_RSP_OUT)/render.clip.bin n64/host_run/embed_microcode.sh
	@mkdir -p $(@D)
	sh n64/host_run/embed_microcode.sh $(wordlist 1,4,$^) > $@

$(N64_OBJ)/$(BUILD)/gen/%.o $(N64_SAN_OBJ)/$(BUILD)/gen/%.o: N64_CFLAGS += -I n64/host_run

$(N64_RENDER_LIB): $(N64_RENDER_SRCS:%.c=$(N64_OBJ)/%.o) $(N64_OBJ)/$(N64_UCODE_C:.c=.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(N64_RENDER_SAN_LIB): $(N64_RENDER_SRCS:%.c=$(N64_SAN_OBJ)/%.o) $(N64_SAN_OBJ)/$(N64_UCODE_C:.c=.o)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# ---- golden suite ----

$(N64_GOLDEN_TOOL): $(N64_GOLDEN_SRCS:%.c=$(N64_OBJ)/%.o) $(N64_OBJ)/n64/sim/golden/golden_main.o $(N64_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -o $@ $^

rsp-golden: $(N64_GOLDEN_TOOL)
	@RSP_GOLDEN_DIR=$(SHARED)/rsp-golden $(N64_GOLDEN_TOOL)

# ---- software RDP (its own makefile; defines RDP_TEST_OBJS, RDP_SAN_LIB) ----

-include n64/rdp/rdp.mk

# ---- Criterion tests (sanitized) ----

$(N64_TEST_BIN): $(N64_TEST_SRCS:%.c=$(N64_SAN_OBJ)/%.o) $(N64_GOLDEN_SRCS:%.c=$(N64_SAN_OBJ)/%.o) $(RDP_TEST_OBJS) \
                 $(N64_SAN_OBJ)/cli/binform/png_write.o $(N64_SAN_OBJ)/cli/binform/png_sprite.o $(N64_SAN_OBJ)/cli/binform/render_files.o $(TEST_LAZY_GIT) \
                 $(N64_RENDER_SAN_LIB) $(N64_SAN_LIB) $(RDP_SAN_LIB) $(SAN_LIB) | $(N64_TEST_IMAGES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(SAN_LINK) -o $@ $^ -lcriterion $(BINFORM_LIBS)

# The test files at TEST_OPT like the others (Makefile): the renderer they test keeps SAN's -O1.
$(N64_SAN_OBJ)/tests/n64/%.o: N64_SAN_OPT := $(TEST_OPT)
$(N64_SAN_OBJ)/tests/n64/%.o: N64_CFLAGS += -I n64/sim -I n64/sim/golden $(RDP_TEST_INCLUDES) -I n64/host_run -I cli/binform
$(N64_SAN_OBJ)/cli/binform/png_write.o $(N64_SAN_OBJ)/cli/binform/png_sprite.o: N64_CFLAGS += $(shell pkg-config --cflags libpng 2>/dev/null)

TEST_BINS += $(N64_TEST_BIN)

-include $(wildcard $(N64_SAN_OBJ)/n64/driver/*.d $(N64_OBJ)/n64/driver/*.d $(N64_SAN_OBJ)/n64/host_run/*.d $(N64_OBJ)/n64/host_run/*.d $(N64_OBJ)/n64/sim/*.d $(N64_OBJ)/n64/sim/golden/*.d $(N64_SAN_OBJ)/n64/sim/*.d \
                    $(N64_SAN_OBJ)/n64/sim/golden/*.d $(N64_SAN_OBJ)/tests/n64/*.d)
