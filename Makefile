# lanelab — build, verify and test. See README.md.
#   make                 build build/lanelab and every kernel for gfx942 and gfx950
#   make verify ARCH=gfx950|gfx942|all [BASE=rev] [SHAPES=quick|full|random:N] [SEED=S]
#   make mutate [MAX=N] [SHARD=I/N] [ARCH=all]  source-level mutation testing of the production kernels
#   make test            Criterion suites for every module, then a quick verify of both arches
#   make bench           throughput benchmarks (emulator, oracle, verify wall time, the seed shape)
#   make fuzz [FUZZ_SECONDS=60]  libFuzzer on the loader, instruction parser and spec parsers
#   make deps | clean
ARCH   ?= gfx950
SHAPES ?= quick
BUILD  := build
ARCHES := gfx942 gfx950
LLVM   := /usr/lib/llvm-22
SHELL  := /bin/bash

CC      := gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-format-truncation -pthread -I. \
           -MMD -MP
LLVM_CFLAGS := -I$(LLVM)/include
# -lstdc++: emu/kname.c demangles C++ kernel names with __cxa_demangle (libLLVM needs it anyway)
LDLIBS  := -L$(LLVM)/lib -Wl,-rpath,$(LLVM)/lib -lLLVM -lstdc++ -lm -lpthread -ldl
# The linker of lanelab's own binaries, test suites and liblanelab_hip.so: gold (binutils) where
# GCC can use it. Linking the -g objects and libLLVM, BFD ld took 1.15 s CPU for test_emu and gold
# 0.24 s, over 30 suites, the binary and the library, twice in CI (the sanitizer pass relinks):
# docs/performance.md "make test's time". Not in LDLIBS, which lanelab.pc hands to users' links.
LDFAST  := $(shell $(CC) -fuse-ld=gold -Wl,--version 2>/dev/null | grep -q 'GNU gold' && echo -fuse-ld=gold)
# The sanitizer build is -Og -g1: -O1 -g compiled the host objects in 250 CPU-s (emu/fuse.c 53,
# emu/op_avx2.c 43), -Og -g1 in 110 (13 and 21), and the sanitized code ran within 3% of -O1's
# (-Og -g1 against -O1 -g, CPU-s: test_emu_mfma 26.7 against 26.2, test_emu_cvt 22.6 against
# 21.8, verify quick 32.4 against 31.6). -g1 keeps the line tables the sanitizers' reports print
# (docs/performance.md, "Test time").
ifeq ($(SAN),1)
CFLAGS  += -Og -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDLIBS  += -fsanitize=address,undefined
BUILD   := build/san
endif
# The precompiled headers of lanelab's HIP compiles (isa/pch.c, docs/hip-subset.md) live in the
# build tree rather than ~/.cache: make's compiles and the suites share them; make clean drops them.
export LANELAB_CACHE_DIR ?= $(CURDIR)/$(BUILD)/cache

