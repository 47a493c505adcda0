# fuzz/fuzz.mk — libFuzzer harnesses (included from the Makefile: `include fuzz/fuzz.mk`).
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="codeobj insn spec compare manifest"]   (FUZZ_SECONDS=0: replay the corpora only)
# Each fuzz/fuzz_<target>.c is linked with the module sources it exercises, all compiled by
# clang-22 with libFuzzer coverage, AddressSanitizer and UndefinedBehaviorSanitizer into
# build/fuzz/ (their own objects: the normal build is gcc and unsanitized). Each target then runs
# for FUZZ_SECONDS seconds on fuzz/corpus/<target>/ (the seeds, kept in git, never written to)
# plus build/fuzz/corpus/<target>/ (what this machine found, kept between runs). Exit non-zero if
# any harness crashes, leaks, trips a sanitizer or times out; the input is saved as
# build/fuzz/crashes/<target>/crash-<sha1> and the log as build/fuzz/<target>.log.
# Needs clang-22 and its sanitizer/libFuzzer runtimes (Debian: clang-22, libclang-rt-22-dev).
FUZZ_CC      := $(LLVM)/bin/clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= codeobj insn spec compare manifest
FUZZ_BUILD   := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=gnu11 -O1 -g -pthread -I. -I$(LLVM)/include -Wall -Wno-unused-parameter \
                -Wno-sign-compare $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_RT      := $(LLVM)/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a
# The modules each harness links (and the libraries they need).
FUZZ_MODS_codeobj := emu util
FUZZ_MODS_insn    := emu util
FUZZ_MODS_spec    := oracle util
FUZZ_MODS_compare := oracle util
FUZZ_LIBS_codeobj := -L$(LLVM)/lib -Wl,-rpath,$(LLVM)/lib -lLLVM -lstdc++
FUZZ_LIBS_insn    := -L$(LLVM)/lib -Wl,-rpath,$(LLVM)/lib -lLLVM -lstdc++
FUZZ_LIBS_spec    :=
FUZZ_LIBS_compare :=
# manifest: the reader (verify/manifest.c) with what it calls (emu/arch.c, oracle/, util/)
FUZZ_MODS_manifest := oracle util
FUZZ_SRCS_manifest := verify/manifest.c emu/arch.c
FUZZ_LIBS_manifest :=
fuzz_objs = $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(foreach m,$(FUZZ_MODS_$(1)),$(wildcard $(m)/*.c)) $(FUZZ_SRCS_$(1)))
FUZZ_BINS := $(foreach t,$(FUZZ_TARGETS),$(FUZZ_BUILD)/fuzz_$(t))

.PHONY: fuzz fuzz-build
fuzz: fuzz-build
	@bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
fuzz-build: $(FUZZ_BINS)

# A missing libFuzzer runtime is the environment's lack (exit 3), not a build error to puzzle over.
$(FUZZ_BUILD)/.rt-ok:
	@test -x $(FUZZ_CC) && test -f $(FUZZ_RT) || { echo "lanelab fuzz: needs clang-22 and libFuzzer ($(FUZZ_RT)); run as root: apt-get install -y clang-22 libclang-rt-22-dev" >&2; exit 3; }
	@mkdir -p $(dir $@) && touch $@

$(FUZZ_BUILD)/obj/%.o: %.c | $(FUZZ_BUILD)/.rt-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

# clang-22 refuses emu/op_mfma.c's 32-byte vector helpers in the "default" clone of its
# target_clones("avx2", "default") functions (an AVX vector argument without AVX enabled is an ABI
# error in clang, a -Wpsabi note in gcc). The harnesses never execute an MFMA (decode.c only takes
# its handlers' addresses), so that one file is built with AVX2 enabled.
$(FUZZ_BUILD)/obj/emu/op_mfma.o: FUZZ_CFLAGS += -mavx2

define fuzz_rule
$(FUZZ_BUILD)/fuzz_$(1): $(FUZZ_BUILD)/obj/fuzz/fuzz_$(1).o $(call fuzz_objs,$(1))
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $$@ $$^ $(FUZZ_LIBS_$(1)) -lm -lpthread -ldl
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rule,$(t))))

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)
