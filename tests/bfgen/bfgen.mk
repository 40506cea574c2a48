# bfgen's own hostile-input tests (included by the Makefile).
#
# A sanitizer build of bfgen (ASan+UBSan) that test_bfgen_errors runs on schemas that once
# crashed it or overflowed its integers: a release bfgen would hide the undefined behaviour.
SAN_BFGEN := $(BUILD)/san/bin/bfgen
$(BUILD)/san/generator/%.o: generator/%.c generator/*.h runtime/bf_version.h
	@mkdir -p $(dir $@)
	$(CC) $(GEN_CFLAGS) $(SAN) -c $< -o $@
$(SAN_BFGEN): $(patsubst %.c,$(BUILD)/san/%.o,$(GENERATOR_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(SAN) $(SAN_LINK) $^ -o $@ $(GEN_LIBS)
$(BUILD)/tests/test_bfgen_errors: $(SAN_BFGEN)

# Every schema of the project and of $(SHARED)/repro (when there) generates C that compiles
# with the project's flags, or is refused with located errors and no crash
# (tests/bfgen/compile_schemas.sh), TEST_JOBS schemas at a time.
BFGEN_TEST_SCHEMAS = $(SCHEMAS) $(TEST_SCHEMAS) $(sort $(wildcard $(SHARED)/repro/*.yaml $(SHARED)/repro/*/*.yaml)) \
	$(sort $(wildcard tests/fuzz/regressions/bfgen/*.yaml))
TEST_STEPS += test-bfgen-schemas
.PHONY: test-bfgen-schemas
test-bfgen-schemas: $(BFGEN)
	@sh tests/bfgen/compile_schemas.sh $(BFGEN) $(CC) $(TEST_JOBS) $(BFGEN_TEST_SCHEMAS)
