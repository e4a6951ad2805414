# Sourced by the scripts: finds nvcc where the CUDA toolkit installs it.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
jobs=$(nproc 2>/dev/null || echo 2)

# Emulated (qemu) and sanitized test runs take a seeded share of the large AEAD test grids
# (tests/support/sample.hpp), PERCENT of their cases; native release runs take them whole. A
# KCIPHER_TEST_SAMPLE the caller set wins (100: every case); the seed is printed, so that a
# failing run can be repeated with KCIPHER_TEST_SEED=SEED.
sample_large_grids() {
  export KCIPHER_TEST_SAMPLE=${KCIPHER_TEST_SAMPLE:-$1:${KCIPHER_TEST_SEED:-$(date +%s)}}
  echo "large test grids: KCIPHER_TEST_SAMPLE=$KCIPHER_TEST_SAMPLE (percent:seed, tests/support/sample.hpp)"
}
