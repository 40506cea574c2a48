# The renderer's host-side scene code (n64/host/README.md). Included by the Makefile, which
# provides BUILD, CC, CFLAGS_COMMON, INCLUDES and HOST_SRC, and links HOST_SRC into the
# sanitized library of the tests.

HOST_LIB := $(BUILD)/lib/libn64host.a
$(HOST_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(HOST_SRC))
	@mkdir -p $(dir $@)
	ar rcs $@ $^
all: $(HOST_LIB)

# The same sources for the console: big-endian MIPS (VR4300), freestanding, no libc. The
# objects may only need what a freestanding compiler may call (memcpy, memset, memmove,
# memcmp) and libgcc's helpers (__*); `make test` runs this check when the cross compiler
# (Debian's gcc-mips-linux-gnu) is installed.
HOST_MIPS_CC := mips-linux-gnu-gcc
HOST_MIPS_LD := mips-linux-gnu-ld
HOST_MIPS_NM := mips-linux-gnu-nm
HOST_HAVE_MIPS_CC := $(shell command -v $(HOST_MIPS_CC) 2>/dev/null)
HOST_MIPS_DIR := $(BUILD)/n64/host-mips
# -nostdinc: only the compiler's freestanding headers and the ROM's own string.h, stdlib.h and
# stdio.h (n64/rom/include), never the host's /usr/include.
HOST_MIPS_CFLAGS = -std=c11 -Wall -Wextra -Werror -O2 -EB -march=vr4300 -mabi=32 -mno-abicalls -fno-pic -G0 \
	-ffreestanding -nostdinc -isystem $(shell $(HOST_MIPS_CC) -print-file-name=include) -In64/rom/include

.PHONY: host-freestanding
ifneq ($(HOST_HAVE_MIPS_CC),)
host-freestanding: $(HOST_SRC) $(wildcard n64/host/*.h runtime/*.h generated/*.h)
	@rm -rf $(HOST_MIPS_DIR) && mkdir -p $(HOST_MIPS_DIR)/obj
	@set -e; for f in $(HOST_SRC); do \
		$(HOST_MIPS_CC) $(HOST_MIPS_CFLAGS) $(INCLUDES) -c $$f -o $(HOST_MIPS_DIR)/obj/$$(basename $$f .c).o; done
	@$(HOST_MIPS_LD) -EB -r -o $(HOST_MIPS_DIR)/n64host.o $(HOST_MIPS_DIR)/obj/*.o
	@undef=$$($(HOST_MIPS_NM) -u $(HOST_MIPS_DIR)/n64host.o | awk '{print $$NF}' \
		| grep -Ev '^(memcpy|memset|memmove|memcmp|__.*)$$' || true); \
	if [ -n "$$undef" ]; then echo "host-freestanding: n64/host needs the C library for:" $$undef; exit 1; fi; \
	echo "host-freestanding: n64/host builds for big-endian MIPS (VR4300) without libc"
else
host-freestanding:
	@echo "skipped: host-freestanding ($(HOST_MIPS_CC) not found: install gcc-mips-linux-gnu)"
endif
TEST_STEPS += host-freestanding

# The host objects also depend on their own headers (the pattern rules know only runtime/
# and generated/ headers).
$(patsubst %.c,$(BUILD)/obj/%.o,$(HOST_SRC)) $(patsubst %.c,$(BUILD)/san/%.o,$(HOST_SRC)): $(wildcard n64/host/*.h)
