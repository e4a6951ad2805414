// The registry over the families' modules (kit/module.hpp): every cipher has exactly one
// module, every entry a module lists belongs to its family, and the registry's choices
// (searchers, GPU search, CTR_DRBG block functions) are the modules' runnable entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

#include "dispatch/registry.hpp"

namespace {

TEST(Registry, EveryCipherHasOneModule)
{
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        int n = 0;
        for (const kc::CipherModule *m : kc::modules())
            n += std::strcmp(m->family, d.family) == 0;
        EXPECT_EQ(1, n) << d.name;
        ASSERT_NE(nullptr, kc::module_of(d.id)) << d.name;
        EXPECT_STREQ(d.family, kc::module_of(d.id)->family);
    }
}

TEST(Registry, ModuleEntriesBelongToTheirFamily)
{
    std::set<std::string> names;
    for (const kc::CipherModule *m : kc::modules()) {
        const std::string prefix = std::string(m->family) + "/";
        ASSERT_FALSE(m->kernels.empty()) << m->family;
        for (const kc::Kernel *k : m->kernels) {
            EXPECT_STREQ(m->family, k->family) << k->name;
            EXPECT_EQ(0u, std::string(k->name).rfind(prefix, 0)) << k->name;
            EXPECT_TRUE(names.insert(k->name).second) << k->name << " listed twice";
        }
        for (const kc::keysearch::CpuSearcher *s : m->cpu_searchers) {
            EXPECT_STREQ(m->family, s->family) << s->name;
            EXPECT_NE(nullptr, kc::find_kernel(s->kernel)) << s->name << " names no kernel";
        }
        for (const kc::FusedEcbEntry &e : m->fused_ecb)
            EXPECT_EQ(0u, std::string(e.name).rfind(prefix, 0)) << e.name;
        // A family's reference kernel is the oracle: it must be there and need nothing.
        const kc::Kernel *ref = kc::find_kernel(prefix + "ref");
        ASSERT_NE(nullptr, ref) << m->family;
        EXPECT_EQ(0u, ref->requires);
    }
}

TEST(Registry, GpuSearchIsTheFamilysOwnOrNone)
{
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        EXPECT_EQ(kc::module_of(d.id)->gpu_search, kc::gpu_search_for(d.id)) << d.name;
#if defined(KCIPHER_HAVE_CUDA)
        EXPECT_NE(nullptr, kc::gpu_search_for(d.id)) << d.name << ": every family has a GPU key search";
#else
        EXPECT_EQ(nullptr, kc::gpu_search_for(d.id)) << d.name << ": no GPU code without CUDA";
#endif
    }
    // No two families share one: a fall-through to another family's kernel would show here.
    std::set<kc::keysearch::cuda::GpuSearchFn> seen;
    for (const kc::CipherModule *m : kc::modules())
        if (m->gpu_search != nullptr)
            EXPECT_TRUE(seen.insert(m->gpu_search).second) << m->family;
}

TEST(Registry, ChoicesAreTheRunnableEntries)
{
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        std::vector<kc::FusedEcb> want;
        for (const kc::FusedEcbEntry &e : kc::module_of(d.id)->fused_ecb)
            if (kc::runnable(e.requires))
                want.push_back(e.fn);
        EXPECT_EQ(want, kc::fused_ecb_candidates(d.id)) << d.name;
        for (const kc::Kernel *k : kc::all_kernels()) {
            const kc::keysearch::CpuSearcher *s = kc::cpu_searcher_for(d.id, *k);
            if (s == nullptr)
                continue;
            EXPECT_STREQ(k->name, s->kernel);
            EXPECT_TRUE(kc::runnable(s->requires)) << s->name;
        }
    }
}

// The chains of single blocks (CMAC, CCM's CBC-MAC) run on a CPU kernel of the same family
// that this machine runs and that supports the cipher, and never on a kernel less constant-time
// than the context's: a constant-time context never gets a table.
TEST(Registry, ChainKernelIsRunnableAndAsConstantTime)
{
    for (const kc::CipherModule *m : kc::modules())
        for (const kc::Kernel *k : m->chain_kernels) {
            EXPECT_STREQ(m->family, k->family) << k->name;
            EXPECT_EQ(nullptr, k->gpu) << k->name;
            EXPECT_NE(m->kernels.end(), std::find(m->kernels.begin(), m->kernels.end(), k)) << k->name;
        }
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        for (const kc::Kernel *k : kc::all_kernels()) {
            if (k->gpu != nullptr || !kc::kernel_runnable(*k) || !k->supports(d.id))
                continue;
            const kc::Kernel &c = kc::chain_kernel(d.id, *k);
            EXPECT_STREQ(k->family, c.family) << d.name << " " << k->name;
            EXPECT_TRUE(kc::kernel_runnable(c) && c.supports(d.id)) << c.name;
            if (k->constant_time)
                EXPECT_TRUE(c.constant_time) << d.name << " " << k->name << " -> " << c.name;
        }
    }
}

} // namespace

// Every family's known answers (src/<family>/<family>_known_answers.txt) read as complete
// records of its own ciphers, and every cipher has at least one.
TEST(KnownAnswers, EveryRecordIsWellFormedAndEveryCipherHasOne)
{
    std::set<std::string> covered;
    for (const kc::CipherModule *m : kc::modules())
        for (const kc::KnownAnswer &t : m->known_answers) {
            EXPECT_EQ("", t.error) << m->family << ": " << t.source;
            const kc::CipherDesc *d = kc::cipher_by_name(t.cipher.c_str());
            ASSERT_NE(nullptr, d) << m->family << ": " << t.cipher;
            EXPECT_STREQ(m->family, d->family) << t.cipher;
            EXPECT_EQ(2u * d->key_bytes, t.key.size()) << t.source;
            if (t.mode != "ctr")
                EXPECT_EQ(0u, t.pt.size() % (2 * d->block_bytes)) << t.source;
            covered.insert(t.cipher);
        }
    for (int i = 0; i < kc::cipher_count; i++)
        EXPECT_EQ(1u, covered.count(kc::cipher_by_index(i)->name)) << kc::cipher_by_index(i)->name;
}

// The reader refuses what is not a record instead of guessing, and joins continued values.
TEST(KnownAnswers, ReaderJoinsContinuationsAndNamesMistakes)
{
    auto r = kc::read_known_answers("# comment\n"
                                    "source = S\ncipher = lea-128\nmode = cbc\nkey = 00\n  11\n"
                                    "iv = 22\npt = 3344\nct = 5566\n\n"
                                    "source = T\ncipher = lea-128\nmode = cfb1\nkey = 00\npt = 11\nct = 22\n\n"
                                    "source = U\ncipher = lea-128\nmode = ecb\nkey = 00\npt = 11\nct = 2\n\n"
                                    "source = V\ncolour = blue\n\n"
                                    "source = W\ncipher = lea-128\nmode = ecb\nkey = 00\npt = 11\n");
    ASSERT_EQ(5u, r.size());
    EXPECT_EQ("", r[0].error);
    EXPECT_EQ("0011", r[0].key);
    EXPECT_EQ("cbc", r[0].mode);
    EXPECT_NE(std::string::npos, r[1].error.find("cfb1"));
    EXPECT_NE(std::string::npos, r[2].error.find("hex"));
    EXPECT_NE(std::string::npos, r[3].error.find("line 26"));
    EXPECT_NE(std::string::npos, r[4].error.find("lacks"));
}
