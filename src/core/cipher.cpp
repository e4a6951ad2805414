#include "core/cipher.hpp"

namespace kc {

static const CipherDesc table[cipher_count] = {
    {Cipher::aria128, "aria-128", "aria", 16, 16},
    {Cipher::aria192, "aria-192", "aria", 16, 24},
    {Cipher::aria256, "aria-256", "aria", 16, 32},
    {Cipher::lea128, "lea-128", "lea", 16, 16},
    {Cipher::lea192, "lea-192", "lea", 16, 24},
    {Cipher::lea256, "lea-256", "lea", 16, 32},
    {Cipher::hight, "hight", "hight", 8, 16},
    {Cipher::cham64_128, "cham-64-128", "cham", 8, 16},
    {Cipher::cham128_128, "cham-128-128", "cham", 16, 16},
    {Cipher::cham128_256, "cham-128-256", "cham", 16, 32},
    {Cipher::seed128, "seed-128", "seed", 16, 16},
};

const CipherDesc &cipher_desc(Cipher c) { return table[static_cast<int>(c)]; }

const CipherDesc *cipher_by_name(std::string_view name)
{
    for (const CipherDesc &d : table)
        if (name == d.name)
            return &d;
    return nullptr;
}

const CipherDesc *cipher_by_index(int i)
{
    return (i >= 0 && i < cipher_count) ? &table[i] : nullptr;
}

} // namespace kc
