// Loads and stores of fixed-endian words from byte arrays (no alignment assumed).
#pragma once

#include <cstdint>

namespace kc {

inline uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
inline void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
inline uint64_t load_be64(const uint8_t *p) { return (uint64_t)load_be32(p) << 32 | load_be32(p + 4); }
inline void store_be64(uint8_t *p, uint64_t v)
{
    store_be32(p, (uint32_t)(v >> 32));
    store_be32(p + 4, (uint32_t)v);
}
inline uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
inline void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
inline uint16_t load_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
inline void store_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
inline uint32_t rotl32(uint32_t x, unsigned r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
inline uint32_t rotr32(uint32_t x, unsigned r) { return (x >> (r & 31)) | (x << ((32 - r) & 31)); }
inline uint16_t rotl16(uint16_t x, unsigned r)
{
    return (uint16_t)((x << (r & 15)) | (x >> ((16 - r) & 15)));
}
inline uint16_t rotr16(uint16_t x, unsigned r)
{
    return (uint16_t)((x >> (r & 15)) | (x << ((16 - r) & 15)));
}
inline uint8_t rotl8(uint8_t x, unsigned r) { return (uint8_t)((x << (r & 7)) | (x >> ((8 - r) & 7))); }

} // namespace kc
