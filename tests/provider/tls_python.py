"""A TLS 1.2 session through Python's ssl module, which loads kcipher.so by OPENSSL_CONF alone
(tls.sh writes the configuration): a server and a client thread on 127.0.0.1 negotiate the
named ARIA-GCM suite and move the given number of random bytes, checked on arrival.
Usage: tls_python.py CERT KEY SUITE BYTES"""
import hashlib
import os
import socket
import ssl
import sys
import threading

cert, key, suite, total = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
chunk = os.urandom(1 << 20)

server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
server_ctx.load_cert_chain(cert, key)
server_ctx.maximum_version = ssl.TLSVersion.TLSv1_2
server_ctx.set_ciphers(suite)
client_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
client_ctx.check_hostname = False
client_ctx.verify_mode = ssl.CERT_NONE
client_ctx.maximum_version = ssl.TLSVersion.TLSv1_2
client_ctx.set_ciphers(suite)

listener = socket.create_server(("127.0.0.1", 0))
port = listener.getsockname()[1]
received = {}


def serve():
    conn, _ = listener.accept()
    with server_ctx.wrap_socket(conn, server_side=True) as tls:
        digest, n = hashlib.sha256(), 0
        while n < total:
            data = tls.recv(1 << 20)
            if not data:
                break
            digest.update(data)
            n += len(data)
        received.update(n=n, digest=digest.hexdigest(), cipher=tls.cipher()[0])


server = threading.Thread(target=serve)
server.start()
sent = hashlib.sha256()
with client_ctx.wrap_socket(socket.create_connection(("127.0.0.1", port))) as tls:
    negotiated = tls.cipher()[0]
    left = total
    while left > 0:
        piece = chunk[: min(left, len(chunk))]
        tls.sendall(piece)
        sent.update(piece)
        left -= len(piece)
    server.join()
listener.close()

if negotiated != suite or received.get("cipher") != suite:
    sys.exit(f"negotiated {negotiated} / {received.get('cipher')}, not {suite}")
if received.get("n") != total or received.get("digest") != sent.hexdigest():
    sys.exit(f"received {received.get('n')} bytes of {total}, or different bytes")
print(f"python ssl: {suite}, {total} bytes, {ssl.OPENSSL_VERSION}")
