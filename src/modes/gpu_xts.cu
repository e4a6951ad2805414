// XTS over device memory: a call cut into launches of at most 2^34 bytes (modes/xts_cut.hpp:
// whole units, or a run of one unit's blocks), each launch the kernel's two passes
// (cuda/xts_kernels.cuh) with its segments' tweak anchors in device scratch. The scratch is
// wiped and freed in order on the stream, so the call returns once the work is queued, as
// ECB does.
#include <cuda_runtime.h>

#include "core/wipe.hpp"
#include "cuda/gf128_xts.cuh"
#include "cuda/xts_pass.hpp"
#include "modes/gpu_modes.hpp"
#include "modes/gpu_scratch.hpp"
#include "modes/xts_cut.hpp"

namespace kc {

namespace {

// Launches stay below 2^30 blocks (32-bit segment and block indices in the kernels).
constexpr size_t max_launch_bytes = size_t(1) << 34;

XtsPass pass_for(const XtsPiece &pc, const uint32_t base[4], uint64_t first_block, bool decrypt, const uint8_t *in,
                 uint8_t *out)
{
    XtsPass p{};
    p.in = in + pc.offset;
    p.out = out + pc.offset;
    p.len = pc.len;
    p.unit_bytes = pc.unit_bytes;
    p.first_block = first_block + pc.first_block;
    cuda::xts_tweak_add(base, pc.unit, p.tweak);
    p.decrypt = decrypt;
    xts_count_segments(p);
    return p;
}

} // namespace

kcipher_status gpu_device_xts(const GpuJob &j, const void *tweak_keys, bool decrypt, const uint8_t tweak[16],
                              size_t data_unit, const uint8_t *in, uint8_t *out, size_t len, void *stream,
                              uint64_t first_block)
{
    if (j.kernel->gpu->xts == nullptr)
        return KCIPHER_ERR_UNSUPPORTED;
    if (len == 0)
        return KCIPHER_OK;
    const XtsCut cut(len, data_unit, max_launch_bytes);
    uint32_t base[4];
    for (int k = 0; k < 4; k++)
        base[k] = cuda::load_le32(tweak + 4 * k);
    uint32_t most = 0; // segments of the largest launch: the anchors' scratch serves each in turn
    for (size_t i = 0; i < cut.count(); i++) {
        const XtsPass p = pass_for(cut.piece(i), base, first_block, decrypt, in, out);
        most = p.nseg > most ? p.nseg : most;
    }
    int err = cudaSuccess;
    {
        Scratch scratch((cudaStream_t)stream);
        uint32_t *anchors = scratch.get<uint32_t>((size_t)most * 4, err);
        for (size_t i = 0; i < cut.count() && err == cudaSuccess; i++) {
            XtsPass p = pass_for(cut.piece(i), base, first_block, decrypt, in, out);
            p.anchors = anchors;
            err = j.kernel->gpu->xts(j.keys, tweak_keys, p, stream);
            secure_wipe(p.tweak, sizeof p.tweak);
        }
    }
    secure_wipe(base, sizeof base);
    return gpu_status(err);
}

} // namespace kc
