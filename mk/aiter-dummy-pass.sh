#!/usr/bin/env bash
# The all-objects dummy pass over AMD's aiter kernels (issue 28): every kernel of every gfx942 and
# gfx950 code object under AITER_DIR/hsa runs once on lanelab's emulator, as a new user would run
# it without knowing its arguments: one workgroup of the kernel's .max_flat_workgroup_size
# work-items, zero buffers and zero scalars (every global_buffer argument points to its own
# BUFSIZE-byte buffer of zeros, every other explicit argument byte is 0), no dynamic LDS, a
# per-wave instruction budget. Each run's outcome is tallied:
#   ok               the kernel ended (s_endpgm in every wave)
#   out-of-bounds    "out-of-bounds global access" (docs/aiter.md classifies each one)
#   trap             "trap" (s_trap)
#   missing-waitcnt  "missing s_waitcnt" (issue 25)
#   unimplemented    "unimplemented" (an instruction or feature lanelab refuses)
#   budget           "budget exceeded": still running when the budget ran out (not a failure)
#   other            any other fault or error; the message is kept
# Nothing of aiter is copied anywhere: the code objects are read where they are.
#
# usage: mk/aiter-dummy-pass.sh AITER_DIR [OUT_DIR]
#   OUT_DIR (default build/aiter-dummy-pass) gets results.tsv (object, kernel, block, outcome,
#   seconds, first message line), summary.txt (counts per arch and outcome, the same as printed)
#   and out-of-bounds.tsv (each out-of-bounds stop: object, kernel, pc, instruction, address,
#   detail). A results.tsv already there is resumed: kernels it lists are not run again.
# environment: LANELAB (default build/lanelab of this repository), JOBS parallel runs (default 2),
#   BUDGET per-wave instruction budget (default 200000), TIMEOUT seconds per run (default 120),
#   ONLY a substring an object's path must contain (default: all), BUFSIZE bytes of each zero
#   buffer (default 1048576).
# exit: 0 when the pass ran (whatever the outcomes), 2 bad usage, 3 a tool is missing.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
aiter=${1:-}
out=${2:-$root/build/aiter-dummy-pass}
if [ -z "$aiter" ] || [ ! -d "$aiter/hsa" ]; then
  echo "usage: mk/aiter-dummy-pass.sh AITER_DIR [OUT_DIR]: AITER_DIR must hold aiter's hsa/ (got '$aiter')" >&2
  exit 2
fi
lanelab=${LANELAB:-$root/build/lanelab}
readelf=/usr/lib/llvm-22/bin/llvm-readelf
for t in "$lanelab" "$readelf" python3 timeout; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "aiter-dummy-pass: $t not found (build lanelab with make; llvm-22 and python3 are needed)" >&2
    exit 3
  fi
done
for v in "${JOBS:-2}" "${BUDGET:-200000}" "${TIMEOUT:-120}" "${BUFSIZE:-1048576}"; do
  if ! [[ "$v" =~ ^[1-9][0-9]*$ ]]; then
    echo "aiter-dummy-pass: JOBS, BUDGET, TIMEOUT and BUFSIZE must be positive integers (got '$v')" >&2
    exit 2
  fi
done
mkdir -p "$out" || exit 2
exec python3 - "$aiter" "$out" "$lanelab" "$readelf" "${JOBS:-2}" "${BUDGET:-200000}" "${TIMEOUT:-120}" "${ONLY:-}" \
  "${BUFSIZE:-1048576}" <<'PY'
import atexit, os, re, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

aiter, out, lanelab, readelf, jobs, budget, timeout, only, bufsize = sys.argv[1:10]
jobs, budget, timeout, bufsize = int(jobs), int(budget), int(timeout), int(bufsize)

