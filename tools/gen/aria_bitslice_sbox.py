#!/usr/bin/env python3
"""Generates src/aria/aria_cuda_bitslice_sbox.cuh: the four ARIA S-boxes as LOP3 circuits.

usage: aria_bitslice_sbox.py [--search] [--out FILE]

Needs berkeley-abc (Debian package of the same name) for the 3-input LUT mapping; the build
never runs this script, its output is committed.

How the circuits are made:
  - Every ARIA S-box is an affine map around the inversion of GF(2^8) (x^8+x^4+x^3+x+1):
    SB1 = M1.inv ^ 0x63, SB2 = M2.inv ^ 0xe2, SB3 = inv(M1^-1 (x ^ 0x63)), SB4 likewise.
    M1 and M2 are read off the tables in src/aria/aria_sbox.cpp.
  - The kernel holds every state byte in a basis of its own: stored = L^-1 . byte. ARIA's
    diffusion and the key addition only XOR whole bytes, so they commute with L, and the
    circuit for SBt becomes L^-1 . Mout_t . inv(Min_t . L . x). With L the basis of a tower
    field GF(((2^2)^2)^2), SB1 and SB2 get their input already in tower form and SB3 and SB4
    give their output in it: each circuit loses one of its two basis changes (about 10%).
  - The inversion is the tower one: (a1 y + a0)^-1 = (a1 e) y + (a0 + a1) e with
    e = (a1^2 L + a1 a0 + a0^2)^-1 in GF(16), GF(16) products by Karatsuba (9 ANDs), the GF(16)
    inverse as four 4-input functions. Linear layers by Paar's greedy pair sharing.
  - berkeley-abc maps that gate network onto 3-input lookup tables (dch; if -K 3; mfs2):
    every LUT is one LOP3.
  - --search tries every tower as L and, per S-box, every tower, the formula variants and
    Paar tie-breaks, keeping the fewest LUTs; without it the recorded choice is rebuilt.
Every circuit is checked on all 256 inputs here, and again by tests/cuda/test_aria_bitslice_host.cu.
"""
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POLY = 0x11B

# The recorded search result: L's tower, then per S-box (tower, variant, seed).
CHOICE = [59, (44, 3, 2), (58, 2, 2), (58, 0, 0), (44, 0, 1)]


def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        if a & 0x100:
            a ^= POLY
        b >>= 1
    return r


def ginv(a):
    r, e = 1, 254
    while e:
        if e & 1:
            r = gmul(r, a)
        a, e = gmul(a, a), e >> 1
    return r  # 0 for 0


# ---- 8x8 GF(2) matrices as 8 columns (column i = image of bit i) ----
def mat_apply(cols, v):
    r = 0
    for i in range(len(cols)):
        if (v >> i) & 1:
            r ^= cols[i]
    return r


def mat_from_fn(f):
    return [f(1 << i) for i in range(8)]


def mat_mul(a, b):
    return [mat_apply(a, b[i]) for i in range(8)]


def mat_inv(a):
    img = {mat_apply(a, v): v for v in range(256)}
    assert len(img) == 256
    return [img[1 << i] for i in range(8)]


def rows_of(cols, nout=8):
    return [sum(((cols[i] >> r) & 1) << i for i in range(len(cols))) for r in range(nout)]


IDENT = [1 << i for i in range(8)]


def towers():
    """Every tower basis: bit i of a tower code stands for w^(i&1) z^(i>>1&1) y^(i>>2)."""
    out = []
    for w in [a for a in range(256) if gmul(a, a) ^ a ^ 1 == 0]:
        for n in (w, w ^ 1):
            for z in [a for a in range(256) if gmul(a, a) ^ a ^ n == 0]:
                gf4 = [0, 1, w, w ^ 1]
                gf16 = [gmul(gf4[m >> 2], z) ^ gf4[m & 3] for m in range(16)]
                for lm in range(16):
                    ys = [a for a in range(256) if gmul(a, a) ^ a ^ gf16[lm] == 0]
                    if not ys or any(y in gf16 for y in ys):
                        continue
                    for y in ys:
                        basis = []
                        for i in range(8):
                            e = 1
                            for bit, g in ((1, w), (2, z), (4, y)):
                                if i & bit:
                                    e = gmul(e, g)
                            basis.append(e)
                        out.append(basis)
    return out


class Field:
    """Tower codes <-> GF(2^8) elements for one tower basis (T: code -> element)."""

    def __init__(self, basis):
        self.T = basis
        self.enc = {mat_apply(basis, c): c for c in range(256)}
        assert len(self.enc) == 256

    def val(self, c):
        return mat_apply(self.T, c)

    def mul(self, u, v):
        return self.enc[gmul(self.val(u), self.val(v))]

    def inv(self, u):
        return self.enc[ginv(self.val(u)) if u else 0]


