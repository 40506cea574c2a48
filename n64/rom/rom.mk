# The console ROM (n64/rom/README.md): the generated T3DM reader and the
# renderer on the N64's own CPU, RSP and RDP, run in the cen64 emulator.
# Included by the Makefile, which provides BUILD, CC, CFLAGS_COMMON, BINFORM,
# SAN and the microcode rules of n64/n64.mk.
#
#   make n64-rom        build/n64/rom/pif.bin (the boot code, for cen64's PIF ROM
#                       slot) and build/n64/rom/binform-ipl.bin (the program with
#                       the demo torus, for cen64 -ddipl); broken-ipl.bin carries
#                       the torus with a lying vertex count, sample-ipl.bin a sample
#                       model from ../shared when it is there
#   make n64-rom-test   runs both in cen64 and compares with binform render and
#                       binform check on the host (part of make test)
#   make n64-rom-run    runs the torus image and prints what the console says

ROM_DIR := $(BUILD)/n64/rom
ROM_CC := mips-linux-gnu-gcc
ROM_LD := mips-linux-gnu-ld
ROM_OBJCOPY := mips-linux-gnu-objcopy
ROM_ARCH := -EB -march=vr4300 -mabi=32 -mfp32 -mhard-float -mno-abicalls -fno-pic -G0 -mno-check-zero-division
# -ffp-contract=off: no fused multiply-adds, float for float what the host computes;
# no loop turned into a call to memset or memcpy (libc.c writes those).
# -nostdinc: Debian's MIPS glibc headers are only a recommendation of gcc-mips-linux-gnu, and
# the host's /usr/include must never stand in for them. The compiler's own freestanding
# headers (stdint.h, stddef.h, stdarg.h, ...) and n64/rom/include (string.h, stdlib.h,
# stdio.h: what libc.c and snprintf.c define) are all the ROM sees.
ROM_SYSTEM_INCLUDES = -nostdinc -isystem $(shell $(ROM_CC) -print-file-name=include) -In64/rom/include
ROM_CFLAGS = -std=c11 -Wall -Wextra -Werror -O2 -g $(ROM_ARCH) -ffreestanding -ffp-contract=off \
	-fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections $(ROM_SYSTEM_INCLUDES) \
	-Iruntime -iquote generated -In64/rom

# What each image draws: model, animation, seconds into it, yaw, pitch. The test gives
# binform render the same options (rom_render_args), so the pictures can be equal.
ROM_WIDTH := 320
ROM_HEIGHT := 240
ROM_BACKGROUND := 303848
ROM_TORUS_VIEW := twist 0.25 20 40
# A sample from ../shared, when it is there (SHARED): its textures are not beside it,
# so the host draws the checkerboard the console draws.
ROM_SAMPLE := $(SHARED)/samples/t3dm/08_animation/snake.t3dm
ROM_SAMPLE_STREAM := $(SHARED)/samples/t3dm/08_animation/snake.0.sdata
ROM_SAMPLE_VIEW := Snake_Attack 0.4 120 10
# Samples whose materials blend, take environment-map UVs from the normals and fade in fog
# (computed by n64/driver on the CPU: the console's floats must give the host's). "-": no
# animation; a fifth and sixth word: --fog START:END.
ROM_MATERIALS := $(SHARED)/samples/t3dm/12_uv_gen/can.t3dm
ROM_MATERIALS_VIEW := - 0 30 20
ROM_FOG := $(SHARED)/samples/t3dm/12_uv_gen/color.t3dm
ROM_FOG_VIEW := - 0 30 20 0.3 0.7
rom_anim = $(if $(filter -,$(word 1,$(1))),,$(word 1,$(1)))
rom_render_args = --size $(ROM_WIDTH)x$(ROM_HEIGHT) --distance 1 --background $(ROM_BACKGROUND) --color16 \
	$(if $(call rom_anim,$(1)),--anim $(word 1,$(1)) --time $(word 2,$(1))) --yaw $(word 3,$(1)) --pitch $(word 4,$(1)) \
	$(if $(word 5,$(1)),--fog $(word 5,$(1)):$(word 6,$(1)))
