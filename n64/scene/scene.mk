# The renderer's freestanding scene code (n64/scene/README.md). Included by the Makefile, which
# provides BUILD, CC, CFLAGS_COMMON, INCLUDES and SCENE_SRC, and links SCENE_SRC into the
# sanitized library of the tests.

SCENE_LIB := $(BUILD)/lib/libn64scene.a
$(SCENE_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(SCENE_SRC))
	@mkdir -p $(dir $@)
	ar rcs $@ $^
all: $(SCENE_LIB)

# The same sources for the console: big-endian MIPS (VR4300), freestanding, no libc. The
# objects may only need what a freestanding compiler may call (memcpy, memset, memmove,
# memcmp) and libgcc's helpers (__*); `make test` runs this check when the cross compiler
# (Debian's gcc-mips-linux-gnu) is installed.
SCENE_MIPS_CC := mips-linux-gnu-gcc
SCENE_MIPS_LD := mips-linux-gnu-ld
SCENE_MIPS_NM := mips-linux-gnu-nm
SCENE_HAVE_MIPS_CC := $(shell command -v $(SCENE_MIPS_CC) 2>/dev/null)
SCENE_MIPS_DIR := $(BUILD)/n64/scene-mips
# -nostdinc: only the compiler's freestanding headers and the ROM's own string.h, stdlib.h and
# stdio.h (n64/rom/include), never the host's /usr/include.
SCENE_MIPS_CFLAGS = -std=c11 -Wall -Wextra -Werror -O2 -EB -march=vr4300 -mabi=32 -mno-abicalls -fno-pic -G0 \
	-ffreestanding -nostdinc -isystem $(shell $(SCENE_MIPS_CC) -print-file-name=include) -In64/rom/include

.PHONY: scene-freestanding
ifneq ($(SCENE_HAVE_MIPS_CC),)
scene-freestanding: $(SCENE_SRC) $(wildcard n64/scene/*.h runtime/*.h generated/*.h)
	@rm -rf $(SCENE_MIPS_DIR) && mkdir -p $(SCENE_MIPS_DIR)/obj
	@set -e; for f in $(SCENE_SRC); do \
		$(SCENE_MIPS_CC) $(SCENE_MIPS_CFLAGS) $(INCLUDES) -c $$f -o $(SCENE_MIPS_DIR)/obj/$$(basename $$f .c).o; done
	@$(SCENE_MIPS_LD) -EB -r -o $(SCENE_MIPS_DIR)/n64scene.o $(SCENE_MIPS_DIR)/obj/*.o
	@undef=$$($(SCENE_MIPS_NM) -u $(SCENE_MIPS_DIR)/n64scene.o | awk '{print $$NF}' \
		| grep -Ev '^(memcpy|memset|memmove|memcmp|__.*)$$' || true); \
	if [ -n "$$undef" ]; then echo "scene-freestanding: n64/scene needs the C library for:" $$undef; exit 1; fi; \
	echo "scene-freestanding: n64/scene builds for big-endian MIPS (VR4300) without libc"
else
scene-freestanding:
	@echo "skipped: scene-freestanding ($(SCENE_MIPS_CC) not found: install gcc-mips-linux-gnu)"
endif
TEST_STEPS += scene-freestanding

# The host objects also depend on their own headers (the pattern rules know only runtime/
# and generated/ headers).
$(patsubst %.c,$(BUILD)/obj/%.o,$(SCENE_SRC)) $(patsubst %.c,$(BUILD)/san/%.o,$(SCENE_SRC)): $(wildcard n64/scene/*.h)