def forms16(bit):
    """The 9 Karatsuba operands of a GF(16) code whose bit i is the linear form bit(i)."""
    b = [bit(i) for i in range(4)]
    out = []
    for lo, hi in ((b[2], b[3]), (b[0], b[1]), (b[0] ^ b[2], b[1] ^ b[3])):
        out += [hi, lo, hi ^ lo]
    return out


def karatsuba_recombination(f):
    """R[k]: the 4-bit contribution of product k to the GF(16) code of u*v."""
    basis = []  # (product vector, result, pivot), reduced as samples come in
    for u in range(16):
        for v in range(16):
            fu, fv = forms16(lambda i: (u >> i) & 1), forms16(lambda i: (v >> i) & 1)
            p, r = sum((fu[k] & fv[k]) << k for k in range(9)), f.mul(u, v)
            for bp, br, piv in basis:
                if (p >> piv) & 1:
                    p, r = p ^ bp, r ^ br
            if p:
                basis.append((p, r, p.bit_length() - 1))
            else:
                assert r == 0
    assert len(basis) == 9
    basis.sort(key=lambda t: t[2])
    red = []
    for p, r, piv in basis:  # back substitution to unit vectors
        for q, s, qp in red:
            if (p >> qp) & 1:
                p, r = p ^ q, r ^ s
        red = [((q ^ p, s ^ r, qp) if (q >> piv) & 1 else (q, s, qp)) for q, s, qp in red]
        red.append((p, r, piv))
    return {piv: r for p, r, piv in red}


def paar(targets, nvars, rng):
    """XOR network for the targets (masks over nvars variables): new gates and the result index."""
    rows, gates, n = list(targets), [], nvars
    while True:
        count = {}
        for r in rows:
            bits = [i for i in range(n) if (r >> i) & 1]
            for pair in itertools.combinations(bits, 2):
                count[pair] = count.get(pair, 0) + 1
        if not count:
            break
        top = max(count.values())
        i, j = rng.choice(sorted(p for p, c in count.items() if c == top))
        gates.append((i, j))
        rows = [(r & ~(1 << i) & ~(1 << j)) | (1 << n) if (r >> i) & 1 and (r >> j) & 1 else r for r in rows]
        n += 1
    return gates, [r.bit_length() - 1 if r else None for r in rows]


class Gates:
    """A BLIF gate network."""

    def __init__(self):
        self.lines, self.k = [], 0

    def _new(self, args, cubes):
        self.k += 1
        name = "n%d" % self.k
        self.lines += [".names " + " ".join(args + [name])] + cubes
        return name

    def xor(self, a, b):
        return self._new([a, b], ["01 1", "10 1"])

    def and_(self, a, b):
        return self._new([a, b], ["11 1"])

    def zero(self):
        return self._new([], [])

    def lut(self, args, tt):
        cubes = ["".join(str((m >> j) & 1) for j in range(len(args))) + " 1"
                 for m in range(1 << len(args)) if (tt >> m) & 1]
        return self._new(args, cubes)

    def linear(self, sig, targets, rng):
        gates, idx = paar(targets, len(sig), rng)
        s = list(sig)
        for i, j in gates:
            s.append(self.xor(s[i], s[j]))
        return [s[i] if i is not None else self.zero() for i in idx]


