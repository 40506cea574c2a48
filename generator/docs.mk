# Documentation: the generated pages, their coverage of the format documents, and annotated
# ("explained") sample files. Included by the Makefile.
DOC_SEEDS ?= $(SHARED)/seeds
EXPLAIN_DIR := $(BUILD)/explain
# Real files holding every T3DM chunk type (O A V I M S in the snake, B in the scene), or the
# project's own model when the shared samples are absent.
EXPLAIN_SAMPLES := $(wildcard $(addprefix $(SHARED)/samples/t3dm/,08_animation/snake.t3dm 08_animation/snake.0.sdata 18_particles/scene.t3dm))
EXPLAIN_SAMPLES := $(if $(EXPLAIN_SAMPLES),$(EXPLAIN_SAMPLES),tests/fixtures/demo/pyramid.t3dm tests/fixtures/demo/pyramid.0.sdata)

.PHONY: docs doc-coverage explain-samples
docs: generate
	@find generated/docs -type f | sort

doc-coverage: $(BFGEN)
	$(BFGEN) --report doc_coverage $(SCHEMAS) -- $(DOC_SEEDS)

explain-samples: $(BINFORM)
	@mkdir -p $(EXPLAIN_DIR)
	@for f in $(EXPLAIN_SAMPLES); do \
		out=$(EXPLAIN_DIR)/$$(basename $$f).html; $(BINFORM) explain --html $$out $$f && echo $$out || exit 1; \
	done