rom_view_defines = -DROM_WIDTH=$(ROM_WIDTH) -DROM_HEIGHT=$(ROM_HEIGHT) -DROM_DISTANCE=1 \
	-DROM_BACKGROUND=0x$(ROM_BACKGROUND)FFu -DROM_ANIM='"$(call rom_anim,$(1))"' -DROM_TIME=$(word 2,$(1)) \
	-DROM_YAW=$(word 3,$(1)) -DROM_PITCH=$(word 4,$(1)) -DROM_FOG_START=$(or $(word 5,$(1)),0) \
	-DROM_FOG_END=$(or $(word 6,$(1)),0)

# The runtime's writer (output image, placement queue, string tables, fit reports, passes,
# saving): the ROM only reads.
ROM_WRITER_SRCS := runtime/bf_write.c runtime/bf_place.c runtime/bf_intern.c runtime/bf_fit.c runtime/bf_build.c \
	runtime/bf_save.c
# Everything but the model: the runtime (its file and writer parts need an OS),
# the generated T3DM code, the scene code, the command lists, the ROM's own C library.
ROM_LIB_SRCS := $(filter-out runtime/bf_file.c $(ROM_WRITER_SRCS),$(wildcard runtime/*.c)) generated/t3dm.c generated/t3dm_validate.c \
	generated/t3dm_view.c $(wildcard n64/scene/*.c) $(wildcard n64/driver/*.c) \
	$(addprefix n64/rom/,libc.c libgcc.c snprintf.c heap.c console.c rsp_task.c vi.c report.c vmov_patch.c)
ROM_LIB := $(ROM_DIR)/librom.a
ROM_LIBGCC = $(shell $(ROM_CC) -print-libgcc-file-name)
ROM_HEADERS := $(wildcard runtime/*.h generated/t3dm.h n64/scene/*.h n64/driver/*.h n64/rsp/render_abi.h n64/rom/*.h n64/rom/include/*.h)

$(ROM_DIR)/obj/%.o: %.c $(ROM_HEADERS)
	@mkdir -p $(@D)
	$(ROM_CC) $(ROM_CFLAGS) -c $< -o $@
$(ROM_DIR)/obj/%.o: %.S
	@mkdir -p $(@D)
	$(ROM_CC) $(ROM_ARCH) -c $< -o $@
$(ROM_LIB): $(ROM_LIB_SRCS:%.c=$(ROM_DIR)/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

# The boot code: 0x7C0 bytes, cen64's PIF ROM size.
$(ROM_DIR)/pif.bin: $(ROM_DIR)/obj/n64/rom/boot.o
	$(ROM_LD) -EB -Ttext=0xBFC00000 -e boot -o $(ROM_DIR)/pif.elf $<
	$(ROM_OBJCOPY) -O binary -j .text $(ROM_DIR)/pif.elf $@
	@test $$(stat -c %s $@) -le 1984 || { echo "pif.bin: the boot code is over 0x7C0 bytes"; exit 1; }
	truncate -s 1984 $@

# The models: the demo torus and its animation, and the torus with a lying vertex count
# (the header's total_vertex_count, at 0x08, says 512 instead of 160).
$(ROM_DIR)/models/torus.t3dm $(ROM_DIR)/models/torus.0.sdata &: $(BUILD)/bin/t3dm_torus
	@mkdir -p $(ROM_DIR)/models
	$(BUILD)/bin/t3dm_torus $(ROM_DIR)/models > /dev/null
$(ROM_DIR)/models/torus-broken.t3dm: $(ROM_DIR)/models/torus.t3dm
	cp $< $@.tmp
	printf '\002\000' | dd of=$@.tmp bs=1 seek=8 conv=notrunc status=none
	mv $@.tmp $@

# One image per model: main.c and blobs.S name the model and the view; the rest is shared.
# $(1) image name, $(2) model, $(3) animation stream, $(4) view (ROM_TORUS_VIEW's form).
# What an image embeds is written to $(ROM_DIR)/NAME/embeds when make reads this file, and
# rewritten only when it changes: its objects depend on it, so that another model, stream or
# view (make n64-rom-test ROM_SAMPLE=... ROM_SAMPLE_VIEW="Run 0.2 30 20") rebuilds them, even
# when the other model's file is older than the objects.
ROM_UCODE := $(addprefix $(N64_RSP_OUT)/render.,imem.bin dmem.bin cold.bin clip.bin)
rom_embeds_text = $(abspath $(2)) $(abspath $(3)) $(ROM_WIDTH)x$(ROM_HEIGHT) $(ROM_BACKGROUND) $(4)
rom_record_embeds = $(shell mkdir -p $(ROM_DIR)/$(1) && { printf '%s\n' '$(2)' | cmp -s - $(ROM_DIR)/$(1)/embeds || \
	printf '%s\n' '$(2)' > $(ROM_DIR)/$(1)/embeds; })
define rom_image
$(call rom_record_embeds,$(1),$(call rom_embeds_text,$(1),$(2),$(3),$(4)))
$(ROM_DIR)/$(1)/main.o: n64/rom/main.c $(ROM_HEADERS) $(ROM_DIR)/$(1)/embeds
	@mkdir -p $$(@D)
	$(ROM_CC) $(ROM_CFLAGS) $(call rom_view_defines,$(4)) -DROM_MODEL_NAME='"$(notdir $(2))"' \
		-DROM_STREAM_NAME='"$(notdir $(3))"' -c $$< -o $$@
$(ROM_DIR)/$(1)/blobs.o: n64/rom/blobs.S $(2) $(3) $(ROM_UCODE) $(ROM_DIR)/$(1)/embeds
	@mkdir -p $$(@D)
	$(ROM_CC) $(ROM_ARCH) -DROM_MODEL_FILE='"$(2)"' -DROM_STREAM_FILE='"$(3)"' \
		-DUCODE_IMEM='"$(N64_RSP_OUT)/render.imem.bin"' -DUCODE_DMEM='"$(N64_RSP_OUT)/render.dmem.bin"' \
		-DUCODE_COLD='"$(N64_RSP_OUT)/render.cold.bin"' -DUCODE_CLIP='"$(N64_RSP_OUT)/render.clip.bin"' \
		-c $$< -o $$@
$(ROM_DIR)/$(1)-ipl.bin: $(ROM_DIR)/obj/n64/rom/crt0.o $(ROM_DIR)/$(1)/main.o $(ROM_DIR)/$(1)/blobs.o $(ROM_LIB) \
                         n64/rom/program.ld
	$(ROM_LD) -EB -T n64/rom/program.ld --gc-sections -o $(ROM_DIR)/$(1).elf $(ROM_DIR)/obj/n64/rom/crt0.o \
		$(ROM_DIR)/$(1)/main.o $(ROM_DIR)/$(1)/blobs.o $(ROM_LIB)
	$(ROM_OBJCOPY) -O binary -j .header -j .text -j .rodata -j .data $(ROM_DIR)/$(1).elf $$@
	truncate -s %16 $$@ # to _image_end, all the boot code copies
endef
$(eval $(call rom_image,binform,$(ROM_DIR)/models/torus.t3dm,$(ROM_DIR)/models/torus.0.sdata,$(ROM_TORUS_VIEW)))
$(eval $(call rom_image,broken,$(ROM_DIR)/models/torus-broken.t3dm,$(ROM_DIR)/models/torus.0.sdata,$(ROM_TORUS_VIEW)))
ROM_IMAGES := $(ROM_DIR)/pif.bin $(ROM_DIR)/binform-ipl.bin $(ROM_DIR)/broken-ipl.bin
ROM_TEST_PICTURES := torus $(ROM_DIR)/models/torus.t3dm binform-ipl.bin "$(call rom_render_args,$(ROM_TORUS_VIEW))"
ifneq ($(wildcard $(ROM_SAMPLE)),)
$(eval $(call rom_image,sample,$(ROM_SAMPLE),$(ROM_SAMPLE_STREAM),$(ROM_SAMPLE_VIEW)))
ROM_IMAGES += $(ROM_DIR)/sample-ipl.bin
ROM_TEST_PICTURES += $(basename $(notdir $(ROM_SAMPLE))) $(ROM_SAMPLE) sample-ipl.bin \
	"$(call rom_render_args,$(ROM_SAMPLE_VIEW))"
endif
ifneq ($(wildcard $(ROM_MATERIALS)),)
$(eval $(call rom_image,materials,$(ROM_MATERIALS),$(ROM_DIR)/models/torus.0.sdata,$(ROM_MATERIALS_VIEW)))
ROM_IMAGES += $(ROM_DIR)/materials-ipl.bin
ROM_TEST_PICTURES += $(basename $(notdir $(ROM_MATERIALS))) $(ROM_MATERIALS) materials-ipl.bin \
	"$(call rom_render_args,$(ROM_MATERIALS_VIEW))"
endif
ifneq ($(wildcard $(ROM_FOG)),)
$(eval $(call rom_image,fog,$(ROM_FOG),$(ROM_DIR)/models/torus.0.sdata,$(ROM_FOG_VIEW)))
ROM_IMAGES += $(ROM_DIR)/fog-ipl.bin
ROM_TEST_PICTURES += $(basename $(notdir $(ROM_FOG))) $(ROM_FOG) fog-ipl.bin "$(call rom_render_args,$(ROM_FOG_VIEW))"
endif

# The host side of the test: reads what the console said and compares it with a PNG.
ROM_CHECK := $(ROM_DIR)/rom_check
$(ROM_CHECK): n64/rom/check/rom_check.c n64/rom/report.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(shell pkg-config --cflags libpng 2>/dev/null) $< -o $@ \
		$(shell pkg-config --libs libpng 2>/dev/null || echo -lpng)

.PHONY: n64-rom n64-rom-test n64-rom-run
n64-rom: $(ROM_IMAGES)

ROM_TIMEOUT ?= 300
n64-rom-run: $(ROM_IMAGES)
	sh n64/rom/run_cen64.sh $(ROM_TIMEOUT) $(ROM_DIR)/pif.bin $(ROM_DIR)/binform-ipl.bin $(ROM_DIR)/binform.log
	@grep -v '^px ' $(ROM_DIR)/binform.log

# Needs cen64 and the MIPS compiler; skips, saying so, without them (make test-deps installs them).
# Its prerequisites are built here, not by the make it starts, so that make -j stays safe;
# `make test` builds the images too, with the rest, before it runs the test.
n64-rom-test: $(BINFORM) $(BUILD)/bin/t3dm_torus $(ROM_UCODE)
	@if command -v cen64 > /dev/null && command -v $(ROM_CC) > /dev/null && command -v $(N64_MIPS_AS) > /dev/null; then \
		$(MAKE) --no-print-directory n64-rom $(ROM_CHECK) && \
		BINFORM=$(BINFORM) ROM_CHECK=$(ROM_CHECK) ROM_DIR=$(ROM_DIR) ROM_TIMEOUT=$(ROM_TIMEOUT) \
		ROM_SAMPLE=$(ROM_SAMPLE) sh n64/rom/rom_test.sh $(ROM_TEST_PICTURES); \
	else echo "skipped: n64-rom-test (cen64 or the MIPS toolchain is missing; make test-deps installs them)"; fi
TEST_STEPS += n64-rom-test
ifneq ($(and $(shell command -v cen64 2>/dev/null),$(shell command -v $(ROM_CC) 2>/dev/null),$(N64_HAVE_MIPS_AS)),)
TEST_BUILD += n64-rom $(ROM_CHECK) $(BINFORM) $(BUILD)/bin/t3dm_torus
endif
# rom_check's own test (tests/rom/test_rom_check.c) runs it: a host tool, built whatever the MIPS tools.
$(BUILD)/tests/test_rom_check: $(ROM_CHECK)