def inversion_network(f, m_init, m_final, variant, seed):
    """BLIF of y = m_final . inv_tower(m_init . x); variant picks equivalent formulas."""
    rng = random.Random(seed)
    g = Gates()
    xs = ["x%d" % i for i in range(8)]
    rows = rows_of(m_init)  # tower bit r as a mask over x
    R = karatsuba_recombination(f)
    l_code = f.enc[gmul(f.T[4], f.T[4]) ^ f.T[4]]  # y^2 = y + L

    def d_linear(a):  # d = a1^2 L + a1 a0 + a0^2; variant 1: first product a1 (a0 + a1)
        a0, a1 = a & 15, a >> 4
        t = f.mul(f.mul(a1, a1), l_code) ^ f.mul(a0, a0)
        return t ^ f.mul(a1, a1) if variant & 1 else t

    lin_rows = rows_of([d_linear(1 << i) for i in range(8)], 4)
    to_x = lambda mask: mat_apply(rows, mask)
    fa1 = forms16(lambda i: rows[4 + i])
    fa0 = forms16(lambda i: rows[i] ^ (rows[4 + i] if variant & 1 else 0))
    fa0o = forms16(lambda i: rows[i] ^ (rows[4 + i] if variant & 2 else 0))
    lin_x = [to_x(m) for m in lin_rows]
    uniq = sorted(set(fa1 + fa0 + fa0o + lin_x))
    sig = dict(zip(uniq, g.linear(xs, uniq, rng)))
    p = [g.and_(sig[fa1[k]], sig[fa0[k]]) for k in range(9)]
    d_rows = [sum(((R[k] >> j) & 1) << k for k in range(9)) | 1 << (9 + j) for j in range(4)]
    d = g.linear(p + [sig[m] for m in lin_x], d_rows, rng)
    e = [g.lut(d, sum(((f.inv(u) >> j) & 1) << u for u in range(16))) for j in range(4)]
    fe = forms16(lambda i: 1 << i)
    esig = dict(zip(sorted(set(fe)), g.linear(e, sorted(set(fe)), rng)))
    q1 = [g.and_(sig[fa1[k]], esig[fe[k]]) for k in range(9)]
    q0 = [g.and_(sig[fa0o[k]], esig[fe[k]]) for k in range(9)]
    out_rows = []  # tower output bit -> mask over q1 (bits 0..8), q0 (9..17)
    for j in range(4):
        r1 = sum(((R[k] >> j) & 1) << k for k in range(9))
        out_rows.append(r1 << 9 | (0 if variant & 2 else r1))
    for j in range(4):
        out_rows.append(sum(((R[k] >> j) & 1) << k for k in range(9)))
    y_rows = [mat_apply(out_rows, r) for r in rows_of(m_final)]
    ys = g.linear(q1 + q0, y_rows, rng)
    head = [".model sbox", ".inputs " + " ".join(xs), ".outputs " + " ".join("y%d" % i for i in range(8))]
    tail = sum(([".names %s y%d" % (ys[i], i), "1 1"] for i in range(8)), []) + [".end"]
    return "\n".join(head + g.lines + tail) + "\n"


MAP = "strash; dch; if -K 3 -a -C 32 -F 5 -A 5; mfs2"
# Tried on the final circuits only: each wins for some S-box by one or two LUTs.
MAP_MORE = [MAP + "; strash; dch; if -K 3 -a -C 32; mfs2", "&get -n; &st; &dch; &if -K 3 -a -C 32; &mfs; &put",
            "strash; dch -f; if -K 3 -a -C 32 -F 5 -A 5; mfs2"]


