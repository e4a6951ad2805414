#!/bin/bash
# Prints the CPU on which a throughput-bound row (GHASH alone) runs fastest, for the one-core
# benchmarks' taskset. On a shared cloud host a vCPU whose physical core a neighbour keeps busy
# runs such code 1.3-1.8x slower while latency-bound code (the clock's add chain) does not
# notice; the one-core rows are measured on a quiet core, the choice recorded in the results.
#   bash bench/tools/quietest_core.sh build/tools/kcipher/kcipher    -> "11" (stderr: each core's c/B)
set -euo pipefail
kc=${1:?usage: quietest_core.sh KCIPHER}
for c in $(seq 0 $(($(nproc) - 1))); do
    v=$(taskset -c "$c" "$kc" bench -c aria-128-gmac --stream -s 16384 --rounds 3 --seconds 0.05 --no-openssl 2>/dev/null |
        awk '$1 == "kcipher" { print $8 }')
    echo "$c ${v:-999}"
done | tee /dev/stderr | sort -k2 -g | head -1 | cut -d' ' -f1