DEPS_STAMP := build/.deps-ok
# BUILD/cflags.txt: the compiler and flags the host objects and test binaries were built with
# (written below, once CFLAGS is complete); they depend on it, so other flags rebuild them.
FLAGS_STAMP := $(BUILD)/cflags.txt
# $(call write_if_changed,FILE,VAR): FILE holds the value of the variable VAR afterwards, rewritten
# (and so newer than what depends on it) only when that differs; run as the Makefile is read. VAR
# is named, not expanded into the call, since a value may hold commas (-fsanitize=address,undefined).
write_if_changed = $(shell mkdir -p $(dir $(1)) && { [ "$$(cat $(1) 2>/dev/null)" = "$($(2))" ] || echo "$($(2))" > $(1); })
# Modules in link order (a module may use those after it). docs/architecture.md gives the dependencies.
MODULES := cli api verify hip reports isa runtime emu oracle lanes table util
LIBMODS := $(filter-out cli,$(MODULES))
src_of   = $(wildcard $(1)/*.c)
obj_of   = $(patsubst %.c,$(BUILD)/obj/%.o,$(call src_of,$(1)))
LIBS     := $(foreach m,$(LIBMODS),$(BUILD)/lib/lib$(m).a)
TESTSRC  := $(wildcard tests/test_*.c)
TESTBIN  := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TESTSRC))
KSRC     := $(wildcard kernels/micro/*.hip kernels/prod/*.hip kernels/bench/*.hip)
KHDR     := $(wildcard kernels/include/*.h kernels/prod/*.h)
# lanelab's HIP headers: every kernel, mutant and corpus build includes them (a header change rebuilds)
HIPHDR   := $(shell find hip/include -type f 2>/dev/null)
kstamp   = $(foreach s,$(KSRC),$(BUILD)/$(1)/kernels/$(basename $(notdir $(s))).built)
KSTAMPS  := $(foreach a,$(ARCHES),$(call kstamp,$(a)))
LANELAB  := $(BUILD)/lanelab

.PHONY: all deps kernels mutants verify test bench clean check-tests mutate install uninstall
all: $(LANELAB) kernels $(BUILD)/lib/liblanelab.a

deps: $(DEPS_STAMP)
$(DEPS_STAMP): mk/deps.sh
	@bash mk/deps.sh $@

# --- host code ---------------------------------------------------------------------------------
$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LLVM_CFLAGS) -c -o $@ $<

# lanelab hipcc links programs against this build's liblanelab.a: a sanitizer build's library needs
# gcc's sanitizer runtimes at the program's link (isa/cc.c)
$(BUILD)/obj/isa/cc.o: CFLAGS += -DLANELAB_HIPCC_SAN=$(if $(filter 1,$(SAN)),1,0)
# lanelab finds its data (device headers, public headers) from where its binary is: the source tree
# the build tree sits in, or PREFIX/share/lanelab once installed (util.h ll_data_path). Nothing of
# this checkout's path is compiled in, so a build tree that moves still works.
# The emulator's per-lane loops (64 lanes, no cross-iteration dependence) are vectorized with
# GCC's dynamic cost model: -O2's "very cheap" model leaves most of them scalar. Elementwise only
# (no reassociation without -ffast-math), so results are unchanged (issue #16). -fno-math-errno: the
# emulator never reads errno, and with it GCC keeps sqrtf / sqrt as the instruction libm's own runs
# instead of a call for negative inputs, so v_sqrt_f32's and v_rsq_f32's lane loops become vector
# ones (same IEEE results; issue #31, fourteenth stop).
# The emulator's objects carry line tables and function names only (-g1; EMU_G=-g for locals too):
# their handlers are macro-expanded, and -g's variable tracking was a third of their compile,
# 122.5 against 85.2 CPU-s for emu/*.c, compiled one after the other (docs/performance.md, "Test
# time"). Profiles, backtraces and the sanitizers' reports keep their file:line.
# Most of the emulator's objects are -O3 (not in the sanitizer build, which stays -Og): the seed
# shape's emulation 1.3-2.6% faster than at -O2 (seq 2048, pinned pairs, medians of 6-8: gfx950
# 2.2105 -> 2.1535 CPU-s, gfx942 3.0645 -> 3.025; docs/performance.md, twenty-first stop). -O3 fuses
# no product and sum into an FMA that -O2 leaves apart (GNU C's default -ffp-contract=fast): every
# emu/ object has the same count of FMA instructions with -ffp-contract=off as without, at -O2 and
# at -O3 (the extra ones at -O3 are copies of explicit fmaf and intrinsics by unrolling and
# inlining). Six stay at -O2: simd.c, op_valu.c, op_avx2.c, op_vop3p.c and bench.c gained nothing
# measurable (the whole build at -O3 measured the same), and op_valu.c and op_vop3p.c set the
# operand order that the inline-assembly float blocks copy (docs/emulator.md); fuse.c's -O3 build
# warns of possibly uninitialised vectors.
EMU_G ?= -g1
EMU_O ?= $(if $(filter 1,$(SAN)),,-O3)
EMU_O2 := simd op_valu op_avx2 op_vop3p bench fuse
$(BUILD)/obj/emu/%.o: CFLAGS += -fvect-cost-model=dynamic -fno-math-errno $(EMU_G) $(EMU_O)
$(foreach f,$(EMU_O2),$(BUILD)/obj/emu/$(f).o): EMU_O :=
# hiprtc in a program run outside lanelab exec finds lanelab's HIP headers in the tree its runtime
# was built in (hip/hip_rtc.c; lanelab exec passes LANELAB_HIP_INCLUDE)
$(BUILD)/obj/hip/hip_rtc.o: CFLAGS += -DLANELAB_HIP_INCLUDE_BUILT='"$(CURDIR)/hip/include"'

define lib_rule
$(BUILD)/lib/lib$(1).a: $(call obj_of,$(1))
	@mkdir -p $$(dir $$@)
	@rm -f $$@
	$(if $(call obj_of,$(1)),ar rcs $$@ $$^,ar rcs $$@)
endef
$(foreach m,$(LIBMODS),$(eval $(call lib_rule,$(m))))

# `lanelab --version`: VERSION and the git revision built from ("-dirty" with uncommitted changes).
# build/git-rev is rewritten only when the revision changes, so only cli/help.o is rebuilt then.
VERSION := 0.1.0
GIT_REV := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
$(call write_if_changed,$(BUILD)/git-rev,GIT_REV)
$(BUILD)/obj/cli/help.o: $(BUILD)/git-rev
$(BUILD)/obj/cli/help.o: CFLAGS += -DLANELAB_VERSION='"$(VERSION)"' -DLANELAB_GIT_REV='"$(GIT_REV)"'

# liblanelab.a: every library module in one archive for `make install` (the public API is
# include/lanelab/lanelab.h). Objects are renamed module_file.o: two modules have an arch.c.
$(BUILD)/lib/liblanelab.a: $(foreach m,$(LIBMODS),$(call obj_of,$(m)))
	@rm -rf $@.d && mkdir -p $@.d
	@for o in $^; do r=$${o#$(BUILD)/obj/}; cp $$o $@.d/$${r//\//_}; done
	@rm -f $@ && ar rcs $@ $@.d/*.o && rm -rf $@.d

# liblanelab_hip.so: the HIP runtime and the modules under it as a shared library (what a program
# links with lanelab hipcc --shared-runtime; docs/hip-runtime.md). Every build compiles its host
# objects once, position independent, and builds the static libraries, the lanelab binary and this
# library from them: a separate PIC set was a second compile of the host code in every build.
# -fno-semantic-interposition lets GCC inline and call directly the global functions another
# library could otherwise interpose, as in non-PIC code. Measured (callgrind, the emulator's worker
# threads; docs/performance.md): bench_valu and bench_valu_ds ran the same instruction counts as the
# position-dependent build, the seed shape at seq 256 on gfx942 0.44% more (1728.5 M against
# 1720.9 M: global data read through the GOT), for about a minute of CPU less per build (an
# earlier attempt was dropped on a 7% wall-clock difference that these counts do not show).
# Initial-exec TLS, since the library is linked, not dlopen'ed.
CFLAGS   += -fPIC -fno-semantic-interposition -ftls-model=initial-exec
# The flags stamp is rewritten only when the flags change (make CFLAGS=..., or an edit here): the
# objects of a build tree made before the one-object-set change stayed non-PIC, and
# liblanelab_hip.so did not link there until build/obj was removed by hand.
ALL_CFLAGS = $(CC) $(CFLAGS) $(LLVM_CFLAGS) EMU_G=$(EMU_G)
$(call write_if_changed,$(FLAGS_STAMP),ALL_CFLAGS)
PICMODS  := hip reports isa runtime emu oracle lanes table util
PICOBJ   := $(foreach m,$(PICMODS),$(call obj_of,$(m)))
$(BUILD)/lib/liblanelab_hip.so: $(PICOBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFAST) -shared -Wl,-soname,liblanelab_hip.so -Wl,--no-undefined -o $@ $^ $(LDLIBS)
shared: $(BUILD)/lib/liblanelab_hip.so
.PHONY: shared

$(LANELAB): $(call obj_of,cli) $(LIBS)
	$(CC) $(CFLAGS) $(LDFAST) -o $@ $(call obj_of,cli) $(LIBS) $(LDLIBS)

# The test sources are compiled at -O0 -g1: what they run fast is the library code (built with
# CFLAGS); the suites' own code is assertions and small loops, and -O0 -g1 compiles the 22 K lines
# of tests in half of -Og -g's CPU time (test_hip, test_emu, test_manifest, test_verify: 3.9 s
# against 7.9 s; -O2 -g took 2.4x -Og's), which is CI's build time. -g1 keeps the line tables
# (backtraces, the sanitizers' reports); Criterion's messages carry file:line themselves.
$(BUILD)/tests/%: tests/%.c $(LIBS) $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O0 -g1 $(LDFAST) $(LLVM_CFLAGS) -DLANELAB_ROOT='"$(CURDIR)"' -DLANELAB_BUILD='"$(CURDIR)/$(BUILD)"' \
	  -o $@ $< $(LIBS) -lcriterion $(LDLIBS)

# --- device code -------------------------------------------------------------------------------
# One device-compiler driver: `lanelab cc` (isa/cc.c, isa_cc_compile) builds lanelab's kernels and
# mutants here as it builds users' sources and manifests and lanelab mutate's mutants. Make runs
# KCC, the same code linked alone (mk/lanelab-cc.c), so kernels build without the whole binary;
# it is built with the plain flags into build/tools whatever SAN says. BUILD/toolchain-ARCH.txt
# holds what it chose for the arch (compiler, version, flags); it is rewritten only when that
# changes, and every kernel of the arch depends on it and on the driver's sources (KDRIVER), so a
# new compiler, flag or driver rebuilds them, while other C edits do not.
KCC     := build/tools/lanelab-cc
KDRIVER := isa/cc.c isa/ccdir.c isa/pch.c
KCC_SRC := mk/lanelab-cc.c cli/cmd_cc.c $(KDRIVER) isa/tool.c emu/arch.c util/util.c
$(KCC): $(KCC_SRC) isa/isa.h util/util.h emu/emu.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=gnu11 -Wall -Wno-format-truncation -pthread -I. -o $@ $(KCC_SRC)
.PHONY: FORCE
FORCE:
$(BUILD)/toolchain-%.txt: FORCE | $(KCC)
	@$(KCC) -q cc --arch $* --print-toolchain > $@.tmp && \
	  if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; \
	    echo "lanelab: device compiler for $*: $$(sed -n 's/^cc: //p' $@) ($$(sed -n 's/^version: //p' $@))" >&2; fi

# Outputs of sources that are gone are removed first (mk/prune-stale.sh); it touches nothing a
# current source builds, so it may run beside the kernel builds.
.PHONY: prune-stale
prune-stale:
	@bash mk/prune-stale.sh $(BUILD)
kernels: prune-stale $(KSTAMPS)
define kernel_rule
$(BUILD)/$(1)/kernels/$(basename $(notdir $(2))).built: $(2) $(KHDR) $(HIPHDR) $(KDRIVER) $(BUILD)/toolchain-$(1).txt | $(KCC)
	@$(KCC) -q cc $(2) --arch $(1) --into $(BUILD)/$(1)/kernels -- -Ikernels/include
	@touch $$@
endef
$(foreach a,$(ARCHES),$(foreach s,$(KSRC),$(eval $(call kernel_rule,$(a),$(s)))))

# Mutants: kernels/mutants.txt lists "NAME SOURCE" per line (lines tagged "human" in a third column
# are scored by mk/score-human-mutants.sh instead); each is the real source built with
# -DLANELAB_MUTANT=NAME -DLANELAB_MUTANT_<NAME>=1 into build/<arch>/mutants/NAME/.
MUTANTS  := $(shell awk '!/^\#/ && NF >= 2 && $$3 != "human" {print $$1 "@" $$2}' kernels/mutants.txt 2>/dev/null)
mname    = $(word 1,$(subst @, ,$(1)))
msrc     = $(word 2,$(subst @, ,$(1)))
MSTAMPS  := $(foreach a,$(ARCHES),$(foreach m,$(MUTANTS),$(BUILD)/$(a)/mutants/$(call mname,$(m))/$(basename $(notdir $(call msrc,$(m)))).built))
mutants: prune-stale $(MSTAMPS)
define mutant_rule
$(BUILD)/$(1)/mutants/$(call mname,$(2))/$(basename $(notdir $(call msrc,$(2)))).built: $(call msrc,$(2)) $(KHDR) $(HIPHDR) $(KDRIVER) kernels/mutants.txt $(BUILD)/toolchain-$(1).txt | $(KCC)
	@$(KCC) -q cc $(call msrc,$(2)) --arch $(1) --into $(BUILD)/$(1)/mutants/$(call mname,$(2)) -- -Ikernels/include \
	  -DLANELAB_MUTANT=$(call mname,$(2)) -DLANELAB_MUTANT_$(shell echo $(call mname,$(2)) | tr a-z A-Z)=1
	@touch $$@
endef
$(foreach a,$(ARCHES),$(foreach m,$(MUTANTS),$(eval $(call mutant_rule,$(a),$(m)))))

# --- verbs -------------------------------------------------------------------------------------
SEED ?= 1
VERIFY_ARGS := --arch $(ARCH) --shapes $(SHAPES) $(if $(filter random:%,$(SHAPES)),--seed $(SEED)) \
               $(if $(BASE),--base $(BASE)) $(if $(SHARD),--shard $(SHARD))
verify: $(LANELAB) kernels mutants
	$(LANELAB) verify $(VERIFY_ARGS)

# Stand-in HIP runtimes for hermetic tests (tests/support/fake_amdhip64.c): "nodev" is a runtime
# that sees no GPU, "otherarch" one that sees a gfx90a. mk/run-tests.sh sets LANELAB_HIP_LIB to
# nodev, so `make test` never depends on whether the host has libamdhip64 or a GPU.
HIPSTUBS := $(BUILD)/stubs/nodev/libamdhip64.so $(BUILD)/stubs/otherarch/libamdhip64.so
$(BUILD)/stubs/nodev/libamdhip64.so: STUB_FLAGS := -DFAKE_DEFAULT_COUNT=0
$(BUILD)/stubs/otherarch/libamdhip64.so: STUB_FLAGS := -DFAKE_DEFAULT_COUNT=1 -DFAKE_DEFAULT_ARCH='"gfx90a:sramecc+:xnack-"'
$(BUILD)/stubs/%/libamdhip64.so: tests/support/fake_amdhip64.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O1 $(STUB_FLAGS) -o $@ $<

# The HIP program corpus (tests/programs/*.hip, docs/hip-runtime.md): each a whole program built by
# `lanelab hipcc` for both arches, run by tests/test_hip_programs.c on each.
PROGSRC  := $(wildcard tests/programs/*.hip)
PROGBIN  := $(patsubst tests/programs/%.hip,$(BUILD)/programs/%,$(PROGSRC))
# Compiled (by the hipcc driver in isa/cc.c, against the headers) and linked (with the runtime
# library) apart, so a change to the library relinks and a change to lanelab's CLI rebuilds nothing.
# Like the kernels, the objects depend on the driver's sources and the chosen toolchain, not on
# this build's compiled driver: a sanitizer build compiles them to the same bytes (its flags only
# change the link), so .ci/run's SAN pass starts from the plain pass's objects.
PROGDRV  := $(KDRIVER) cli/cmd_hipcc.c $(foreach a,$(ARCHES),$(BUILD)/toolchain-$(a).txt)
$(BUILD)/programs/obj/%.o: tests/programs/%.hip tests/programs/common.h $(HIPHDR) $(PROGDRV) | $(LANELAB)
	@mkdir -p $(dir $@)
	$(LANELAB) -q hipcc -c $< -g -o $@
# features: the small programs, each tests/programs/features/PART.hip, as one (tests/programs/features.hip)
$(BUILD)/programs/obj/features.o: $(wildcard tests/programs/features/*.hip)
$(PROGBIN): $(BUILD)/programs/%: $(BUILD)/programs/obj/%.o $(BUILD)/lib/liblanelab.a | $(LANELAB)
	$(LANELAB) -q hipcc $< -o $@
# module_load's code object, loaded at run time with hipModuleLoad (not linked)
PROGMODS := $(foreach a,$(ARCHES),$(BUILD)/programs/modules/$(a)/module_kernels.co)
$(PROGMODS) &: tests/programs/modules/module_kernels.hip $(HIPHDR) $(PROGDRV) | $(LANELAB)
	$(LANELAB) -q cc $< --arch all -o $(BUILD)/programs/modules
# the same kernels as one offload bundle of both arches (lanelab hipcc --genco)
$(BUILD)/programs/modules/module_kernels.bundle: tests/programs/modules/module_kernels.hip $(HIPHDR) $(PROGDRV) | $(LANELAB)
	@mkdir -p $(dir $@)
	$(LANELAB) -q hipcc --genco $< -o $@
programs: $(PROGBIN) $(PROGMODS) $(BUILD)/programs/modules/module_kernels.bundle
.PHONY: programs

# The HIP test corpus (tests/hip/*.hip): built once per source for both arches by the same driver
# as the kernels (KCC = `lanelab cc`) into BUILD/hip/ARCH/NAME.{co,s}; test_hip and
# test_observe_hip run these code objects instead of compiling each file again in every suite
# and every pass (the sanitizer pass starts from the plain pass's copies, .ci/run).
HIPCORP  := $(wildcard tests/hip/*.hip)
HIPCSTAMPS := $(patsubst tests/hip/%.hip,$(BUILD)/hip/%.built,$(HIPCORP))
$(BUILD)/hip/%.built: tests/hip/%.hip $(HIPHDR) $(KDRIVER) $(foreach a,$(ARCHES),$(BUILD)/toolchain-$(a).txt) | $(KCC)
	@mkdir -p $(dir $@)
	@$(KCC) -q cc $< --arch all -o $(BUILD)/hip
	@touch $@
hipcorpus: $(HIPCSTAMPS)
.PHONY: hipcorpus

check-tests: $(TESTBIN) $(LANELAB) $(BUILD)/lib/liblanelab.a $(BUILD)/lib/liblanelab_hip.so $(HIPSTUBS) kernels mutants programs hipcorpus
test: check-tests
	@bash mk/run-tests.sh $(BUILD) $(TESTBIN)

# Mutation testing (verify/mutate.h): incremental (results cached under build/mutate/results),
# bounded by MAX=N new mutants per run, split by SHARD=I/N; nice'd, it shares the machine.
MUTATE_ARCH ?= all
mutate: $(LANELAB) kernels
	nice $(LANELAB) mutate --arch $(MUTATE_ARCH) $(if $(MAX),--max $(MAX)) $(if $(SHARD),--shard $(SHARD)) --build $(BUILD)

bench: $(LANELAB) kernels mutants programs
	$(LANELAB) bench

# --- install -----------------------------------------------------------------------------------
# make install PREFIX=DIR (default /usr/local): bin/lanelab; include/lanelab/*.h (the public API
# and the reference header) and the HIP device subset under include/lanelab/hip; lib/liblanelab.a
# and lib/pkgconfig/lanelab.pc; share/lanelab/ (the data the binary reads: device headers, the
# HIP subset, public headers, budgets, docs, the example project), found by the installed binary
# relative to itself (util.h ll_data_path). Every installed file is listed in
# share/lanelab/installed-files, which make uninstall PREFIX=DIR removes (and nothing else).
PREFIX ?= /usr/local

DATA_FILES := $(wildcard kernels/include/*.h) $(shell find hip/include -type f 2>/dev/null) \
              $(wildcard include/lanelab/*.h) isa/budgets.json docs/manifest.md \
              $(shell find examples/ci-project examples/hip-program -path '*/build' -prune -o -type f -print 2>/dev/null)
install: $(LANELAB) $(BUILD)/lib/liblanelab.a $(BUILD)/lib/liblanelab_hip.so
	@LANELAB_HIP_SO="$(BUILD)/lib/liblanelab_hip.so" bash mk/install.sh "$(PREFIX)" "$(LANELAB)" "$(BUILD)/lib/liblanelab.a" "$(VERSION)" "$(LDLIBS)" $(DATA_FILES)
uninstall:
	@bash mk/install.sh --uninstall "$(PREFIX)"

clean:
	rm -rf build

# The compiler's dependency lists (-MMD): the host objects' and the test binaries' (a suite is
# rebuilt when a header it includes changes, tests/*.h among them).
-include $(shell find $(BUILD)/obj $(BUILD)/tests -name '*.d' 2>/dev/null)

include fuzz/fuzz.mk