def kernels(co):
    """(symbol, max_flat_workgroup_size, explicit-argument bytes, offsets of the global_buffer
    arguments) per kernel, from llvm-readelf's
    YAML of the metadata note: kernels are '  - ' items (keys at column 4), arguments '      - '
    items (keys at column 8)."""
    r = subprocess.run([readelf, "--notes", co], capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip().splitlines() or ["llvm-readelf failed"])[0]
    ks, k, a = [], None, None
    def close_arg():
        if k is not None and a is not None and not a.get("kind", "").startswith("hidden_"):
            k["end"] = max(k["end"], a.get("offset", 0) + a.get("size", 0))
            if a.get("kind") == "global_buffer": k["ptrs"].append(a.get("offset", 0))
    for line in r.stdout.splitlines():
        m = re.match(r"^  - \.(\S+):\s*(.*)$", line)
        if m:
            close_arg(); a = None
            k = {"end": 0, "ptrs": []}; ks.append(k)
            line = "    ." + m.group(1) + ": " + m.group(2)
        if k is None:
            continue
        m = re.match(r"^      - \.(\S+):\s*(.*)$", line)
        if m:
            close_arg(); a = {}
            line = "        ." + m.group(1) + ": " + m.group(2)
        m = re.match(r"^        \.(offset|size|value_kind):\s*(\S+)", line)
        if m and a is not None:
            if m.group(1) == "value_kind": a["kind"] = m.group(2)
            else: a[m.group(1)] = int(m.group(2), 0)
            continue
        m = re.match(r"^    \.(symbol|max_flat_workgroup_size):\s*(\S+)", line)
        if m:
            if m.group(1) == "symbol": k["symbol"] = m.group(2)
            else: k["wg"] = int(m.group(2), 0)
    close_arg()
    res = []
    for k in ks:
        if "symbol" not in k:
            return None, "a kernel without .symbol in the metadata"
        sym = k["symbol"][:-3] if k["symbol"].endswith(".kd") else k["symbol"]
        res.append((sym, min(max(k.get("wg", 256), 1), 1024), k["end"], k["ptrs"]))
    return res, None

def classify(rc, text):
    if rc == 0: return "ok"
    for kind, name in (("out-of-bounds global access", "out-of-bounds"), ("missing s_waitcnt", "missing-waitcnt"),
                       ("unimplemented", "unimplemented"), ("budget exceeded", "budget")):
        if "lanelab: " + kind in text: return name
    if re.search(r"lanelab: trap: ", text): return "trap"
    return "other"

def first_message(text):
    """The fault (or error) line: not a warning, not the warning count that ends a run."""
    lines = [l for l in text.splitlines() if l.strip()]
    for line in lines:
        if re.match(r"lanelab: [a-z][a-z0-9 ()-]*: gfx9[0-9]+ kernel ", line) and not line.startswith("lanelab: warning"):
            return line[9:]
    for line in lines:
        if line.startswith("lanelab: ") and not line.startswith("lanelab: warning") and not re.match(r"lanelab: \d+ memory-model", line):
            return line[9:]
    return lines[-1] if lines else ""

results = os.path.join(out, "results.tsv")
done = set()
if os.path.exists(results):
    with open(results) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) >= 4: done.add((p[0], p[1]))
objs = []
for arch in ("gfx942", "gfx950"):
    base = os.path.join(aiter, "hsa", arch)
    for d, _, fs in os.walk(base):
        for fn in fs:
            if fn.endswith(".co") and only in os.path.join(d, fn):
                objs.append(os.path.join(d, fn))
objs.sort()
tmp = tempfile.mkdtemp(prefix="aiter-dummy-")
# the zero buffers live only as long as this run: removed however the run ends
atexit.register(shutil.rmtree, tmp, True)
zbuf = os.path.join(tmp, "zero-buffer.bin")
with open(zbuf, "wb") as f: f.write(b"\0" * bufsize)
todo, broken = [], []
for co in objs:
    ks, err = kernels(co)
    rel = os.path.relpath(co, aiter)
    if ks is None:
        broken.append((rel, err)); continue
    for sym, wg, end, ptrs in ks:
        if (rel, sym) not in done:
            todo.append((co, rel, sym, wg, end, ptrs))
