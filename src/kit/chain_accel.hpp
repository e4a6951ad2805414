// What a one-block kernel (a family's chain kernel, dispatch/registry.hpp) offers the chains:
// CBC encryption, CMAC and CCM's CBC-MAC, CFB and OFB encryption, where each block waits for the
// one before. Through the block interface each block is a call, a store of the chain's register
// and a reload of it, and the kernel's constants and key pointer fetched again; here the loop
// runs inside the kernel's file with its block function inlined, the register kept in registers
// from one block to the next. A family declares one ChainAccel beside the kernel it serves and
// lists it in its module (kit/module.hpp); the API puts it in the Keyed of its chain kernel
// (modes/keyed.hpp), and the modes use it where it is there.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/kernel.hpp"

namespace kc {

struct ChainAccel {
    const Kernel *kernel; // the kernel whose key states these read
    uint32_t requires;    // Feature bits the machine must have (core/features.hpp)

    // x is the chain's register (one block), read and left holding its last value; in and out
    // hold n blocks, identical or disjoint.
    // CBC: x = E(x ^ in[i]); out[i] = x where out is not null (CMAC and CCM's MAC pass null).
    void (*cbc)(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n);
    // CFB encryption: x = E(x) ^ in[i]; out[i] = x.
    void (*cfb)(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n);
    // OFB: x = E(x); out[i] = in[i] ^ x.
    void (*ofb)(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n);
};

// The three loops over a family's block, for the family's file to instantiate where B is
// defined, B giving the block in the form its rounds work on (an xmm register, four words):
//   using Keys = ...; using State = ...;
//   static State load(const uint8_t *p);  static void store(uint8_t *p, State s);
//   static State xor2(State a, State b);  static State encrypt(const Keys &k, State s);
// The register never goes through memory between blocks (a byte buffer there was reassembled
// byte by byte, or stalled store-to-load forwarding, on every block). flatten inlines B's
// functions, and all they call, into each loop.
template <class B> struct ChainLoops {
    __attribute__((flatten)) static void cbc(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n)
    {
        const typename B::Keys &k = *static_cast<const typename B::Keys *>(keys);
        typename B::State v = B::load(x);
        for (size_t i = 0; i < n; i++) {
            v = B::encrypt(k, B::xor2(v, B::load(in + block * i)));
            if (out != nullptr)
                B::store(out + block * i, v);
        }
        B::store(x, v);
    }
    __attribute__((flatten)) static void cfb(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n)
    {
        const typename B::Keys &k = *static_cast<const typename B::Keys *>(keys);
        typename B::State v = B::load(x);
        for (size_t i = 0; i < n; i++) {
            v = B::xor2(B::encrypt(k, v), B::load(in + block * i));
            B::store(out + block * i, v);
        }
        B::store(x, v);
    }
    __attribute__((flatten)) static void ofb(const void *keys, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n)
    {
        const typename B::Keys &k = *static_cast<const typename B::Keys *>(keys);
        typename B::State v = B::load(x);
        for (size_t i = 0; i < n; i++) {
            v = B::encrypt(k, v);
            B::store(out + block * i, B::xor2(v, B::load(in + block * i)));
        }
        B::store(x, v);
    }

  private:
    static constexpr size_t block = sizeof(typename B::State);
};

} // namespace kc
