#!/usr/bin/env python3
"""SASS opcode counts of every CUDA kernel in a kcipher build, as JSON on stdout.

usage: sass_count.py BUILD_DIR

cuobjdump: $CUOBJDUMP, else the one on PATH, else /usr/local/cuda/bin's; where the toolkit
has none, bench/tools/fetch-cuobjdump gets it from PyPI.

For each __global__ function in the library's CUDA objects: the static count of each opcode,
the total, and the count per pipe class (alu: LOP3 IADD3 SHF PRMT ISETP SEL ...; fma: IMAD;
lsu: LDS LDG STG LDC ...). A grid kernel's body runs once per cipher block (per 32 blocks
for the bitsliced ones), so the static count of the unrolled kernel is the per-block work
plus a fixed prologue and the tail code; ncu's executed-instruction counts (scripts/gpu-check)
give the dynamic figure.
"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ALU = {"LOP3", "LOP", "IADD3", "SHF", "PRMT", "ISETP", "SEL", "IABS", "BMSK", "SGXT", "FLO", "POPC",
       "BREV", "LEA", "IMNMX", "VIMNMX", "MOV", "PLOP3", "P2R", "R2P", "CS2R"}
# VIADD (an addition with a uniform or immediate operand, new in sm_90) issues to the FMA pipe:
# ncu's sm__inst_executed_pipe_fma counts it there (H100, lea/cuda: `scripts/gpu-check OUT ncu`,
# bench/results/ncu-h100-lea-cham-pipes.txt).
FMA = {"IMAD", "IMUL", "IMAD.WIDE", "IDP", "FFMA", "VIADD"}
LSU = {"LDS", "LDG", "STG", "STS", "LDC", "LDL", "STL", "LD", "ST", "ATOMS", "SHFL", "LDSM"}


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool:
        return names
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    return out[: len(names)]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    objs = sorted(glob.glob(os.path.join(sys.argv[1], "src", "**", "*.cu.o"), recursive=True))
    if not objs:
        sys.exit("no CUDA objects under " + sys.argv[1])
    cuobjdump = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    result = []
    for obj in objs:
        sass = subprocess.run([cuobjdump, "-sass", obj], capture_output=True, text=True).stdout
        func, counts = None, None
        funcs = []
        for line in sass.splitlines():
            m = re.match(r"\s*Function : (\S+)", line)
            if m:
                func, counts = m.group(1), collections.Counter()
                funcs.append((func, counts))
                continue
            m = re.match(r"\s*/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)(\.[A-Z0-9_.]+)?", line)
            if m and counts is not None:
                op = m.group(1)
                if op == "NOP":
                    continue
                counts[op] += 1
        pretty = demangle([f for f, _ in funcs])
        for (mangled, counts), name in zip(funcs, pretty):
            cls = collections.Counter()
            for op, n in counts.items():
                cls["alu" if op in ALU else "fma" if op in FMA else "lsu" if op in LSU else "other"] += n
            result.append({"object": os.path.basename(obj), "function": name, "mangled": mangled,
                           "total": sum(counts.values()), "by_class": dict(cls),
                           "by_opcode": dict(counts.most_common())})
    json.dump(result, sys.stdout, indent=1)
    print(f"{len(result)} kernels from {len(objs)} objects", file=sys.stderr)


if __name__ == "__main__":
    main()