print(f"aiter-dummy-pass: {len(objs)} objects, {len(todo)} kernels to run ({len(done)} already in {results}), "
      f"budget {budget} per wave, zero buffers of {bufsize} bytes, {jobs} at a time", flush=True)

def run(item):
    co, rel, sym, wg, end, ptrs = item
    cmd = [lanelab, "-q", "run", co, sym, "--grid", "1", "--block", str(wg), "--backend", "emu", "--budget", str(budget)]
    if end:
        kf = os.path.join(tmp, f"zero{end}.bin")
        if not os.path.exists(kf):
            with open(kf + f".{os.getpid()}.{id(item)}", "wb") as f: f.write(b"\0" * end)
            os.replace(kf + f".{os.getpid()}.{id(item)}", kf)
        cmd += ["--kernarg", kf]
        for i, off in enumerate(ptrs):
            cmd += ["--buf", f"b{i}@{off}:in:{zbuf}"]
    t0 = time.time()
    try:
        r = subprocess.run(["timeout", str(timeout)] + cmd, capture_output=True, text=True)
        text, rc = r.stdout + r.stderr, r.returncode
        outcome = "other" if rc == 124 else classify(rc, text)
        msg = f"timed out after {timeout} s" if rc == 124 else first_message(text)
    except OSError as e:
        outcome, msg = "other", str(e)
    return rel, sym, wg, outcome, time.time() - t0, msg.replace("\t", " ")

n = 0
with open(results, "a") as rf, ThreadPoolExecutor(max_workers=jobs) as ex:
    for rel, sym, wg, outcome, dt, msg in ex.map(run, todo):
        rf.write(f"{rel}\t{sym}\t{wg}\t{outcome}\t{dt:.2f}\t{msg}\n"); rf.flush()
        n += 1
        if n % 100 == 0: print(f"aiter-dummy-pass: {n}/{len(todo)}", flush=True)
for rel, err in broken:
    print(f"aiter-dummy-pass: {rel}: metadata unreadable: {err}", file=sys.stderr)

# tally everything in results.tsv (this run and any resumed one)
counts, oob = {}, []
with open(results) as f:
    for line in f:
        p = line.rstrip("\n").split("\t")
        if len(p) < 6: continue
        arch = p[0].split(os.sep)[1] if p[0].startswith("hsa" + os.sep) else "?"
        counts.setdefault(arch, {}).setdefault(p[3], 0)
        counts[arch][p[3]] += 1
        if p[3] == "out-of-bounds":
            m = re.search(r"pc (0x[0-9a-f]+) '([^']*)'(?: lane \d+)?(?: address (0x[0-9a-f]+))?(?:: (.*))?", p[5])
            oob.append((p[0], p[1]) + (m.groups() if m else ("?", "?", "?", p[5])))
order = ["ok", "out-of-bounds", "trap", "missing-waitcnt", "unimplemented", "budget", "other"]
lines = [f"{'arch':8} " + " ".join(f"{o:>15}" for o in order) + f" {'total':>7}"]
tot = {o: 0 for o in order}
for arch in sorted(counts):
    c = counts[arch]
    for o in order: tot[o] += c.get(o, 0)
    lines.append(f"{arch:8} " + " ".join(f"{c.get(o, 0):>15}" for o in order) + f" {sum(c.values()):>7}")
lines.append(f"{'all':8} " + " ".join(f"{tot[o]:>15}" for o in order) + f" {sum(tot.values()):>7}")
lines.append(f"objects: {len(objs)} ({len(broken)} with unreadable metadata); budget {budget} per wave; "
             f"zero buffers of {bufsize} bytes")
def put(name, text):
    """Write out/name whole or not at all: a temporary file beside it, then a rename."""
    path = os.path.join(out, name)
    fd, t = tempfile.mkstemp(dir=out, prefix="." + name + ".")
    with os.fdopen(fd, "w") as f: f.write(text)
    os.replace(t, path)
put("summary.txt", "\n".join(lines) + "\n")
put("out-of-bounds.tsv", "".join("\t".join(x or "" for x in r) + "\n" for r in oob))
print("\n".join(lines))
PY
