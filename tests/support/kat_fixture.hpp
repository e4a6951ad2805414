// The fixture of the per-family known-answer tests (test_aria_kat.cpp, test_lea_kat.cpp,
// test_hight_kat.cpp, test_cham_kat.cpp): the kernel named by the test parameter, skipped
// with a message where this machine cannot run it, and a tally of the vectors checked that
// reports only the first few failures in full, so that a broken kernel stays readable.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/cipher.hpp"
#include "dispatch/registry.hpp"
#include "support/kat_checks.hpp"
#include "support/vectors.hpp"

namespace kct {

class KernelKat : public testing::TestWithParam<std::string> {
  protected:
    static constexpr size_t max_reported_failures = 5; // per test

    void SetUp() override
    {
        k_ = kc::find_kernel(GetParam());
        ASSERT_NE(k_, nullptr) << GetParam();
        if (!kc::kernel_runnable(*k_))
            GTEST_SKIP() << GetParam() << " needs features this machine lacks";
    }

    // The descriptor of a kernel of `family`: its block size (a family's largest), a batch, a
    // key state, and support for exactly its family's ciphers.
    void expect_descriptor(const char *family, size_t block_bytes)
    {
        EXPECT_STREQ(k_->family, family);
        EXPECT_EQ(k_->block_bytes, block_bytes);
        EXPECT_GE(k_->batch_blocks, 1u);
        EXPECT_GT(k_->key_state_bytes, 0u);
        for (int i = 0; i < kc::cipher_count; i++) {
            const kc::CipherDesc *d = kc::cipher_by_index(i);
            EXPECT_EQ(k_->supports(d->id), std::string(d->family) == family) << d->name;
        }
    }

    // Every line of a one-cipher ECB known-answer file (cipher=NAME, mode=ECB, key, pt, ct)
    // through the kernel; returns how many it checked.
    void check_ecb_file(const char *file, const char *name, kc::Cipher c)
    {
        for (const Record &r : load_kv_lines(file)) {
            ASSERT_EQ(r.at("cipher"), name) << where(file, r);
            ASSERT_EQ(r.at("mode"), "ECB") << where(file, r);
            record(ecb_matches(k_, c, unhex(r.at("key")), unhex(r.at("pt")), unhex(r.at("ct"))), where(file, r));
        }
    }

    // Counts a vector's result; reports only the first few failures in full.
    void record(const testing::AssertionResult &r, const std::string &at)
    {
        checked_++;
        if (!r && ++failed_ <= max_reported_failures)
            ADD_FAILURE() << at << ": " << r.message();
    }

    // The records of one section ("name" = section) of a Crypto++ vector file.
    static std::vector<Record> cryptopp_section(const std::string &file, const std::string &section)
    {
        std::vector<Record> out;
        for (const Record &r : load_cryptopp(file))
            if (r.at("name") == section)
                out.push_back(r);
        return out;
    }

    const kc::Kernel *k_ = nullptr;
    size_t checked_ = 0;
    size_t failed_ = 0;
};

} // namespace kct