def abc_map(blif, script=MAP):
    """3-input LUT network [(name, args, tt)] in topological order, outputs."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.blif"), os.path.join(d, "out.blif")
        open(src, "w").write(blif)
        cmd = "read_blif %s; %s; write_blif %s" % (src, script, dst)
        subprocess.run(["berkeley-abc", "-q", cmd], check=True, capture_output=True)
        text = open(dst).read().replace("\\\n", " ")
    nodes, outs, lines, i = {}, None, text.split("\n"), 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line.startswith(".outputs"):
            outs = line.split()[1:]
        if not line.startswith(".names"):
            continue
        *args, name = line.split()[1:]
        tt, polarity = 0, "1"
        while i < len(lines) and lines[i].strip() and not lines[i].startswith("."):
            cube = lines[i].split()
            i += 1
            if not args:
                raise SystemExit("constant node in the mapped network")
            polarity = cube[1]
            for m in range(1 << len(args)):
                if all(c == "-" or int(c) == (m >> j) & 1 for j, c in enumerate(cube[0])):
                    tt |= 1 << m
        if polarity == "0":
            tt ^= (1 << (1 << len(args))) - 1
        nodes[name] = (args, tt)
    alias = {}  # buffers collapse; the y outputs are buffers of internal nodes or inputs
    for name, (args, tt) in nodes.items():
        if len(args) == 1 and tt == 2:
            alias[name] = args[0]

    def resolve(n):
        while n in alias:
            n = alias[n]
        return n

    kept = {n: ([resolve(a) for a in args], tt) for n, (args, tt) in nodes.items() if n not in alias}
    order, seen = [], set("x%d" % i for i in range(8))

    def visit(n):
        if n in seen:
            return
        for a in kept[n][0]:
            visit(a)
        seen.add(n)
        order.append((n, kept[n][0], kept[n][1]))

    outs = [resolve(o) for o in outs]
    for o in outs:
        visit(o)
    return order, outs


def evaluate(order, outs, x):
    v = {"x%d" % i: (x >> i) & 1 for i in range(8)}
    for n, args, tt in order:
        v[n] = (tt >> sum(v[a] << j for j, a in enumerate(args))) & 1
    return sum(v[o] << i for i, o in enumerate(outs))


def read_tables():
    src = open(os.path.join(ROOT, "src", "aria", "aria_sbox.cpp")).read()
    tables = []
    for k in range(1, 5):
        body = re.search(r"aria_sb%d\[256\] = \{(.*?)\};" % k, src, re.S).group(1)
        tables.append([int(t, 16) for t in re.findall(r"0x[0-9a-f]{2}", body)])
    return tables


class Problem:
    def __init__(self):
        sb = read_tables()
        self.m1 = mat_from_fn(lambda u: sb[0][ginv(u)] ^ 0x63)
        self.m2 = mat_from_fn(lambda u: sb[1][ginv(u)] ^ 0xE2)
        i1, i2 = mat_inv(self.m1), mat_inv(self.m2)
        for x in range(256):  # the affine-around-inversion form holds for all four tables
            assert sb[0][x] == mat_apply(self.m1, ginv(x)) ^ 0x63
            assert sb[1][x] == mat_apply(self.m2, ginv(x)) ^ 0xE2
            assert sb[2][x] == ginv(mat_apply(i1, x ^ 0x63))
            assert sb[3][x] == ginv(mat_apply(i2, x ^ 0xE2))
        self.min = [IDENT, IDENT, i1, i2]
        self.mout = [self.m1, self.m2, IDENT, IDENT]
        self.towers = towers()

    def core(self, t, x):  # the S-box without its constants, in the standard basis
        return mat_apply(self.mout[t], ginv(mat_apply(self.min[t], x)))

    def circuit(self, t, l_cols, tower, variant, seed, thorough=False):
        f = Field(self.towers[tower])
        l_inv = mat_inv(l_cols)
        m_init = mat_mul(mat_inv(f.T), mat_mul(self.min[t], l_cols))
        m_final = mat_mul(l_inv, mat_mul(self.mout[t], f.T))
        blif = inversion_network(f, m_init, m_final, variant, seed)
        best = None
        for script in [MAP] + (MAP_MORE if thorough else []):
            order, outs = abc_map(blif, script)
            for x in range(256):
                assert evaluate(order, outs, x) == mat_apply(l_inv, self.core(t, mat_apply(l_cols, x)))
            if best is None or len(order) < len(best[0]):
                best = (order, outs)
        return best


def search(pb, seeds):
    best_l = None
    for li, basis in enumerate(pb.towers):  # L = a tower basis, circuits in that same tower
        total = sum(min(len(pb.circuit(t, basis, li, v, 0)[0]) for v in range(4)) for t in range(4))
        print("L = tower %d: %d LUTs" % (li, total), file=sys.stderr, flush=True)
        if best_l is None or total < best_l[0]:
            best_l = (total, li)
    li = best_l[1]
    choice = [li]
    for t in range(4):
        best = None
        for tower in range(len(pb.towers)):
            for v in range(4):
                for s in range(seeds):
                    n = len(pb.circuit(t, pb.towers[li], tower, v, s)[0])
                    if best is None or n < best[0]:
                        best = (n, tower, v, s)
        print("SB%d: %s" % (t + 1, best), file=sys.stderr, flush=True)
        choice.append(best[1:])
    return choice


def lop3_call(args, tt, names):
    """LOP3 over (a, b, c) = (0xf0, 0xcc, 0xaa): a is the last LUT input, c the first."""
    a = [names[x] for x in args]
    if len(a) == 3:
        return "lop3<0x%02x>(%s, %s, %s)" % (tt, a[2], a[1], a[0])
    if len(a) == 2:
        lut = sum(((tt >> (i >> 1)) & 1) << i for i in range(8))
        return "lop3<0x%02x>(%s, %s, 0u)" % (lut, a[1], a[0])
    lut = sum(((tt >> (i >> 2)) & 1) << i for i in range(8))
    return "lop3<0x%02x>(%s, 0u, 0u)" % (lut, a[0])


def emit_circuit(fn, order, outs, comment):
    names = {"x%d" % i: "x%d" % i for i in range(8)}
    body = []
    for k, (n, args, tt) in enumerate(order):
        names[n] = "t%d" % k
        body.append("    const uint32_t t%d = %s;" % (k, lop3_call(args, tt, names)))
    head = ["// " + comment, "KC_HD void %s(uint32_t *x)" % fn, "{",
            "    const uint32_t " + ", ".join("x%d = x[%d]" % (i, i) for i in range(8)) + ";"]
    tail = ["    x[%d] = %s;" % (i, names[o]) for i, o in enumerate(outs)] + ["}"]
    return "\n".join(head + body + tail) + "\n"


def emit_linear(fn, cols, comment):
    """Straight-line XORs for y = M.x on one sliced byte (2-input XORs shared by Paar's heuristic)."""
    g_rows = rows_of(cols)
    gates, idx = paar(g_rows, 8, random.Random(0))
    body = ["    const uint32_t " + ", ".join("x%d = x[%d]" % (i, i) for i in range(8)) + ";"]
    names = ["x%d" % i for i in range(8)]
    for k, (i, j) in enumerate(gates):
        names.append("u%d" % k)
        body.append("    const uint32_t u%d = %s ^ %s;" % (k, names[i], names[j]))
    body += ["    x[%d] = %s;" % (r, names[i]) for r, i in enumerate(idx)]
    return "\n".join(["// " + comment, "KC_HD void %s(uint32_t *x)" % fn, "{"] + body + ["}"]) + "\n"


def main():
    args = sys.argv[1:]
    out = os.path.join(ROOT, "src", "aria", "aria_cuda_bitslice_sbox.cuh")
    if "--out" in args:
        out = args[args.index("--out") + 1]
    pb = Problem()
    choice = search(pb, 3) if "--search" in args else CHOICE
    li = choice[0]
    l_cols = pb.towers[li]
    l_inv = mat_inv(l_cols)
    parts, total = [], 0
    for t in range(4):
        tower, v, s = choice[1 + t]
        order, outs = pb.circuit(t, l_cols, tower, v, s, thorough=True)
        total += len(order)
        parts.append(emit_circuit("sb%d_core" % (t + 1), order, outs,
                                  "SB%d without its constant, stored basis in and out: %d LOP3 (tower %d, variant %d, "
                                  "seed %d)." % (t + 1, len(order), tower, v, s)))
    cols = lambda m: ", ".join("0x%02x" % c for c in m)
    text = HEADER.format(args="".join(" " + a for a in sys.argv[1:] if a != "--out" and a != out), li=li,
                         choice=repr(choice), total=total, to_cols=cols(l_inv), from_cols=cols(l_cols))
    text += emit_linear("to_basis", l_inv, "byte -> stored basis, on one sliced byte (L^-1).") + "\n"
    text += emit_linear("from_basis", l_cols, "stored basis -> byte, on one sliced byte (L).") + "\n"
    text += "\n".join(parts)
    open(out, "w").write(text)
    print("wrote %s: %d LOP3 for the four S-boxes, choice %r" % (out, total, choice), file=sys.stderr)


HEADER = """\
// aria/cuda-bitslice, the S-box circuits: the four ARIA S-boxes (RFC 5794 section 2.3.2) as
// straight-line LOP3 programs on bitsliced bytes. Included by aria_cuda_bitslice.cuh only.
//
// GENERATED by tools/gen/aria_bitslice_sbox.py{args} (which says how), do not edit.
// Choice: {choice}; {total} LOP3 for SB1..SB4.
//
// The state's bytes are held in a basis of their own, stored = L^-1 . byte, with L the basis
// of a tower field GF(((2^2)^2)^2) (tower {li}). ARIA's diffusion and the key additions XOR
// whole bytes, so they commute with L; the kernel converts the input once (to_basis), adds
// round keys converted on the host (to_basis_byte), and converts the output back
// (from_basis). In exchange every S-box circuit skips one of its two basis changes: SB1 and
// SB2 take their input in tower form, SB3 and SB4 give their output in it.
// sbN_core(x) = L^-1 . core_N(L . x), core_N the S-box without its constants 0x63 / 0xe2
// (aria_cuda_bitslice.cuh, fold_constants). Bit b of word x[b] is bit b of the stored byte.
#pragma once

// Columns of L^-1 and L: column i is the image of bit i.
constexpr uint8_t to_basis_cols[8] = {{{to_cols}}};
constexpr uint8_t from_basis_cols[8] = {{{from_cols}}};

// On the host: M.v for M given by its columns; no branch (round keys go through here).
inline uint8_t basis_byte(const uint8_t (&cols)[8], uint8_t v)
{{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= cols[i] & (uint8_t)(0u - ((v >> i) & 1u));
    return r;
}}
inline uint8_t to_basis_byte(uint8_t v) {{ return basis_byte(to_basis_cols, v); }}
inline uint8_t from_basis_byte(uint8_t v) {{ return basis_byte(from_basis_cols, v); }}

"""

if __name__ == "__main__":
    main()
