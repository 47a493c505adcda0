/* cli/help — the command table: every `lanelab` command and subcommand, its one-line synopsis and
 * its help text, in one place. main.c dispatches through this table, so a command cannot exist
 * without help.
 *
 * Adding a command: add ONE entry to `entries` below and the same synopsis line to README.md's
 * "Command line" block (tests/test_cli.c checks that the two agree, both ways, for every entry).
 *  - name: "run", or "isa census" for a subcommand (dispatched by its parent, fn = NULL).
 *  - fn: the cmd_NAME function for a top-level command, NULL for a subcommand.
 *  - synopsis: the usage line without the leading "lanelab "; NULL for a parent whose usage is
 *    its subcommands' synopses.
 *  - body: what the command does; "Operands:" says what each operand means (units, names);
 *    "Options:" lists every option of the synopsis as "  --opt VALUE  text (default: ...)" (an
 *    optional option with a value must state its default); "Example:" gives one
 *    "  lanelab NAME ..." line. tests/test_cli.c checks each of these. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "util/util.h"

#ifndef LANELAB_VERSION
#define LANELAB_VERSION "unknown"
#endif
#ifndef LANELAB_GIT_REV
#define LANELAB_GIT_REV "unknown"
#endif

#define FORMAT_OPT "  --format F       text|csv|md|json (default: text)\n"
#define ARCH_OPT "  --arch A         gfx942 or gfx950, any case (default: gfx950)\n"

static const cli_help entries[] = {
    {"help", cmd_help, "help [COMMAND [SUBCOMMAND]]",
     "Prints the help of a command (or of every command, without one). `lanelab COMMAND --help`\n"
     "prints the same and exits 0. `lanelab --version` prints the version and the git revision\n"
     "the binary was built from.\n"
     "Operands:\n"
     "  COMMAND          a command name as listed by `lanelab help`\n"
     "  SUBCOMMAND       for commands that have them (isa, oracle, mfma list)\n"
     "Options:\n"
     "  --list           print the name of every help entry, one a line\n"
     "Global options (before COMMAND):\n"
     "  -q               quiet: no progress lines, no backend line on stderr\n"
     "  --version        version and git revision\n"
     "Example:\n"
     "  lanelab help run\n"},

    {"mfma", cmd_mfma, "mfma INSTR [--arch gfx942|gfx950] [--operand A|B|C|D [--at ROW,COL]] [--format text|csv|md|json]",
     "Where every element of an MFMA's A, B and C/D operands lives: lane, VGPR of the operand tuple\n"
     "and bit. A is (blocks*M) x K, B is K x (blocks*N).\n"
     "Operands:\n"
     "  INSTR            an MFMA mnemonic, e.g. v_mfma_f32_16x16x16_f16; the f8f6f4 ones take a\n"
     "                   suffix :fp8|bf8|fp6|bf6|fp4 (default fp8); `lanelab mfma list` lists them\n"
     "Options:\n" ARCH_OPT
     "  --operand X      A, B, C or D: print only that operand (default: all four)\n"
     "  --at ROW,COL     with --operand: the lane, VGPR and bits of one element; rows/cols are\n"
     "                   named for the operand (A i,k; B k,n; C/D i,j); outside the operand: exit 2\n"
     "                   (default: every element of the operand)\n" FORMAT_OPT
     "Output: csv rows are operand,row,col,lane,reg,bit (with --at: operand,ROW,COL,lane,reg,bit,bits).\n"
     "An INSTR absent on the arch is exit 2.\n"
     "Example:\n"
     "  lanelab mfma v_mfma_f32_16x16x16_f16 --arch gfx942 --operand A --format csv\n"
     "  lanelab mfma v_mfma_f32_16x16x16_f16 --operand B --at 7,3\n"},

    {"mfma list", NULL, "mfma list [--arch gfx942|gfx950] [--format text|csv|md|json]",
     "Lists the MFMA instructions the lane-map model covers on the arch.\n"
     "Options:\n" ARCH_OPT FORMAT_OPT "Example:\n"
     "  lanelab mfma list --arch gfx950\n"},

    {"lanes", cmd_lanes,
     "lanes PRIMITIVE [--arch gfx942|gfx950] [--seed fragment|solved | --addr EXPR|FILE [--tile SPEC] | --diff SEED,SEED] "
     "[--format text|csv|md|json] [--picture FILE.svg|FILE.png]",
     "What each of the 64 lanes holds after a data-movement primitive reads a tagged LDS tile.\n"
     "Operands:\n"
     "  PRIMITIVE        ds_read_b32, ds_read_b64, ds_read_b96, ds_read_b128, fragment_transpose (the\n"
     "                   six-shuffle software transpose), ds_read_b64_tr_b16, ds_read_b64_tr_b8,\n"
     "                   ds_read_b64_tr_b4, ds_read_b96_tr_b6\n"
     "                   (the transposing reads exist on gfx950 only: on gfx942 they are exit 2)\n"
     "Options:\n" ARCH_OPT
     "  --seed S         fragment (load_fragment's per-lane address) or solved (the solver's);\n"
     "                   (default: fragment for 16-bit primitives, solved for b8/b4/b6)\n"
     "  --addr EXPR|FILE your own per-lane byte addresses: a formula in L (integers, L,\n"
     "                   + - * / % << >> & | ^ ~, parentheses) or a file of 64 addresses\n"
     "  --tile SPEC      (with --addr) your own tile instead of lanelab's: rows=R,cols=C,elem=B,\n"
     "                   stride=S[,swizzle=kLinear|k64B|k128B|k128B_16Row] (elem 1, 2 or 4 bytes;\n"
     "                   stride in bytes per row); each slot is named by the element it holds\n"
     "                   (tag = row*C + col, and its row and col); default: lanelab's tile\n"
     "  --diff S1,S2     two seeds side by side (e.g. fragment,solved) with a differs column\n"
     "  --picture FILE   draw the tile to FILE.svg or FILE.png (PNG: headless Chromium): cells\n"
     "                   coloured by holding lane, labelled L<lane>.<vgpr>[<slot>]; with --diff both\n"
     "                   tiles, elements held elsewhere under the other seed outlined red\n"
     "                   (default: no picture)\n" FORMAT_OPT
     "Output: csv rows are lane,slot,tag (--diff: lane,slot,S1,S2,differs). 16-bit and plain\n"
     "reads see the k128B f16 region with tag = 16*row + col; b8/b4/b6 read linear tiles with\n"
     "tag = the row-major element index. A bad formula or file is exit 2.\n"
     "Example:\n"
     "  lanelab lanes ds_read_b64_tr_b16 --arch gfx950 --seed solved --format csv\n"
     "  lanelab lanes ds_read_b64_tr_b16 --addr '8*(L%16)+128*(L/16)'\n"
     "  lanelab lanes ds_read_b64_tr_b16 --diff fragment,solved --picture seeds.png\n"},

    {"seed", cmd_seed,
     "seed --target LAYOUT --via PRIMITIVE [--swizzle MODE] [--arch gfx942|gfx950] [--format text|csv|md|json]",
     "The per-lane LDS address (seed) that makes PRIMITIVE deliver LAYOUT, derived by inverting the\n"
     "read's lane rule, checked through the model and stated in lane bit-fields. No seed: exit 1\n"
     "with the reason.\n"
     "Operands:\n"
     "  --target LAYOUT  the register layout wanted: mfma16x16x16_a, mfma16x16x16_b,\n"
     "                   mfma16x16x32_a, mfma16x16x32_b, mfma32x32x8_a, mfma32x32x8_b,\n"
     "                   mfma16x16x32_fp8_a, mfma16x16x32_fp8_b, mfma16x16x128_fp4_b,\n"
     "                   mfma16x16x128_fp6_b (the A or B operand of that MFMA shape)\n"
     "  --via PRIMITIVE  ds_read_b64, ds_read_b64_tr_b16, ds_read_b64_tr_b8, ds_read_b64_tr_b4,\n"
     "                   ds_read_b96_tr_b6\n"
     "Options:\n"
     "  --swizzle MODE   the tile's LDS layout: kLinear, k64B, k128B, k128B_16Row\n"
     "                   (default: k128B for 16-bit tiles, kLinear for 8/6/4-bit tiles)\n" ARCH_OPT FORMAT_OPT
     "Output: csv rows are lane,row,col,addr (addr = the lane's LDS byte address; the notes give\n"
     "the swizzle's address formula). A LAYOUT feeding an MFMA the arch lacks is exit 2.\n"
     "Example:\n"
     "  lanelab seed --target mfma16x16x16_b --via ds_read_b64_tr_b16 --arch gfx950\n"},

    {"run", cmd_run,
     "run CODEOBJ KERNEL --grid X[,Y,Z] --block X[,Y,Z] [--arg [NAME=]SPEC]... "
     "[--kernarg FILE [--buf NAME@OFF[,OFF..]:SPEC]...] [--backend auto|hip|emu] "
     "[--dump-regs FILE] [--lds-bytes N] [--budget N] [--schedule roundrobin|adversarial|random:SEED] "
     "[--dump-at PC[:N]] [--racecheck[=global]] [--initcheck] [--trace SPEC] [--trace-out DIR] [--tile NAME:SPEC]... "
     "[--expect-a FILE] [--expect-b FILE] [--strict-memory] [--strict-fidelity]",
     "Runs one kernel of a code object on the emulator or a real GPU. On the emulator it ends with\n"
     "the fidelity line: how many executed instructions rested on stated choices, and which\n"
     "(docs/fidelity.md).\n"
     "Operands:\n"
     "  CODEOBJ          an AMDGPU code object (ELF, code object v5/v6) for gfx942 or gfx950\n"
     "  KERNEL           the kernel's symbol, or its C++ name: row_softmax finds\n"
     "                   _Z11row_softmaxPKfPfS1_i; also ns::gemm<128>, gemm, or the signature\n"
     "                   'scale(float*, float)'; several matches are exit 2 listing them\n"
     "Options:\n"
     "  --grid X[,Y,Z]   workgroups per dimension, missing ones 1 (required)\n"
     "  --block X[,Y,Z]  work-items per workgroup, missing ones 1 (required)\n"
     "  --arg SPEC       one per kernel argument, in order (default: none):\n"
     "                     in:FILE[:BYTES]     a buffer holding FILE; a device or FIFO needs BYTES,\n"
     "                                         the exact number of bytes read from it\n"
     "                     out:N:FILE          an N-byte zeroed buffer written to FILE after the run\n"
     "                     io:FILE:OUTFILE     FILE in, the buffer written to OUTFILE after the run\n"
     "                     u32:V i32:V u64:V f32:V   by-value arguments (integers may be 0x-hex)\n"
     "                   each must match the kernel's metadata, else exit 2 naming the argument;\n"
     "                   NAME=SPEC gives the argument of that metadata name, in any order, mixed\n"
     "                   with positional ones (names need clang -fhip-kernel-arg-name)\n"
     "  --kernarg FILE   the explicit arguments as raw bytes (a packed struct), copied to kernarg\n"
     "                   offset 0; hidden ones are still filled; not with --arg (default: none)\n"
     "  --buf NAME@OFF[,OFF..]:SPEC  with --kernarg: a buffer (SPEC in:, out: or io:) whose\n"
     "                   device address is written at each byte offset OFF (default: none)\n"
     "  --backend B      auto (a GPU of the code object's arch if present, else the emulator; the\n"
     "                   choice and the reason go to stderr unless -q), hip or emu (default: auto)\n"
     "  --dump-regs FILE every wave's SGPRs, VGPRs and AGPRs at s_endpgm as JSON (emulator only;\n"
     "                   default: no dump)\n"
     "  --lds-bytes N    dynamic LDS bytes per workgroup (default: 0)\n"
     "  --budget N       the emulator's instruction budget per wave (default: 50000000)\n"
     "  --strict-memory  memory-model patterns whose hardware result is undocumented fault\n"
     "                   instead of warning (emulator): an LDS access unordered with another\n"
     "                   wave's LDS write (not yet waited for, or waited for with no s_barrier\n"
     "                   since), an LDS result used after s_barrier without s_waitcnt, a\n"
     "                   duplicated s_load in flight (default: a warning per kernel PC on\n"
     "                   stderr, and a count at the end)\n"
     "  --strict-fidelity  an executed instruction resting on a stated choice (docs/emulator-choices.md)\n"
     "                   fails the run: exit 1 naming each choice and its first instruction, no\n"
     "                   output files (emulator; default: the fidelity line only)\n"
     "  --schedule S     how the waves of a workgroup interleave (emulator): roundrobin (one\n"
     "                   instruction each in turn), adversarial (each wave as far as it goes),\n"
     "                   random:SEED (a random wave runs 1..64 instructions; reproducible)\n"
     "                   (default: roundrobin)\n"
     "  --dump-at PC[:N] with --dump-regs: every wave's registers before its N-th execution of the\n"
     "                   instruction at PC, instead of at s_endpgm (default: N = 1)\n"
     "  --racecheck[=global] report LDS races: two waves of a workgroup touching one byte between\n"
     "                   the same barriers, one writing (RAW/WAR/WAW, both PCs, lanes, address);\n"
     "                   =global also global memory across workgroups; exit 1 on a hazard\n"
     "  --initcheck      report LDS bytes and out: buffer bytes read before any write; exit 1\n"
     "  --trace SPEC     record selected instructions: SEL[,SEL..][@wg=N[-M],wave=N[-M],first=N],\n"
     "                   SEL a mnemonic glob (ds_read*, v_mfma*) or pc=LO[-HI] (default: no trace)\n"
     "  --trace-out DIR  where trace.json, trace.csv, trace.html and mfma/ go (default: trace)\n"
     "  --tile NAME:SPEC base=N|argK[+N],rows=R,cols=C,elem=BYTES,stride=ROW_BYTES[,swizzle=none|\n"
     "                   kLinear|k64B|k128B|k128B_16Row|xor:D:M]: decode traced addresses to (row,col)\n"
     "                   on the trace page (default: none)\n"
     "  --expect-a FILE  raw A elements (row-major) every traced MFMA must have multiplied; the first\n"
     "                   wrong element is named with its lane and register, exit 1 (default: none)\n"
     "  --expect-b FILE  the same for B (default: none)\n"
     "Outputs are written atomically, only after a successful run; an existing output that is not a\n"
     "regular file (device, FIFO, socket, directory) is exit 2 before anything runs; a symlink is\n"
     "written through to its target. A fault names arch, kernel, PC, instruction, lane and address\n"
     "(exit 1).\n"
     "Example:\n"
     "  lanelab run build/gfx950/kernels/lane_tr8.co lane_tr8 --grid 1 --block 64 "
     "--arg out:1024:dump.bin --arg in:image.bin\n"},

    {"oracle", cmd_oracle, NULL,
     "The CPU reference implementations. The spec fields are documented in oracle/oracle.h and\n"
     "docs/oracle.md; a bad spec is exit 2 naming the field.\n"},

    {"oracle attention", NULL, "oracle attention --spec FILE.json --out DIR",
     "Prefill attention on the CPU: single, ragged and paged (NHD/HND) batches; causal\n"
     "(bottom-right), window_left, logits_soft_cap, custom_mask, GQA/MQA; f16/bf16/f32 inputs.\n"
     "Writes DIR/o.bin (f32 [total_q, Hq, D]), DIR/lse.bin (f32 [total_q, Hq], base 2) and\n"
     "DIR/meta.json.\n"
     "Options:\n"
     "  --spec FILE.json the problem: shapes, dtypes, masks, and input files or \"seed\": N to\n"
     "                   generate them (required)\n"
     "  --out DIR        output directory, created if missing (required)\n"
     "Example:\n"
     "  lanelab oracle attention --spec spec.json --out build/oracle/case1\n"},

    {"oracle concat-mla-q", NULL, "oracle concat-mla-q --spec FILE.json --out DIR",
     "concat_mla_q on the CPU: writes DIR/q_out.bin ([T, H, 576], bit-exact).\n"
     "Options:\n"
     "  --spec FILE.json the problem (required)\n"
     "  --out DIR        output directory, created if missing (required)\n"
     "Example:\n"
     "  lanelab oracle concat-mla-q --spec spec.json --out build/oracle/q\n"},

    {"isa", cmd_isa, NULL,
     "Instruction-level checks on code objects, with LLVM's tools (/usr/lib/llvm-22/bin or\n"
     "$LANELAB_LLVM_BIN; missing tools are exit 3).\n"},

    {"isa census", NULL, "isa census CODEOBJ [--format text|csv|md|json]",
     "Counts instructions per kernel from llvm-objdump: mnemonics, MNEMONIC:nt|sc0|sc1, dpp and\n"
     "canonical classes, zeros included.\n"
     "Operands:\n"
     "  CODEOBJ          a code object\n"
     "Options:\n" FORMAT_OPT "Example:\n"
     "  lanelab isa census build/gfx950/kernels/prefill_single.co --format csv\n"},

    {"isa diff", NULL, "isa diff A.co B.co [--format text|csv|md|json]",
     "Compares two code objects' .text byte for byte: exit 0 identical, 1 different (with the\n"
     "first differing offset and both instructions).\n"
     "Operands:\n"
     "  A.co B.co        the two code objects\n"
     "Options:\n" FORMAT_OPT "Example:\n"
     "  lanelab isa diff old/prefill_single.co build/gfx942/kernels/prefill_single.co\n"},

    {"isa probe", NULL, "isa probe --arch gfx942|gfx950 'ASM LINE' [--format text|csv|md|json]",
     "Asks llvm-mc whether the arch accepts one assembly line: exit 0 accepted, 1 rejected.\n"
     "Operands:\n"
     "  'ASM LINE'       one instruction in LLVM AMDGPU syntax, quoted\n"
     "Options:\n"
     "  --arch A         gfx942 or gfx950, any case (required)\n" FORMAT_OPT "Example:\n"
     "  lanelab isa probe --arch gfx942 'ds_read_b64_tr_b16 v[0:1], v2'\n"},

    {"isa budgets", NULL,
     "isa budgets [--arch gfx942|gfx950|all] [--budgets FILE] [--build DIR] [--format text|csv|md|json]",
     "Checks every built kernel's instruction census against the budgets file: exit 0 all within,\n"
     "1 a budget broken.\n"
     "Options:\n"
     "  --arch A         gfx942, gfx950 or all, any case (default: all)\n"
     "  --budgets FILE   the budgets (default: isa/budgets.json)\n"
     "  --build DIR      where the code objects are (default: build)\n" FORMAT_OPT "Example:\n"
     "  lanelab isa budgets --arch gfx950\n"},

    {"isa base", NULL, "isa base REV [--arch gfx942|gfx950] [--format text|csv|md|json]",
     "Builds REV's kernels in a temporary git worktree and compares each code object's .text with\n"
     "the current build: exit 0 every kernel identical, 1 one differs.\n"
     "Operands:\n"
     "  REV              a git revision (commit, tag, branch)\n"
     "Options:\n"
     "  --arch A         gfx942 or gfx950, any case (default: gfx942)\n" FORMAT_OPT "Example:\n"
     "  lanelab isa base main~1 --arch gfx942\n"},

    {"isa coverage", NULL, "isa coverage CODEOBJ... [--format text|csv|md|json]",
     "The emulator's fidelity over every instruction of each code object's .text, decoded as the\n"
     "emulator decodes it: with semantics from AMD's documents only, resting on stated choices (each\n"
     "choice named with its docs/emulator-choices.md anchor and the mnemonics), or refused (each\n"
     "mnemonic with the reason; it faults \"unimplemented\" if executed). The classes add up to the\n"
     "total. Exit 0; an unreadable or malformed code object is exit 2 (docs/fidelity.md).\n"
     "Operands:\n"
     "  CODEOBJ...       one or more code objects for gfx942 or gfx950\n"
     "Options:\n" FORMAT_OPT "Example:\n"
     "  lanelab isa coverage build/gfx950/kernels/prefill_single.co\n"},

    {"verify", cmd_verify,
     "verify --arch gfx942|gfx950|all [--base REV] [--shapes quick|full|random:N] [--seed S] [--shard I/N] "
     "[--backend auto|hip|emu] [--build DIR] [--manifest FILE.json] [--strict-fidelity]",
     "Runs every verification stage (model, kernels, isa, lanes, prod, mutants, base) for each\n"
     "arch; writes DIR/results/<arch>/<stage>.json and the HTML reports. Exit 1 if a check failed,\n"
     "else 2 for bad input, else 3 if a stage could not run (it says why), else 0.\n"
     "With --manifest, runs a project's own kernels instead (docs/manifest.md): stages kernels,\n"
     "isa, outputs (each kernel against its C reference, expected files or the oracle) and mutants\n"
     "(each must fail); a wrong output prints kernel, argument, first mismatch and report page; a\n"
     "bad manifest is exit 2 naming the JSON path of the bad field.\n"
     "Reports: DIR/reports/<arch>/ and DIR/reports/mfma/ (docs/reports.md); a standalone picture's\n"
     "PNG is rendered by headless Chromium (LANELAB_PNG=0: not rendered; the report says why).\n"
     "Options:\n"
     "  --arch A         gfx942, gfx950 or all, any case (required; with --manifest default: all)\n"
     "  --base REV       also prove each code object's .text identical to REV's (default: not run)\n"
     "  --shapes S       quick, full or random:N (N cases, 1..100000, drawn from the whole variant\n"
     "                   space: docs/verify-matrix.md): the production-kernel matrix (default: quick)\n"
     "  --seed S         the random matrix's seed, decimal or 0x-hex (default: none; required with\n"
     "                   random:N; a failing case prints its reproduction: random:1 --seed <case seed>)\n"
     "  --shard I/N      run the I-th of N slices of the cases, 0 <= I < N (default: 0/1)\n"
     "  --backend B      auto, hip or emu, as for run (default: auto)\n"
     "  --build DIR      the build directory (default: build; with --manifest: build/lanelab beside it)\n"
     "  --manifest FILE  a manifest of your kernels; its paths are relative to it (default: none)\n"
     "  --strict-fidelity  an emulated instruction resting on a stated choice (docs/fidelity.md) is\n"
     "                   a failed check, named with its first instruction (default: the line only)\n"
     "Example:\n"
     "  lanelab verify --arch all --shapes quick\n"
     "  lanelab verify --arch gfx942 --shapes random:200 --seed 20261201\n"},

    {"mutate", cmd_mutate,
     "mutate [--arch gfx942|gfx950|all] [--max N] [--shard I/N] [--random N] [--seed S] [--file PATH] "
     "[--only LIST] [--list] [--report] [--retry] [--build DIR] [--root DIR]",
     "Source-level mutation testing of the production kernels (kernels/prod/, lanelab_device.h,\n"
     "lanelab_fragments.h): operator swaps, integer +-1, dropped sum terms, swapped call arguments,\n"
     "removed barriers/fences, min/max swaps. Each mutant is built per arch; one whose .text is\n"
     "byte-identical to the correct build is equivalent (not scored); the others must fail the gate\n"
     "(quick matrix + a fixed-seed random sample) by a fault or >= 100x the noise floor. Prints the\n"
     "score per file and function and every survivor; writes DIR/mutate/report.md. Results are\n"
     "cached per mutant, so runs are incremental. Exit 0 if every arch scores >= 98% with nothing\n"
     "left unrun, else 1. See docs/verify-matrix.md.\n"
     "Options:\n"
     "  --arch A         gfx942, gfx950 or all (default: all)\n"
     "  --max N          run at most N mutants not yet in the cache (default: no limit)\n"
     "  --shard I/N      only mutants i with i mod N = I (default: 0/1)\n"
     "  --random N       random cases drawn for the gate; those with head_dim 64 run (default: 48)\n"
     "  --seed S         their seed (default: 1)\n"
     "  --file PATH      only this file's mutants, e.g. kernels/prod/concat_mla_q.hip (default: all)\n"
     "  --only LIST      run only these mutants (indices as --list prints them: I or I-J, comma-separated;\n"
     "                   with --retry, to rerun a triaged survivor); the rest are reported from the cache\n"
     "                   (default: every mutant)\n"
     "  --list           list the mutants (index, file:line:col, function, operator, change) and exit\n"
     "  --report         report from the cache only, run nothing\n"
     "  --retry          rerun cached survivors and narrow kills (after the matrix grew)\n"
     "  --build DIR      the build directory with the correct code objects (default: build)\n"
     "  --root DIR       the source tree (default: .)\n"
     "Example:\n"
     "  lanelab mutate --shard 0/4 --max 50\n"},

    {"compare", cmd_compare,
     "compare GOT REF --dtype f32|f16|bf16|f64|i64|u64|i32|u32|i16|u16|i8|u8|fp8_e4m3|fp8_e5m2|fp8_e4m3_fnuz|fp8_e5m2_fnuz [--shape D0,D1,..] "
     "[--atol A] [--rtol R] [--format text|json] [--lanes[=ROWS]] [--max-bytes N]",
     "Compares a kernel's output with a reference, element by element: an element passes iff\n"
     "|got - ref| <= atol + rtol*|ref|. Prints the max abs and rel error (over pairs both finite)\n"
     "and where, the count over tolerance, the first 10 mismatches by multi-index with both values\n"
     "and bits, and the non-finite disagreements: NaN vs a number, +inf vs -inf, inf vs a finite\n"
     "value (always over tolerance). The same infinity, or NaN on both sides, agrees.\n"
     "Exit 0 all within tolerance, 1 some over, 2 a size that does not match the shape or dtype.\n"
     "Operands:\n"
     "  GOT              the kernel's output: raw little-endian elements of the dtype\n"
     "  REF              the reference, same layout\n"
     "Options:\n"
     "  --dtype T        the element type (required); an fp8 element is compared as the value its\n"
     "                   encoding denotes (OCP e4m3/e5m2, and the FNUZ forms gfx942 uses),\n"
     "                   integers bit for bit at zero tolerance\n"
     "  --shape D0,D1,.. dims, row-major, last fastest; both files must hold exactly that many\n"
     "                   elements (default: flat, both the same whole number of elements)\n"
     "  --atol A         absolute tolerance (default: f16 1e-3, bf16 1e-2, f32 1e-5, f64 1e-7,\n"
     "                   fp8 e4m3 0.125, e5m2 0.25 (one mantissa step), integers 0)\n"
     "  --rtol R         relative tolerance (default: as --atol)\n"
     "  --format F       text or json (default: text)\n"
     "  --lanes[=ROWS]   also give each mismatch as wave, dword and lane of a register dump:\n"
     "                   32-bit dwords in rows of 64 lanes, lane fastest (the --dump-regs vgprs\n"
     "                   layout, out[dword*64 + lane]); ROWS dwords per lane make one wave\n"
     "                   (default: no lanes; ROWS default: the whole file is one wave). Two\n"
     "                   --dump-regs JSON files are compared register by register: each mismatch\n"
     "                   named by wave, register (v5, a3) and lane\n"
     "  --max-bytes N    refuse an input larger than N bytes (default: 4294967296)\n"
     "Example:\n"
     "  lanelab compare out.bin ref.bin --dtype f16 --shape 128,64 --atol 1e-3 --rtol 1e-3\n"},

    {"hipcc", cmd_hipcc,
     "hipcc SRC... [-c|--genco] -o OUT [--offload-arch=gfx942|gfx950]... [-x hip] [-I DIR] [-D X] [-O N] [-g] [-std=S] [--shared-runtime] [-fgpu-rdc]",
     "Compiles and links a whole HIP program (host and device code, <<<>>> launches, hipMalloc, ...)\n"
     "against lanelab's HIP headers and its HIP runtime on the emulator (docs/hip-runtime.md), with\n"
     "Debian's clang-22: -x hip -nogpuinc -mprintf-kind=buffered, and ROCm's device math library (ocml,\n"
     "Debian's rocm-device-libs) when installed, else -nogpulib. The program runs as it\n"
     "is (on the emulated arch named by LANELAB_ARCH) or under `lanelab exec` with checks.\n"
     "Other options starting with '-' go to clang's compile step (-S and -E stop it there, as\n"
     "with clang: no link); -L, -l, -Wl,..., -pthread and\n"
     "-fuse-ld=LD to the link (LLVM's lld unless -fuse-ld= names another linker). Exit: 0 built,\n"
     "2 a compile or link error or bad usage, 3 no clang-22 or no runtime library (run make).\n"
     "Operands:\n"
     "  SRC...           sources (.hip .cu .cpp .cc .cxx compile as HIP, .c as C) and .o .a .so\n"
     "                   files to link\n"
     "Options:\n"
     "  -c               compile only: each source to STEM.o (or to -o with one source)\n"
     "  --genco          device code only: one offload bundle of every arch, for hipModuleLoad\n"
     "  --shared-runtime link lanelab's HIP runtime as liblanelab_hip.so (with an rpath) instead of\n"
     "                   statically (default: static, liblanelab.a)\n"
     "  -o OUT           the program (default: a.out) or, with -c, the object\n"
     "  --offload-arch=A gfx942 or gfx950, or a target ID such as gfx942:sramecc+:xnack-, repeatable\n"
     "                   (default: both)\n"
     "  -x hip           the inputs after it are HIP sources whatever their names (-x none: by name)\n"
     "  -I DIR           include folder, after lanelab's HIP headers (default: none)\n"
     "  -D X             define a macro (default: none)\n"
     "  -O N             optimization level, as clang (default: -O3: at -O0 the device code keeps its\n"
     "                   locals in private (scratch) memory, which runs slowly on the emulator)\n"
     "  -g               debug information: faults and findings then name file:line\n"
     "  -std=S           C++ standard, as clang (default: clang's for HIP)\n"
     "  -fgpu-rdc        relocatable device code: kernels may call __device__ functions and use\n"
     "                   __device__ variables of other sources; give it to the compiles and the link\n"
     "                   (clang's new offload driver and linker wrapper; default: off)\n"
     "Example:\n"
     "  lanelab hipcc vector_add.hip -O2 -o vector_add\n"},

    {"exec", cmd_exec,
     "exec [--arch gfx942|gfx950] [--racecheck[=global]] [--initcheck] [--leakcheck] [--heapcheck] [--schedule S] [--budget N] [--strict-memory] "
     "[--strict-fidelity] [--trace SPEC] [--report DIR] -- PROGRAM [ARGS...]",
     "Runs a HIP program built with `lanelab hipcc` on the emulator with lanelab's checks on every\n"
     "launch, as compute-sanitizer runs a CUDA program. The program's own input and output are its\n"
     "own; each finding is printed on stderr as it happens (with file:line when the program was\n"
     "built with -g), and one summary line at exit: launches, kernels, faults, racecheck,\n"
     "initcheck, leakcheck, heapcheck, memory-model warnings, HIP API errors (docs/hip-runtime.md), then the fidelity\n"
     "line: how many executed instructions rested on stated choices (docs/fidelity.md).\n"
     "Exit: 0 the program exited 0 and nothing was found; 1 it exited non-zero or was killed, a\n"
     "launch faulted, racecheck/initcheck/leakcheck/heapcheck found something, or --strict-fidelity and an executed\n"
     "instruction rested on a stated choice; 2 bad usage, a program that cannot\n"
     "start or never reached lanelab's HIP runtime (no check ran); 3 the environment lacks something.\n"
     "Operands:\n"
     "  PROGRAM ARGS...  the program and its arguments (after --)\n"
     "Options:\n"
     "  --arch A         gfx942 or gfx950, any case (default: the one arch the program was built\n"
     "                   for, else gfx950)\n"
     "  --racecheck[=global]  LDS races (=global: global memory too, across workgroups) (default: off)\n"
     "  --initcheck      reads of LDS and of device memory no copy, memset or kernel wrote (default: off)\n"
     "  --leakcheck      at exit, each hipMalloc/hipHostMalloc/hipMallocManaged allocation and each\n"
     "                   block of the device heap (malloc in a kernel) not freed (default: off)\n"
     "  --heapcheck      kernels' accesses to the device heap outside every block malloc handed out\n"
     "                   and free did not take back: use after free, past a block's end (default: off)\n"
     "  --schedule S     roundrobin, adversarial or random:SEED (default: roundrobin)\n"
     "  --budget N       instructions each wave may issue before its launch stops as one that never\n"
     "                   ends (hipErrorLaunchTimeOut); LANELAB_BUDGET for a program run directly\n"
     "                   (default: 4294967296)\n"
     "  --strict-memory  memory-model warnings become faults (default: warnings)\n"
     "  --strict-fidelity  exit 1 when an executed instruction rested on a stated choice, naming\n"
     "                   each choice and its first instruction (default: the fidelity line only)\n"
     "  --trace SPEC     trace every launch (docs/trace.md); pages go to --report DIR (default: off)\n"
     "  --report DIR     traces (DIR/launch-N/) and the summary (DIR/exec-summary.json) (default:\n"
     "                   none; traces then go to ./lanelab-exec-report)\n"
     "Example:\n"
     "  lanelab exec --arch gfx942 --racecheck --initcheck -- ./vector_add\n"},

    {"cc", cmd_cc, "cc [SRC.hip] [--arch gfx942|gfx950|all] (-o OUT | --into DIR | --print-toolchain) [-- CLANG_FLAGS...]",
     "Compiles an ordinary HIP source (#include <hip/hip_runtime.h>) into gfx942/gfx950 code objects.\n"
     "The compiler: a ROCm >= 6.3 ($ROCM_PATH or /opt/rocm) with its own headers when it can target\n"
     "the arch, else Debian's clang-22 with lanelab's HIP subset (docs/hip-subset.md); anything\n"
     "outside the subset is a compile error naming it. Compiler messages pass through to stderr.\n"
     "It is lanelab's one device-compiler driver: make's kernel builds, manifests and lanelab mutate\n"
     "compile through it too.\n"
     "Exit: 0 compiled, 2 a compile error or bad usage, 3 no compiler or no HIP subset (says which).\n"
     "Operands:\n"
     "  SRC.hip          the HIP source (not with --print-toolchain)\n"
     "Options:\n"
     "  --arch A         gfx942, gfx950 or all, any case (default: all)\n"
     "  -o OUT           one arch: the code object; all: a folder, OUT/<arch>/<stem>.co with the\n"
     "                   disassembly OUT/<arch>/<stem>.s beside it (stem: SRC without extension)\n"
     "  --into DIR       a kernel folder as lanelab's own build keeps it: DIR/<stem>.co and .s (all:\n"
     "                   DIR/<arch>/...), DIR/<stem>.src naming the source, and DIR/<stem>.skip with\n"
     "                   the reason instead of a code object when the source's `// lanelab-arch:`\n"
     "                   line leaves the arch out (`// lanelab-why:` gives the reason)\n"
     "  --print-toolchain  print the compiler, its version and the flags used for the arch\n"
     "  -- FLAGS...      compiler flags after lanelab's -O3 -std=c++17, so they override them\n"
     "                   (default: none)\n"
     "Example:\n"
     "  lanelab cc row_softmax.hip --arch gfx950 -o row_softmax.co\n"},

    {"merge", cmd_merge, "merge [--out DIR] BUILD_DIR...",
     "Joins the results of `lanelab verify --shard I/N` runs (the --build directory of every shard\n"
     "0..N-1, each once, of one run: the same manifest or none, the same shapes) into DIR/results,\n"
     "DIR/reports and DIR/junit.xml. Stages every shard runs whole must agree and are kept once; a\n"
     "sharded stage's rows are joined, with a shard column naming the shard that ran each case.\n"
     "Exit status as verify's; a missing, duplicated or foreign shard is exit 2 naming it.\n"
     "Operands:\n"
     "  BUILD_DIR        the --build directory of one shard's verify run\n"
     "Options:\n"
     "  --out DIR        where the merged results and report go (default: merged)\n"
     "Example:\n"
     "  lanelab merge --out merged build-0 build-1 build-2\n"},

    {"bench", cmd_bench, "bench [emu|oracle|verify|seed|scale|hip|all] [--build DIR] [--seq N] [--arch A]",
     "Speed, measured here and never by timed tests.\n"
     "Operands:\n"
     "  emu              emulator throughput: MFMAs/s per type against the CPU's limit for the same\n"
     "                   semantics, VALU/DS and MFMA loops on 1 core and all, the scaling\n"
     "  oracle           GFLOP/s of the oracle's fast path\n"
     "  verify           wall time of `lanelab -q verify --arch all --shapes quick`\n"
     "  seed             the seed change's attention shape end to end on the emulator, and its\n"
     "                   time as a multiple of the oracle's (the fastest of 3 oracle runs)\n"
     "  scale            emulator time and peak memory of that shape for seq 512..8192, with a\n"
     "                   gnuplot figure and a table in BUILD/bench/\n"
     "  hip              the HIP runtime's own cost per launch and per copy (docs/hip-runtime.md)\n"
     "  all              all of them (default)\n"
     "Options:\n"
     "  --build DIR      the build directory (default: build)\n"
     "  --seq N          sequence length of the seed shape, 1..65536 (default: 4096); for scale the\n"
     "                   largest of the sweep (default: 8192)\n"
     "  --arch A         seed: gfx942, gfx950 or all, any case (default: all)\n"
     "Example:\n"
     "  lanelab bench emu\n"
     "  lanelab bench seed --arch gfx942\n"},
};

size_t cli_help_count(void) { return sizeof entries / sizeof entries[0]; }
const cli_help *cli_help_at(size_t i) { return i < cli_help_count() ? &entries[i] : NULL; }

const cli_help *cli_help_find(const char *name) {
  for (size_t i = 0; i < cli_help_count(); i++)
    if (strcmp(entries[i].name, name) == 0) return &entries[i];
  return NULL;
}

const char *cli_version(void) { return LANELAB_VERSION " (git " LANELAB_GIT_REV ")"; }

static bool is_sub_of(const cli_help *e, const cli_help *parent) {
  size_t n = strlen(parent->name);
  return e != parent && strncmp(e->name, parent->name, n) == 0 && e->name[n] == ' ';
}

void cli_help_print(FILE *f, const cli_help *e) {
  if (e->synopsis) fprintf(f, "usage: lanelab %s\n\n%s", e->synopsis, e->body);
  else fprintf(f, "lanelab %s: %s", e->name, e->body);
  bool subs = false;
  for (size_t i = 0; i < cli_help_count(); i++) {
    if (!is_sub_of(&entries[i], e) || !entries[i].synopsis) continue;
    if (!subs) fprintf(f, "Subcommands:\n");
    subs = true;
    fprintf(f, "  lanelab %s\n", entries[i].synopsis);
  }
  if (subs) fprintf(f, "`lanelab help %s SUBCOMMAND` (or `lanelab %s SUBCOMMAND --help`) for details.\n", e->name, e->name);
}

void cli_help_overview(FILE *f) {
  fprintf(f, "usage: lanelab [-q] COMMAND ...\n       lanelab --version\n\ncommands:\n");
  for (size_t i = 0; i < cli_help_count(); i++)
    if (entries[i].synopsis) fprintf(f, "  lanelab %s\n", entries[i].synopsis);
  fprintf(f, "\n-q before COMMAND silences progress lines and the backend line. Arch names are\n"
             "case-insensitive. Exit status: 0 pass, 1 a check failed, 2 bad usage or input, 3 the\n"
             "environment lacks something. `lanelab help COMMAND` or `lanelab COMMAND --help` for details.\n");
}

/* The entry for argv[0] (and argv[1] when "argv[0] argv[1]" names a subcommand entry). */
const cli_help *cli_help_lookup(int argc, char **argv) {
  if (argc < 1) return NULL;
  if (argc >= 2) {
    char *two = ll_fmt("%s %s", argv[0], argv[1]);
    const cli_help *e = cli_help_find(two);
    free(two);
    if (e) return e;
  }
  return cli_help_find(argv[0]);
}

int cmd_help(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
    if (argc > 2) ll_die(LL_EXIT_USAGE, "help: --list takes no operand");
    for (size_t i = 0; i < cli_help_count(); i++) printf("%s\n", entries[i].name);
    return LL_EXIT_OK;
  }
  if (argc == 1) {
    cli_help_overview(stdout);
    return LL_EXIT_OK;
  }
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    cli_help_print(stdout, cli_help_find("help"));
    return LL_EXIT_OK;
  }
  if (argc > 3) ll_die(LL_EXIT_USAGE, "help: at most COMMAND and SUBCOMMAND, got %d operands", argc - 1);
  const cli_help *e = cli_help_lookup(argc - 1, argv + 1);
  if (!e || (argc == 3 && strchr(e->name, ' ') == NULL))
    ll_die(LL_EXIT_USAGE, "help: no command '%s%s%s' (`lanelab help` lists them)", argv[1], argc == 3 ? " " : "",
           argc == 3 ? argv[2] : "");
  cli_help_print(stdout, e);
  return LL_EXIT_OK;
}
