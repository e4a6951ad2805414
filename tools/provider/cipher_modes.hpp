// The mode families' contexts, made by algorithms.cpp's newctx for the algorithm's mode.
#pragma once

#include "cipher_ctx.hpp"

namespace kcprov {
CipherCtx *new_padded_ctx(ProvCtx *p, const Algo &a); // ECB, CBC
CipherCtx *new_stream_ctx(ProvCtx *p, const Algo &a); // CTR, CFB, CFB8, OFB
CipherCtx *new_gcm_ctx(ProvCtx *p, const Algo &a);
CipherCtx *new_ccm_ctx(ProvCtx *p, const Algo &a);
CipherCtx *new_xts_ctx(ProvCtx *p, const Algo &a);
} // namespace kcprov
