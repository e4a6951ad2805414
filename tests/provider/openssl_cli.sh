#!/usr/bin/env bash
# The provider through the real `openssl` command: for every cipher x mode that `openssl enc`
# accepts (all but GCM, CCM and XTS, which it refuses; test_provider_evp covers those), on
# random keys, IVs and lengths, with and without padding:
#   openssl enc with kcipher.so == kcipher enc, and openssl enc -d gives the plaintext back;
#   for ARIA also == OpenSSL's default provider, for SEED == OpenSSL's legacy provider;
# and `openssl mac` CMAC (every cipher) and GMAC over the provider's ciphers == kcipher mac.
# Usage: openssl_cli.sh KCIPHER_CLI MODULE_DIR
set -euo pipefail
cli=$1
modules=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
KC=(-provider-path "$modules" -provider kcipher)
fail=0
checks=0

hex() { od -An -tx1 -v -N "$1" /dev/urandom | tr -d ' \n'; }
same() { # what, file_a, file_b
    checks=$((checks + 1))
    if ! cmp -s "$2" "$3"; then
        echo "MISMATCH: $1" >&2
        fail=1
    fi
}

# kcipher's cipher for an OpenSSL name the provider gives (SEED's own names drop the 128).
names=$(openssl list -cipher-algorithms "${KC[@]}" | grep '@ kcipher' |
    grep -o '[A-Z][A-Z0-9-]*-\(ECB\|CBC\|CTR\|CFB\|CFB8\|OFB\)\b' | sort -u)
[ "$(echo "$names" | wc -l)" -ge 60 ] || { echo "the provider lists too few ciphers: $names" >&2; exit 1; }
for name in $names; do
    case $name in SEED-*) continue ;; esac # SEED-128-* is the same algorithm as SEED-*
    kc=$(echo "$name" | tr 'A-Z' 'a-z')
    mode=${kc##*-}
    cipher=${kc%-*}
    case $cipher in
    hight | cham-64-128) bs=8 ;;
    *) bs=16 ;;
    esac
    case $cipher in
    *-192) klen=24 ;;
    *-256) klen=32 ;;
    *) klen=16 ;;
    esac
    for len in 0 1 $((bs - 1)) $bs $((bs + 1)) $((RANDOM % 4000 + 1)) 65536; do
        key=$(hex $klen)
        iv=$(hex $bs)
        head -c $len /dev/urandom >"$work/pt"
        ivarg=(-iv "$iv")
        [ "$mode" = ecb ] && ivarg=()
        pads=("")
        case $mode in ecb | cbc) [ $((len % bs)) -eq 0 ] && pads=("" "-nopad") ;; esac
        for pad in "${pads[@]}"; do
            openssl enc -e -"$kc" -K "$key" "${ivarg[@]}" $pad "${KC[@]}" -in "$work/pt" -out "$work/ossl"
            kiv=()
            [ "$mode" = ecb ] || kiv=(--iv "$iv")
            kpad=()
            [ "$pad" = -nopad ] && kpad=(--nopad)
            "$cli" enc -c "$kc" -k "$key" "${kiv[@]}" "${kpad[@]}" -i "$work/pt" -o "$work/kc" --no-progress
            same "$name len $len $pad: openssl enc (kcipher.so) vs kcipher enc" "$work/ossl" "$work/kc"
            openssl enc -d -"$kc" -K "$key" "${ivarg[@]}" $pad "${KC[@]}" -in "$work/kc" -out "$work/back"
            same "$name len $len $pad: openssl enc -d (kcipher.so)" "$work/pt" "$work/back"
            case $cipher in
            aria-*)
                openssl enc -e -"$kc" -K "$key" "${ivarg[@]}" $pad -provider default -in "$work/pt" -out "$work/ref"
                same "$name len $len $pad: kcipher.so vs the default provider" "$work/ossl" "$work/ref" ;;
            seed-128)
                sname=SEED-${mode^^}
                openssl enc -e -"${sname,,}" -K "$key" "${ivarg[@]}" $pad -provider legacy -provider default \
                    -propquery provider=legacy -in "$work/pt" -out "$work/ref" 2>/dev/null ||
                    { [ "$mode" = ctr ] || [ "$mode" = cfb8 ]; } || { echo "legacy $sname failed" >&2; fail=1; }
                case $mode in ctr | cfb8) ;; *) same "$name len $len $pad: kcipher.so vs the legacy provider" "$work/ossl" "$work/ref" ;; esac ;;
            esac
        done
    done
