#!/usr/bin/env bash
# Real TLS 1.2 sessions on 127.0.0.1 whose records kcipher.so seals and opens, shown by the
# provider's own counts (KCIPHER_PROVIDER_LOG: one line per process when the provider unloads):
#   openssl s_server + s_client, ECDHE-ARIA128-GCM-SHA256 and ECDHE-ARIA256-GCM-SHA384,
#     256 MiB of random bytes each, compared on arrival;
#   Python's ssl module with the provider loaded by OPENSSL_CONF alone, both suites, 256 MiB;
#   a control: the same session asking for the default provider counts no records here.
# Usage: tls.sh MODULE_DIR PYTHON3
set -euo pipefail
modules=$(cd "$1" && pwd)
python=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
mkfifo stdin
exec 3<>stdin
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 -subj /CN=localhost 2>/dev/null
mib=256
head -c $((mib << 20)) /dev/urandom >data
records=$(((mib << 20) / 16384)) # at least this many: TLS records carry at most 16 KiB

# field NAME FILE: the value of NAME= on the log's last line
field() { tail -n 1 "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# session PORT SUITE PROPQUERY: s_server and s_client move data/, each logging its counts
session() {
    local port=$1 suite=$2 propq=$3
    local prov=(-provider-path "$modules" -provider kcipher -provider default -propquery "$propq")
    rm -f server.log client.log received server.err
    # s_server ends at the end of its standard input: give it a FIFO this script holds open.
    KCIPHER_PROVIDER_LOG=$work/server.log openssl s_server "${prov[@]}" -accept 127.0.0.1:$port \
        -cert cert.pem -key key.pem -tls1_2 -cipher "$suite" -naccept 1 -quiet <stdin >received 2>server.err &
    local server=$!
    for _ in $(seq 100); do # until it listens (a probe connection would be its one connection)
        ss -Hltn "sport = :$port" 2>/dev/null | grep -q . && break
        sleep 0.1
    done
    KCIPHER_PROVIDER_LOG=$work/client.log openssl s_client "${prov[@]}" -connect 127.0.0.1:$port -tls1_2 \
        -cipher "$suite" -brief -nocommands -no_ign_eof <data >/dev/null 2>client.err || true # its status: the peer closing
    wait $server || true
    grep -q "Ciphersuite: $suite" client.err || { echo "$suite was not negotiated:" >&2; cat client.err >&2; exit 1; }
    cmp -s data received || { echo "$suite: the server received other bytes" >&2; exit 1; }
}

port=$((20000 + RANDOM % 20000))
for suite in ECDHE-ARIA128-GCM-SHA256 ECDHE-ARIA256-GCM-SHA384; do
    port=$((port + 1))
    start=$(date +%s.%N)
    session $port $suite '?provider=kcipher'
    sealed=$(field tls_records_sealed client.log)
    opened=$(field tls_records_opened server.log)
    echo "openssl s_client -> s_server, $suite: $mib MiB in $(echo "$(date +%s.%N) - $start" | awk '{printf "%.2f", $1 - $3}') s;" \
        "records sealed by kcipher.so in the client $sealed, opened in the server $opened"
    [ "$sealed" -ge $records ] && [ "$opened" -ge $records ] || { echo "too few records went through kcipher.so" >&2; exit 1; }
done

# The control: the default provider preferred, kcipher.so still loaded, counts nothing.
head -c 1048576 /dev/urandom >data
session $((port + 1)) ECDHE-ARIA128-GCM-SHA256 '?provider=default'
[ "$(field tls_records_sealed client.log)" = 0 ] && [ "$(field tls_records_opened server.log)" = 0 ] ||
    { echo "the control session counted records: the counts do not mean what they say" >&2; exit 1; }
echo "control (?provider=default): 0 records through kcipher.so"

cat >openssl.cnf <<CNF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = algorithm_sect
[provider_sect]
default = default_sect
kcipher = kcipher_sect
[default_sect]
activate = 1
[kcipher_sect]
module = $modules/kcipher.so
activate = 1
[algorithm_sect]
default_properties = ?provider=kcipher
CNF
for suite in ECDHE-ARIA128-GCM-SHA256 ECDHE-ARIA256-GCM-SHA384; do
    rm -f py.log
    OPENSSL_CONF=$work/openssl.cnf KCIPHER_PROVIDER_LOG=$work/py.log "$python" "$here/tls_python.py" cert.pem key.pem \
        $suite $((mib << 20))
    sealed=$(field tls_records_sealed py.log)
    opened=$(field tls_records_opened py.log)
    echo "  records sealed by kcipher.so $sealed, opened $opened"
    [ "$sealed" -ge $records ] && [ "$opened" -ge $records ] || { echo "too few records went through kcipher.so" >&2; exit 1; }
done
