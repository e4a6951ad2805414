// HIGHT key schedule (TTAS.KO-12.0040/R1, key schedule: whitening-key generation and subkey
// generation), as the standard states it.
//
// Constant-time: byte copies and additions mod 2^8. The constants δ_i come from a table
// built at compile time from the standard's LFSR and are read at index n, a function of
// the loop counter only, so no address depends on the key.
#include "hight/hight.hpp"
#include "hight/hight_key_step.hpp"

namespace kc {

void hight_key_schedule(const uint8_t *mk, HightRoundKeys *out)
{
    for (int i = 0; i < 8; i++)
        out->wk[i] = mk[hight_key::whitening_source(i)];
    for (int n = 0; n < 128; n++)
        out->sk[n] = (uint8_t)(mk[hight_key::subkey_source(n)] + hight_key::delta[n]);
}

} // namespace kc
