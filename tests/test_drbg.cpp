// CTR_DRBG: the NIST CAVP vectors through an AES adapter (tests/support/drbg_helpers.hpp),
// the TTAK.KO-12.0189 vectors on every CPU kernel of ARIA, LEA and HIGHT and through the C
// API, large outputs against request-by-request generation, and misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "drbg/chain.hpp"
#include "drbg/ctr_drbg.hpp"
#include "core/key_state.hpp"
#include "drbg/kernel_cipher.hpp"
#include "drbg/segments.hpp"
#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "support/drbg_helpers.hpp"
#include "support/drbg_rsp.hpp"
#include "support/vectors.hpp"

namespace {

using kc::drbg::Drbg;
using kc::drbg::Span;
using Bytes = std::vector<uint8_t>;

Span span(const Bytes &b) { return {b.empty() ? nullptr : b.data(), b.size()}; }

std::unique_ptr<Drbg> kernel_drbg(const kc::Kernel &k, kc::Cipher c, bool df)
{
    return std::make_unique<Drbg>(std::make_unique<kc::drbg::KernelCipher>(k, c), df);
}

std::unique_ptr<Drbg> best_drbg(kc::Cipher c, bool df) { return kernel_drbg(*kc::best_cpu_kernel(c), c, df); }

// The throughput layer's accelerations for best_drbg's kernel (what the C API's handle uses).
kc::drbg::Accelerations best_fast(kc::Cipher c) { return kc::drbg::accelerations_for(*kc::best_cpu_kernel(c), c); }

bool section_df(const kct::DrbgCase &v) { return v.section.find("use df") != std::string::npos; }
bool section_pr(const kct::DrbgCase &v) { return v.params.at("PredictionResistance") == "True"; }

// ---- NIST CAVP (AES) ------------------------------------------------------------------------

#ifdef KC_HAVE_OPENSSL
// The flows of ../shared/vectors/README.md: instantiate, [reseed], generate, generate; the
// second output is compared.
void run_nist_case(const kct::DrbgCase &v)
{
    size_t kb = v.section.rfind("AES-128", 0) == 0 ? 16 : 32;
    Drbg d(std::make_unique<kct::AesCipher>(kb), section_df(v));
    kct::EntropyQueue q;
    d.set_entropy_source(&kct::EntropyQueue::take, &q);
    bool pr = section_pr(v);
    if (pr) {
        q.q.push_back(v.bytes("EntropyInputPR", 0));
        q.q.push_back(v.bytes("EntropyInputPR", 1));
    }
    Bytes e = v.bytes("EntropyInput"), nonce = v.bytes("Nonce"), ps = v.bytes("PersonalizationString");
    Span es = span(e);
    ASSERT_EQ(d.instantiate(&es, span(nonce), span(ps)), KCIPHER_OK) << v.where();
    if (v.has("EntropyInputReseed")) {
        Bytes r = v.bytes("EntropyInputReseed"), ai = v.bytes("AdditionalInputReseed");
        Span rs = span(r);
        ASSERT_EQ(d.reseed(&rs, span(ai)), KCIPHER_OK) << v.where();
    }
    Bytes want = v.bytes("ReturnedBits"), out(want.size());
    for (int i = 0; i < 2; i++) {
        Bytes ai = v.bytes("AdditionalInput", i);
        ASSERT_EQ(d.generate(out.data(), out.size(), span(ai), pr), KCIPHER_OK) << v.where();
    }
    EXPECT_EQ(kct::tohex(out), kct::tohex(want)) << v.where();
    EXPECT_TRUE(q.q.empty()) << v.where();
}

class NistCavp : public ::testing::TestWithParam<const char *> {};

TEST_P(NistCavp, AesThroughAdapter)
{
    std::vector<kct::DrbgCase> cases = kct::load_drbg_rsp(GetParam());
    ASSERT_GT(cases.size(), 0u) << GetParam() << " holds no vectors";
    // Each file keeps [AES-128|AES-256] x [use df|no df], 240 COUNTs each.
    EXPECT_EQ(cases.size(), 960u);
    std::map<std::string, int> per_section;
    for (const kct::DrbgCase &v : cases) {
        run_nist_case(v);
        per_section[v.section]++;
        if (HasFatalFailure())
            return;
    }
    EXPECT_EQ(per_section.size(), 4u);
    for (const auto &[s, n] : per_section)
        EXPECT_EQ(n, 240) << s;
    RecordProperty("vectors", int(cases.size()));
    std::printf("[ info     ] %s: %zu vectors passed\n", GetParam(), cases.size());
}

INSTANTIATE_TEST_SUITE_P(Files, NistCavp,
                         ::testing::Values("nist_cavp_CTR_DRBG_no_reseed_AES128_AES256.rsp",
                                           "nist_cavp_CTR_DRBG_pr_false_AES128_AES256.rsp",
                                           "nist_cavp_CTR_DRBG_pr_true_AES128_AES256.rsp"));
#endif

// ---- TTAK.KO-12.0189 (SEED, ARIA, LEA, HIGHT) ------------------------------------------------

const char kKisaFile[] = "kisa_ttak_ko_12_0189_ctr_drbg.rsp";

// "ARIA-128 use df" -> aria-128, "SEED-128 no df" -> seed-128, "HIGHT-128 .." -> hight.
const kc::CipherDesc *kisa_cipher(const std::string &section)
{
    std::string name = section.substr(0, section.find(' '));
    for (char &ch : name)
        ch = char(std::tolower((unsigned char)ch));
    if (name == "hight-128")
        name = "hight";
    return kc::cipher_by_name(name);
}

struct KisaInputs {
    Bytes e, nonce, ps, ai1, ai2, rb1, rb2;
    std::deque<Bytes> entropy; // what the source hands out, in order
    bool pr, df;
    uint64_t interval = 0; // 0: the default
};

KisaInputs kisa_inputs(const kct::DrbgCase &v)
{
    KisaInputs in;
    in.e = v.bytes("EntropyInput"), in.nonce = v.bytes("Nonce"), in.ps = v.bytes("PersonalizationString");
    in.ai1 = v.bytes("AdditionalInput1"), in.ai2 = v.bytes("AdditionalInput2");
    in.rb1 = v.bytes("ReturnedBits1"), in.rb2 = v.bytes("ReturnedBits2");
    in.pr = section_pr(v), in.df = section_df(v);
    if (in.pr) {
        in.entropy = {v.bytes("EntropyInputPR1"), v.bytes("EntropyInputPR2")};
    } else {
        in.interval = std::stoull(v.params.at("ReseedInterval"));
        if (in.interval == 1)
            in.entropy = {v.bytes("EntropyInputReseed")};
    }
    return in;
}

// The procedure at the top of the KISA file, on one Drbg; both outputs compared.
void run_kisa_case(Drbg &d, const KisaInputs &in, const std::string &where)
{
    kct::EntropyQueue q;
    q.q = in.entropy;
    d.set_entropy_source(&kct::EntropyQueue::take, &q);
    if (in.interval != 0)
        ASSERT_EQ(d.set_reseed_interval(in.interval), KCIPHER_OK);
    Span es = span(in.e);
    ASSERT_EQ(d.instantiate(&es, span(in.nonce), span(in.ps)), KCIPHER_OK) << where;
    Bytes out(in.rb1.size());
    ASSERT_EQ(d.generate(out.data(), out.size(), span(in.ai1), in.pr), KCIPHER_OK) << where;
    EXPECT_EQ(kct::tohex(out), kct::tohex(in.rb1)) << where << " (1st output)";
    ASSERT_EQ(d.generate(out.data(), out.size(), span(in.ai2), in.pr), KCIPHER_OK) << where;
    EXPECT_EQ(kct::tohex(out), kct::tohex(in.rb2)) << where << " (2nd output)";
    EXPECT_TRUE(q.q.empty()) << where << ": the reseed entropy was not used";
}

TEST(DrbgKisa, EveryCpuKernelOfEachCipher)
{
    std::vector<kct::DrbgCase> cases = kct::load_drbg_rsp(kKisaFile);
    ASSERT_GT(cases.size(), 0u) << kKisaFile << " holds no vectors";
    size_t ours = 0, runs = 0;
    std::map<std::string, int> per_cipher;
    for (const kct::DrbgCase &v : cases) {
        const kc::CipherDesc *c = kisa_cipher(v.section);
        ASSERT_NE(c, nullptr) << v.where() << ": a cipher kcipher does not know";
        ours++;
        per_cipher[c->name]++;
        KisaInputs in = kisa_inputs(v);
        for (const kc::Kernel *k : kc::all_kernels()) {
            if (k->gpu != nullptr || !kc::kernel_runnable(*k) || !k->supports(c->id))
                continue;
            auto d = kernel_drbg(*k, c->id, in.df);
            run_kisa_case(*d, in, v.where() + " kernel " + k->name);
            runs++;
            if (HasFatalFailure())
                return;
        }
    }
    // 8 ciphers x (df, no df) x (PR, interval 1, interval 2) x 4 inputs = 192.
    EXPECT_EQ(ours, 192u);
    EXPECT_EQ(per_cipher.size(), 8u);
    EXPECT_EQ(per_cipher.count("seed-128"), 1u);
    for (const auto &[name, n] : per_cipher)
        EXPECT_EQ(n, 24) << name;
    std::printf("[ info     ] %s: %zu vectors (of %zu), %zu kernel runs passed\n", kKisaFile, ours, cases.size(), runs);
}

// Appendix B.1: SEED-128's Key and V after Instantiate and after each Generate (use df, no
// prediction resistance, reseed interval 1, so the second Generate reseeds first), on every
// CPU kernel of SEED: the internal state, not only the output, follows the standard.
std::map<std::string, Bytes> kisa_seed_intermediate()
{
    std::ifstream f(kct::vector_path(kKisaFile));
    std::map<std::string, Bytes> kv;
    bool in = false;
    for (std::string line; std::getline(f, line);) {
        if (line == "[SEED-128 use df intermediate]")
            in = true;
        else if (in && line.empty())
            break;
        else if (in && line.find(" = ") != std::string::npos)
            kv[line.substr(0, line.find(" = "))] = kct::unhex(line.substr(line.find(" = ") + 3));
    }
    return kv;
}

TEST(DrbgKisa, SeedIntermediateKeyAndV)
{
    std::map<std::string, Bytes> v = kisa_seed_intermediate();
    ASSERT_EQ(v.size(), 14u) << kKisaFile << ": the B.1 section";
    size_t runs = 0;
    for (const kc::Kernel *k : kc::all_kernels()) {
        if (k->gpu != nullptr || !kc::kernel_runnable(*k) || !k->supports(kc::Cipher::seed128))
            continue;
        auto d = kernel_drbg(*k, kc::Cipher::seed128, true);
        kct::EntropyQueue q;
        q.q = {v.at("EntropyInputReseed")};
        d->set_entropy_source(&kct::EntropyQueue::take, &q);
        ASSERT_EQ(d->set_reseed_interval(1), KCIPHER_OK);
        Span es = span(v.at("EntropyInput"));
        ASSERT_EQ(d->instantiate(&es, span(v.at("Nonce")), span(v.at("PersonalizationString"))), KCIPHER_OK);
        auto state = [&](const char *step) {
            EXPECT_EQ(kct::tohex(Bytes(d->key(), d->key() + 16)), kct::tohex(v.at(std::string(step) + ".Key")))
                << k->name << " " << step;
            EXPECT_EQ(kct::tohex(Bytes(d->v(), d->v() + 16)), kct::tohex(v.at(std::string(step) + ".V")))
                << k->name << " " << step;
        };
        state("Instantiate");
        for (int i = 1; i <= 2; i++) {
            Bytes out(v.at("ReturnedBits" + std::to_string(i)).size());
            ASSERT_EQ(d->generate(out.data(), out.size(), span(v.at("AdditionalInput" + std::to_string(i))), false),
                      KCIPHER_OK);
            EXPECT_EQ(kct::tohex(out), kct::tohex(v.at("ReturnedBits" + std::to_string(i)))) << k->name;
            state(i == 1 ? "Generate1" : "Generate2");
        }
        EXPECT_TRUE(q.q.empty()) << k->name << ": the reseed entropy was not used";
        runs++;
    }
    EXPECT_GE(runs, 1u); // seed/ref runs everywhere
}

// The same vectors through the public C API.
struct CApiQueue {
    kct::EntropyQueue q;
};

TEST(DrbgKisa, ThroughTheCApi)
{
    std::vector<kct::DrbgCase> cases = kct::load_drbg_rsp(kKisaFile);
    size_t n = 0;
    for (const kct::DrbgCase &v : cases) {
        const kc::CipherDesc *c = kisa_cipher(v.section);
        ASSERT_NE(c, nullptr) << v.where();
        KisaInputs in = kisa_inputs(v);
        kcipher_drbg *d = nullptr;
        ASSERT_EQ(kcipher_drbg_new(&d, c->name, in.df ? 0 : KCIPHER_DRBG_NO_DF, nullptr), KCIPHER_OK);
        kct::EntropyQueue q;
        q.q = in.entropy;
        ASSERT_EQ(kcipher_drbg_set_entropy_source(d, &kct::EntropyQueue::take, &q), KCIPHER_OK);
        if (in.interval != 0)
            ASSERT_EQ(kcipher_drbg_set_reseed_interval(d, in.interval), KCIPHER_OK);
        ASSERT_EQ(kcipher_drbg_instantiate(d, in.e.data(), in.e.size(), in.nonce.data(), in.nonce.size(),
                                           in.ps.data(), in.ps.size()),
                  KCIPHER_OK);
        Bytes out(in.rb1.size());
        ASSERT_EQ(kcipher_drbg_generate(d, out.data(), out.size(), in.ai1.data(), in.ai1.size(), in.pr), KCIPHER_OK);
        EXPECT_EQ(kct::tohex(out), kct::tohex(in.rb1)) << v.where();
        ASSERT_EQ(kcipher_drbg_generate(d, out.data(), out.size(), in.ai2.data(), in.ai2.size(), in.pr), KCIPHER_OK);
        EXPECT_EQ(kct::tohex(out), kct::tohex(in.rb2)) << v.where();
        kcipher_drbg_free(d);
        n++;
    }
    EXPECT_EQ(n, 192u);
}

// ---- large outputs: chain + parallel step == generate() request by request --------------------

void seed_both(Drbg &a, Drbg &b, uint64_t s)
{
    const kc::drbg::Limits &lim = a.limits();
    Bytes e = kct::random_bytes(a.use_df() ? lim.key_bytes + 8 : lim.seed_bytes, s);
    Bytes nonce = kct::random_bytes(8, s + 1), ps = kct::random_bytes(a.use_df() ? 40 : lim.seed_bytes, s + 2);
    Span es = span(e);
    ASSERT_EQ(a.instantiate(&es, span(nonce), span(ps)), KCIPHER_OK);
    ASSERT_EQ(b.instantiate(&es, span(nonce), span(ps)), KCIPHER_OK);
}

Bytes request_by_request(Drbg &d, size_t len, bool pr)
{
    Bytes out(len);
    size_t max = d.limits().max_request_bytes;
    for (size_t done = 0; done < len;) {
        size_t n = std::min(max, len - done);
        EXPECT_EQ(d.generate(out.data() + done, n, {}, pr), KCIPHER_OK);
        done += n;
    }
    return out;
}

// The state after both paths must agree too: one more request with additional input.
void expect_same_state(Drbg &a, Drbg &b, const std::string &what)
{
    Bytes ai = kct::random_bytes(7, 99), x(33), y(33);
    ASSERT_EQ(a.generate(x.data(), x.size(), span(ai), false), KCIPHER_OK);
    ASSERT_EQ(b.generate(y.data(), y.size(), span(ai), false), KCIPHER_OK);
    EXPECT_EQ(kct::tohex(x), kct::tohex(y)) << what << ": state after";
    EXPECT_EQ(a.reseed_counter(), b.reseed_counter()) << what;
}

TEST(DrbgLarge, EqualsRequestByRequestForEveryCipher)
{
    for (int ci = 0; ci < kc::cipher_count; ci++) {
        kc::Cipher c = kc::cipher_by_index(ci)->id;
        for (bool df : {true, false}) {
            auto a = best_drbg(c, df), b = best_drbg(c, df);
            size_t max = a->limits().max_request_bytes;
            uint64_t s = 1000 + ci * 10 + df;
            seed_both(*a, *b, s);
            for (size_t len : {size_t(1), max - 1, max, max + 1, 3 * max + 17, size_t(300 << 10) + 5}) {
                for (unsigned threads : {1u, 2u, 3u}) {
                    std::string what = std::string(kc::cipher_desc(c).name) + (df ? " df" : " no df") + " len " +
                                       std::to_string(len) + " threads " + std::to_string(threads);
                    Bytes want = request_by_request(*a, len, false), got(len);
                    ASSERT_EQ(kc::drbg::generate_large_cpu(*b, best_fast(c), got.data(), len, false, threads), KCIPHER_OK);
                    ASSERT_EQ(kct::tohex(got), kct::tohex(want)) << what;
                    expect_same_state(*a, *b, what);
                }
            }
        }
    }
}

// Over a 16 MiB batch boundary, with prediction resistance (a reseed inside the chain for
// every request) and the reseed interval reached inside the chain.
TEST(DrbgLarge, BatchesReseedsAndPredictionResistance)
{
    for (kc::Cipher c : {kc::Cipher::lea128, kc::Cipher::hight}) {
        auto a = best_drbg(c, true), b = best_drbg(c, true);
        seed_both(*a, *b, 7);
        size_t max = a->limits().max_request_bytes;
        size_t len = (size_t(16) << 20) + 3 * max + 11;
        Bytes want = request_by_request(*a, len, false), got(len);
        ASSERT_EQ(kc::drbg::generate_large_cpu(*b, best_fast(c), got.data(), len, false, 0), KCIPHER_OK);
        ASSERT_TRUE(got == want) << kc::cipher_desc(c).name << " over a batch boundary";

        kct::EntropyQueue qa, qb;
        for (int i = 0; i < 40; i++) {
            qa.q.push_back(kct::random_bytes(24, 500 + i));
            qb.q.push_back(kct::random_bytes(24, 500 + i));
        }
        a->set_entropy_source(&kct::EntropyQueue::take, &qa);
        b->set_entropy_source(&kct::EntropyQueue::take, &qb);
        size_t n = 5 * max + 3; // 6 requests, each reseeded first
        want = request_by_request(*a, n, true), got.assign(n, 0);
        ASSERT_EQ(kc::drbg::generate_large_cpu(*b, best_fast(c), got.data(), n, true, 2), KCIPHER_OK);
        EXPECT_TRUE(got == want) << "prediction resistance";
        EXPECT_EQ(qa.calls, 6);
        EXPECT_EQ(qb.calls, 6);

        ASSERT_EQ(a->set_reseed_interval(4), KCIPHER_OK);
        ASSERT_EQ(b->set_reseed_interval(4), KCIPHER_OK);
        n = 9 * max; // the interval comes due twice inside this one chain
        want = request_by_request(*a, n, false), got.assign(n, 0);
        ASSERT_EQ(kc::drbg::generate_large_cpu(*b, best_fast(c), got.data(), n, false, 2), KCIPHER_OK);
        EXPECT_TRUE(got == want) << "reseed interval";
        EXPECT_GT(qa.calls, 6);
        EXPECT_EQ(qa.calls, qb.calls);
        expect_same_state(*a, *b, "after reseeds");
    }
}

#ifdef KC_HAVE_OPENSSL
TEST(DrbgLarge, GenericOverTheAesAdapter)
{
    Drbg a(std::make_unique<kct::AesCipher>(32), true), b(std::make_unique<kct::AesCipher>(32), true);
    seed_both(a, b, 3);
    size_t len = 40 * a.limits().max_request_bytes + 9;
    Bytes want = request_by_request(a, len, false), got(len);
    ASSERT_EQ(kc::drbg::generate_large_cpu(b, {}, got.data(), len, false, 2), KCIPHER_OK);
    EXPECT_TRUE(got == want);
}
#endif

// The segments the GPU path consumes: request i's bytes are the CTR keystream of its Key
// from its counter, exactly.
TEST(DrbgLarge, SegmentsAreCtrKeystreams)
{
    kc::Cipher c = kc::Cipher::aria256;
    auto a = best_drbg(c, true), b = best_drbg(c, true);
    seed_both(*a, *b, 11);
    size_t max = a->limits().max_request_bytes, len = 2 * max + 100;
    std::vector<kc::drbg::Segment> segs;
    ASSERT_EQ(kc::drbg::plan_segments(*a, best_fast(c), len, false, segs), KCIPHER_OK);
    ASSERT_EQ(segs.size(), 3u);
    EXPECT_EQ(segs[2].bytes, 100u);
    Bytes want = request_by_request(*b, len, false);
    for (size_t i = 0; i < segs.size(); i++) {
        kcipher::Cipher ctr("aria-256", segs[i].key, 32);
        Bytes iv(segs[i].counter, segs[i].counter + 16), zeros(segs[i].bytes, 0);
        Bytes ks = ctr.ctr_xor(iv, zeros);
        EXPECT_TRUE(std::equal(ks.begin(), ks.end(), want.begin() + i * max)) << "segment " << i;
    }
    kc::drbg::wipe_segments(segs);
    EXPECT_TRUE(segs.empty());
}

// ---- limits and misuse -------------------------------------------------------------------------

TEST(DrbgLimits, Table3)
{
    for (int ci = 0; ci < kc::cipher_count; ci++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(ci);
        kc::drbg::Limits l = kc::drbg::limits_for(d.block_bytes, d.key_bytes);
        EXPECT_EQ(l.seed_bytes, d.key_bytes + d.block_bytes);
        EXPECT_EQ(l.max_request_bytes, d.block_bytes == 16 ? 65536u : 1024u) << d.name;
        EXPECT_EQ(l.max_reseed_interval, d.block_bytes == 16 ? uint64_t(1) << 48 : uint64_t(1) << 32) << d.name;
        kcipher_drbg *h = nullptr;
        ASSERT_EQ(kcipher_drbg_new(&h, d.name, 0, nullptr), KCIPHER_OK);
        EXPECT_EQ(kcipher_drbg_max_request(h), l.max_request_bytes);
        EXPECT_EQ(kcipher_drbg_set_reseed_interval(h, 0), KCIPHER_ERR_INVALID_ARGUMENT);
        EXPECT_EQ(kcipher_drbg_set_reseed_interval(h, l.max_reseed_interval), KCIPHER_OK);
        EXPECT_EQ(kcipher_drbg_set_reseed_interval(h, l.max_reseed_interval + 1), KCIPHER_ERR_INVALID_ARGUMENT);
        kcipher_drbg_free(h);
    }
}

TEST(DrbgMisuse, GenerateBeforeInstantiateAndAfterUninstantiate)
{
    kcipher_drbg *d = nullptr;
    ASSERT_EQ(kcipher_drbg_new(&d, "lea-128", 0, nullptr), KCIPHER_OK);
    uint8_t out[32];
    EXPECT_EQ(kcipher_drbg_generate(d, out, sizeof out, nullptr, 0, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    EXPECT_EQ(kcipher_drbg_generate_large(d, out, sizeof out, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    EXPECT_EQ(kcipher_drbg_reseed(d, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    ASSERT_EQ(kcipher_drbg_instantiate(d, nullptr, 0, nullptr, 0, nullptr, 0), KCIPHER_OK); // getrandom
    EXPECT_EQ(kcipher_drbg_generate(d, out, sizeof out, nullptr, 0, 1), KCIPHER_OK);       // PR from getrandom
    EXPECT_EQ(kcipher_drbg_uninstantiate(d), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate(d, out, sizeof out, nullptr, 0, 0), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    uint64_t counter = 1;
    EXPECT_EQ(kcipher_drbg_reseed_counter(d, &counter), KCIPHER_OK);
    EXPECT_EQ(counter, 0u);
    EXPECT_STRNE(kcipher_strerror(KCIPHER_ERR_DRBG_NOT_INSTANTIATED), "unknown status code");
    kcipher_drbg_free(d);
}

TEST(DrbgMisuse, UninstantiateWipesTheState)
{
    auto d = best_drbg(kc::Cipher::aria128, true);
    ASSERT_EQ(d->instantiate(nullptr, {}, {}), KCIPHER_OK);
    d->uninstantiate();
    uint8_t zero[32] = {0};
    EXPECT_EQ(std::memcmp(d->key(), zero, sizeof zero), 0);
    EXPECT_FALSE(d->instantiated());
}

TEST(DrbgMisuse, RequestOverTheLimit)
{
    for (const char *name : {"aria-128", "hight"}) {
        kcipher_drbg *d = nullptr;
        ASSERT_EQ(kcipher_drbg_new(&d, name, 0, nullptr), KCIPHER_OK);
        ASSERT_EQ(kcipher_drbg_instantiate(d, nullptr, 0, nullptr, 0, nullptr, 0), KCIPHER_OK);
        size_t max = kcipher_drbg_max_request(d);
        Bytes out(max + 1);
        EXPECT_EQ(kcipher_drbg_generate(d, out.data(), max + 1, nullptr, 0, 0), KCIPHER_ERR_DRBG_REQUEST_TOO_LARGE);
        EXPECT_EQ(kcipher_drbg_generate(d, out.data(), max, nullptr, 0, 0), KCIPHER_OK);
        EXPECT_EQ(kcipher_drbg_generate_large(d, out.data(), max + 1, 0), KCIPHER_OK);
        kcipher_drbg_free(d);
    }
}

TEST(DrbgMisuse, ReseedCounterAtItsLimit)
{
    for (kc::Cipher c : {kc::Cipher::lea256, kc::Cipher::cham64_128}) {
        auto d = best_drbg(c, false);
        Bytes e = kct::random_bytes(d->limits().seed_bytes, 1), out(16);
        Span es = span(e);
        ASSERT_EQ(d->instantiate(&es, {}, {}), KCIPHER_OK);
        d->set_entropy_source(nullptr, nullptr);
        uint64_t max = d->limits().max_reseed_interval;
        d->set_reseed_counter_for_test(max); // the last request the interval allows
        EXPECT_EQ(d->generate(out.data(), out.size(), {}, false), KCIPHER_OK);
        EXPECT_EQ(d->reseed_counter(), max + 1);
        EXPECT_EQ(d->generate(out.data(), out.size(), {}, false), KCIPHER_ERR_DRBG_RESEED_REQUIRED);
        EXPECT_EQ(kc::drbg::generate_large_cpu(*d, best_fast(c), out.data(), out.size(), false, 1), KCIPHER_ERR_DRBG_RESEED_REQUIRED);
        EXPECT_EQ(d->generate(out.data(), out.size(), {}, true), KCIPHER_ERR_DRBG_RESEED_REQUIRED);
        // An explicit reseed clears it; so does an entropy source, automatically.
        ASSERT_EQ(d->reseed(&es, {}), KCIPHER_OK);
        EXPECT_EQ(d->generate(out.data(), out.size(), {}, false), KCIPHER_OK);
        d->set_reseed_counter_for_test(max + 1);
        kct::EntropyQueue q;
        q.q.push_back(e);
        d->set_entropy_source(&kct::EntropyQueue::take, &q);
        EXPECT_EQ(d->generate(out.data(), out.size(), {}, false), KCIPHER_OK);
        EXPECT_EQ(d->reseed_counter(), 2u);
        EXPECT_EQ(q.calls, 1);
    }
    // The same through the C API with a short interval and no source.
    kcipher_drbg *h = nullptr;
    ASSERT_EQ(kcipher_drbg_new(&h, "aria-192", 0, nullptr), KCIPHER_OK);
    ASSERT_EQ(kcipher_drbg_set_entropy_source(h, nullptr, nullptr), KCIPHER_OK);
    ASSERT_EQ(kcipher_drbg_set_reseed_interval(h, 2), KCIPHER_OK);
    Bytes e = kct::random_bytes(24, 5), out(8);
    EXPECT_EQ(kcipher_drbg_instantiate(h, nullptr, 0, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_SOURCE);
    ASSERT_EQ(kcipher_drbg_instantiate(h, e.data(), e.size(), nullptr, 0, nullptr, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate(h, out.data(), 8, nullptr, 0, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate(h, out.data(), 8, nullptr, 0, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate(h, out.data(), 8, nullptr, 0, 0), KCIPHER_ERR_DRBG_RESEED_REQUIRED);
    kcipher_drbg_free(h);
}

TEST(DrbgMisuse, WrongEntropyAndInputLengths)
{
    // Without df: exactly seedlen (aria-128: 32 bytes, hight: 24).
    for (const char *name : {"aria-128", "hight"}) {
        kcipher_drbg *d = nullptr;
        ASSERT_EQ(kcipher_drbg_new(&d, name, KCIPHER_DRBG_NO_DF, nullptr), KCIPHER_OK);
        size_t seed = std::string(name) == "hight" ? 24 : 32;
        Bytes e = kct::random_bytes(seed + 1, 2);
        EXPECT_EQ(kcipher_drbg_instantiate(d, e.data(), seed - 1, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
        EXPECT_EQ(kcipher_drbg_instantiate(d, e.data(), seed + 1, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
        EXPECT_EQ(kcipher_drbg_instantiate(d, e.data(), seed, nullptr, 0, e.data(), seed + 1), KCIPHER_ERR_DRBG_INPUT_LENGTH);
        ASSERT_EQ(kcipher_drbg_instantiate(d, e.data(), seed, nullptr, 0, e.data(), seed), KCIPHER_OK);
        EXPECT_EQ(kcipher_drbg_reseed(d, e.data(), seed - 1, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
        uint8_t out[8];
        EXPECT_EQ(kcipher_drbg_generate(d, out, 8, e.data(), seed + 1, 0), KCIPHER_ERR_DRBG_INPUT_LENGTH);
        EXPECT_EQ(kcipher_drbg_generate(d, out, 8, e.data(), seed, 0), KCIPHER_OK);
        kcipher_drbg_free(d);
    }
    // With df: at least the security strength (the key length), at most 1 MiB.
    kcipher_drbg *d = nullptr;
    ASSERT_EQ(kcipher_drbg_new(&d, "lea-256", 0, nullptr), KCIPHER_OK);
    Bytes big((1 << 20) + 1, 0x5a);
    EXPECT_EQ(kcipher_drbg_instantiate(d, big.data(), 31, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
    EXPECT_EQ(kcipher_drbg_instantiate(d, big.data(), big.size(), nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_LENGTH);
    EXPECT_EQ(kcipher_drbg_instantiate(d, big.data(), 32, big.data(), big.size(), nullptr, 0), KCIPHER_ERR_DRBG_INPUT_LENGTH);
    EXPECT_EQ(kcipher_drbg_instantiate(d, big.data(), 1 << 20, big.data(), 1 << 20, nullptr, 0), KCIPHER_OK);
    // A source that gives too little is a source failure.
    kct::EntropyQueue q;
    q.q.push_back(Bytes(16, 1));
    kcipher_drbg_set_entropy_source(d, &kct::EntropyQueue::take, &q);
    EXPECT_EQ(kcipher_drbg_reseed(d, nullptr, 0, nullptr, 0), KCIPHER_ERR_DRBG_ENTROPY_SOURCE);
    kcipher_drbg_free(d);
}

TEST(DrbgMisuse, BadArguments)
{
    kcipher_drbg *d = nullptr;
    EXPECT_EQ(kcipher_drbg_new(nullptr, "aria-128", 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_new(&d, nullptr, 0, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_new(&d, "aes-128", 0, nullptr), KCIPHER_ERR_UNKNOWN_CIPHER);
    EXPECT_EQ(kcipher_drbg_new(&d, "aria-128", 6, nullptr), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_new(&d, "aria-128", 0, "no/such"), KCIPHER_ERR_UNKNOWN_KERNEL);
    EXPECT_EQ(kcipher_drbg_new(&d, "aria-128", 0, "lea/ref"), KCIPHER_ERR_KERNEL_MISMATCH);
    EXPECT_EQ(d, nullptr);
    ASSERT_EQ(kcipher_drbg_new(&d, "aria-128", 0, "aria/ref"), KCIPHER_OK);
    EXPECT_STREQ(kcipher_drbg_kernel(d), "aria/ref");
    EXPECT_EQ(kcipher_drbg_instantiate(d, nullptr, 5, nullptr, 0, nullptr, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_instantiate(d, nullptr, 0, nullptr, 3, nullptr, 0), KCIPHER_ERR_NULL_POINTER);
    ASSERT_EQ(kcipher_drbg_instantiate(d, nullptr, 0, nullptr, 0, nullptr, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate(d, nullptr, 4, nullptr, 0, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_generate(d, nullptr, 0, nullptr, 0, 0), KCIPHER_OK);
    EXPECT_EQ(kcipher_drbg_generate_large(d, nullptr, 4, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_generate(nullptr, nullptr, 0, nullptr, 0, 0), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_drbg_set_threads(d, 5000), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_set_gpu(d, -2), KCIPHER_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(kcipher_drbg_max_request(nullptr), 0u);
    EXPECT_EQ(kcipher_drbg_kernel(nullptr), nullptr);
    kcipher_drbg_free(d);
    kcipher_drbg_free(nullptr);
}

// Independent instances seeded by the OS differ; the C++ wrapper throws the status.
TEST(DrbgApi, GetrandomAndWrapper)
{
    kcipher::Drbg a("cham-128-256"), b("cham-128-256");
    a.instantiate();
    b.instantiate();
    Bytes x = a.generate_large(100000), y = b.generate_large(100000);
    EXPECT_EQ(x.size(), 100000u);
    EXPECT_NE(x, y);
    kcipher::Drbg c("hight");
    try {
        c.generate(10);
        FAIL() << "no exception";
    } catch (const kcipher::Error &e) {
        EXPECT_EQ(e.status(), KCIPHER_ERR_DRBG_NOT_INSTANTIATED);
    }
    Bytes e = kct::random_bytes(24, 1);
    kcipher::Drbg d("hight", KCIPHER_DRBG_NO_DF), f("hight", KCIPHER_DRBG_NO_DF);
    d.instantiate(e);
    f.instantiate(e);
    Bytes p = d.generate_large(5000), q(5000);
    for (size_t done = 0; done < q.size(); done += 1024) {
        Bytes part = f.generate(std::min<size_t>(1024, q.size() - done));
        std::copy(part.begin(), part.end(), q.begin() + done);
    }
    EXPECT_EQ(p, q);
}

} // namespace

// ---- the chain's fused block functions (src/kit/fused_ecb.hpp) -------------------------------

// Every fused function against the cipher's reference kernel: random keys and blocks, 1 to 7
// blocks (past the functions' groups of three or four), out separate and in place.
TEST(DrbgChain, FusedEcbEqualsTheReferenceKernel)
{
    int tested = 0;
    for (int ci = 0; ci < kc::cipher_count; ci++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(ci);
        const kc::Kernel &ref = *kc::reference_kernel(d.id);
        // ARIA and HIGHT without AVX-512 and GFNI have none: the chain uses the kernel.
        for (kc::FusedEcb f : kc::fused_ecb_candidates(d.id)) {
            tested++;
            for (uint64_t t = 0; t < 200; t++) {
                const size_t n = 1 + t % 7;
                Bytes key = kct::random_bytes(d.key_bytes, 3 * t + ci * 1000),
                      in = kct::random_bytes(n * d.block_bytes, 3 * t + 1);
                kc::KeyState ks;
                ASSERT_TRUE(ks.init(ref, d.id, key.data()));
                Bytes want(in.size()), got(in.size()), inplace = in;
                ref.encrypt_blocks(ks.get(), in.data(), want.data(), n);
                f(d.id, key.data(), in.data(), got.data(), n);
                ASSERT_EQ(kct::tohex(got), kct::tohex(want)) << d.name << " candidate " << tested << " blocks " << n;
                f(d.id, key.data(), inplace.data(), inplace.data(), n);
                ASSERT_EQ(kct::tohex(inplace), kct::tohex(want)) << d.name << " in place, blocks " << n;
            }
        }
    }
    EXPECT_GE(tested, 6); // LEA and CHAM have portable ones
}

// The chain with the fused functions, across the reseed interval (the fused run stops before
// the reseed and the request-by-request steps take over) and a short last request: the same
// segments as the DRBG's kernel gives through generate().
TEST(DrbgChain, SegmentsAcrossTheReseedIntervalForEveryCipher)
{
    for (int ci = 0; ci < kc::cipher_count; ci++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(ci);
        auto a = best_drbg(d.id, true), b = best_drbg(d.id, true);
        seed_both(*a, *b, 40 + ci);
        kct::EntropyQueue qa, qb;
        for (int i = 0; i < 4; i++) {
            qa.q.push_back(kct::random_bytes(d.key_bytes, 600 + i));
            qb.q.push_back(kct::random_bytes(d.key_bytes, 600 + i));
        }
        a->set_entropy_source(&kct::EntropyQueue::take, &qa);
        b->set_entropy_source(&kct::EntropyQueue::take, &qb);
        ASSERT_EQ(a->set_reseed_interval(5), KCIPHER_OK);
        ASSERT_EQ(b->set_reseed_interval(5), KCIPHER_OK);
        const size_t max = a->limits().max_request_bytes, len = 7 * max + 13;
        std::vector<kc::drbg::Segment> segs;
        ASSERT_EQ(kc::drbg::plan_segments(*a, best_fast(d.id), len, false, segs), KCIPHER_OK);
        ASSERT_EQ(segs.size(), 8u);
        const Bytes want = request_by_request(*b, len, false);
        kcipher_cipher_info info;
        ASSERT_EQ(kcipher_cipher_find(d.name, &info), KCIPHER_OK);
        for (size_t i = 0; i < segs.size(); i++) {
            kcipher::Cipher ctr(d.name, segs[i].key, d.key_bytes);
            Bytes iv(segs[i].counter, segs[i].counter + d.block_bytes), zeros(segs[i].bytes, 0);
            Bytes ks = ctr.ctr_xor(iv, zeros);
            ASSERT_TRUE(std::equal(ks.begin(), ks.end(), want.begin() + i * max)) << d.name << " segment " << i;
        }
        EXPECT_EQ(qa.calls, 1) << d.name; // the reseed at request 6
        EXPECT_EQ(qb.calls, 1) << d.name;
        expect_same_state(*a, *b, d.name);
        kc::drbg::wipe_segments(segs);
    }
}