done

# SEED under OpenSSL's own names: SEED-CBC from kcipher.so == seed-128-cbc.
key=$(hex 16); iv=$(hex 16); head -c 1000 /dev/urandom >"$work/pt"
openssl enc -e -seed-cbc -K "$key" -iv "$iv" "${KC[@]}" -in "$work/pt" -out "$work/ossl"
"$cli" enc -c seed-128-cbc -k "$key" --iv "$iv" -i "$work/pt" -o "$work/kc" --no-progress
same "SEED-CBC (OpenSSL's name) vs kcipher enc" "$work/ossl" "$work/kc"

# MACs: OpenSSL's CMAC over the provider's CBC, GMAC over its GCM.
for cipher in aria-128 aria-256 lea-128 lea-192 hight cham-64-128 cham-128-256 seed-128; do
    case $cipher in *-256 | cham-128-256) klen=32 ;; *-192) klen=24 ;; *) klen=16 ;; esac
    for len in 0 1 16 $((RANDOM % 3000 + 17)); do
        key=$(hex $klen)
        head -c $len /dev/urandom >"$work/msg"
        ocipher=$(echo "$cipher-cbc" | tr 'a-z' 'A-Z')
        openssl mac "${KC[@]}" -provider default -cipher "$ocipher" -macopt properties:provider=kcipher -macopt hexkey:"$key" -in "$work/msg" CMAC |
            tr 'A-F' 'a-f' >"$work/ossl"
        "$cli" mac -c "$cipher-cmac" -k "$key" -i "$work/msg" >"$work/kc"
        same "$cipher CMAC len $len: openssl mac vs kcipher mac" "$work/ossl" "$work/kc"
        case $cipher in hight | cham-64-128) continue ;; esac
        iv=$(hex 12)
        ocipher=$(echo "$cipher-gcm" | tr 'a-z' 'A-Z')
        openssl mac "${KC[@]}" -provider default -cipher "$ocipher" -macopt properties:provider=kcipher -macopt hexkey:"$key" -macopt hexiv:"$iv" -in "$work/msg" GMAC |
            tr 'A-F' 'a-f' >"$work/ossl"
        "$cli" mac -c "$cipher-gmac" -k "$key" --iv "$iv" -i "$work/msg" >"$work/kc"
        same "$cipher GMAC len $len: openssl mac vs kcipher mac" "$work/ossl" "$work/kc"
    done
done

# `openssl rand` with KCIPHER-CTR-DRBG as the library's DRBG, set in openssl.cnf's [random].
cat >"$work/rand.cnf" <<CNF
openssl_conf = init
[init]
providers = prov
random = random_sect
[prov]
default = dflt
kcipher = kc
[dflt]
activate = 1
[kc]
module = $(cd "$modules" && pwd)/kcipher.so
activate = 1
[random_sect]
random = KCIPHER-CTR-DRBG
cipher = LEA-256-CTR
properties = provider=kcipher
CNF
OPENSSL_CONF="$work/rand.cnf" openssl rand -out "$work/rand" 1000000
checks=$((checks + 1))
[ "$(stat -c %s "$work/rand")" = 1000000 ] || { echo "openssl rand through KCIPHER-CTR-DRBG failed" >&2; fail=1; }
sed 's/^random = KCIPHER-CTR-DRBG/random = NO-SUCH-DRBG/' "$work/rand.cnf" >"$work/norand.cnf"
if OPENSSL_CONF="$work/norand.cnf" openssl rand -hex 8 >/dev/null 2>&1; then # the control: the section is read
    echo "openssl rand ignored the [random] section" >&2
    fail=1
fi

echo "$checks comparisons"
[ "$checks" -gt 1000 ] || { echo "too few comparisons ran" >&2; exit 1; }
exit $fail
