# Kaitai Struct through `bfgen import` (included by the Makefile).
#
# test-ksy-import (a step of make test): small .ksy formats written in the test, their imported
# schemas, files read with them, and the located errors for what binform cannot express; bfgen
# with the sanitizers (tests/bfgen/bfgen.mk), so that undefined behaviour fails the test.
TEST_STEPS += test-ksy-import
.PHONY: test-ksy-import kst
test-ksy-import: $(SAN_BFGEN) $(BINFORM)
	@ASAN_OPTIONS=detect_leaks=1 sh tests/kst/test_ksy_import.sh $(SAN_BFGEN) $(BINFORM)

# make kst [KST_SPECS=DIR]: Kaitai's own specs (by default the 250 of $(SHARED)/kaitai-tests;
# their formats and inputs are always read from there): each spec's format imported, its input
# read, its asserts checked. Ends with `N passed, M failed, K declined`; fails when a spec fails.
KST_SPECS ?=
kst: $(BFGEN) $(BINFORM)
	@/usr/bin/python3 tests/kst/run_kst.py --root $(SHARED)/kaitai-tests --out $(BUILD)/kst --jobs 2 \
		$(if $(KST_SPECS),--specs $(abspath $(KST_SPECS)))

# make kaitai-gallery GALLERY=DIR: Kaitai's format gallery (a checkout of kaitai_struct_formats,
# never committed) imported, generated and compiled, a line per format and the totals.
.PHONY: kaitai-gallery
kaitai-gallery: $(BFGEN)
	@test -n "$(GALLERY)" || { echo "make kaitai-gallery GALLERY=DIR (a checkout of kaitai_struct_formats)"; exit 2; }
	@sh tests/kst/gallery.sh $(GALLERY) $(BFGEN) $(BUILD)/kaitai-gallery
