// aria/cuda-bitslice, the S-box circuits: the four ARIA S-boxes (RFC 5794 section 2.3.2) on
// bitsliced bytes, as straight-line AND/XOR programs (plus ten 3-input lookups each) that the
// GPU runs as LOP3 instructions. Included by aria_cuda_bitslice.cuh only.
//
// Derivation. Every ARIA S-box is an affine map around the one inversion of GF(2^8) modulo
// x^8+x^4+x^3+x+1 (aria_x86_byteslice.hpp lists the four):
//   SB1(x) = M1.inv(x) ^ 0x63      SB3(x) = inv(M1^-1.(x ^ 0x63))
//   SB2(x) = M2.inv(x) ^ 0xe2      SB4(x) = inv(M2^-1.(x ^ 0xe2))
// Here sbN_core computes the linear part only, Mout.inv(Min.x); the constants 0x63 and 0xe2
// are folded into the round keys (aria_cuda_bitslice.cuh, fold_constants). The inversion is
// computed in a tower field GF(((2^2)^2)^2) with polynomial bases (w^2 = w + 1 over GF(2),
// z^2 = z + N over GF(4), y^2 = y + L over GF(16)):
//   (a1 y + a0)^-1 = (a1 e) y + (a0 + a1) e,  e = (a1^2 L + a1 a0 + a0^2)^-1 in GF(16),
// GF(16) products by Karatsuba over GF(4) and GF(4) products by Karatsuba over GF(2)
// (3 x 3 = 9 ANDs each: 27 ANDs in all), the GF(16) inverse as four 4-input functions (two or
// three LOP3 lookups each: the lop3<> calls). The input basis change to the tower (merged with
// Min) and the output basis change (merged with Mout) are GF(2)-linear: every AND operand and
// every output is an XOR of earlier signals, found by greedy pair sharing (Paar's heuristic),
// then adjacent gates were grouped into 3-input operations. Per S-box the tower parameters
// (N, L, the image of the AES generator) were chosen among all 128 valid ones for the fewest
// operations. A generator wrote this file; the tests check every S-box on all 256 inputs
// against the tables (tests/cuda/test_aria_bitslice_host.cu).
//
// Bit b of word x[b] is bit b (LSB = 0) of the byte, one byte per lane.
#pragma once

// SB1(x) = M.inv(x) ^ 0x63 without its constant: 27 AND, 89 XOR, 10 3-input lookups of the GF(16) inverse;
// 87 operations. Tower: N = w + 1, L = 0xa (4 bits: z-coefficient high), the AES x maps to 0x53.
KC_HD void sb1_core(uint32_t *x)
{
    const uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const uint32_t t0 = x5 ^ x6;
    const uint32_t t1 = x2 ^ x3;
    const uint32_t t2 = x1 ^ x7;
    const uint32_t t3 = x4 ^ t2;
    const uint32_t t4 = x5 ^ x7;
    const uint32_t t5 = t1 ^ t4;
    const uint32_t t6 = x0 ^ t0;
    const uint32_t t7 = x1 & (x1 ^ t6);
    const uint32_t t8 = lop3<0x78>(t7, t2, t5);
    const uint32_t t9 = x4 ^ t0;
    const uint32_t t10 = t1 ^ t9;
    const uint32_t t11 = lop3<0x96>(x2, t2, t6);
    const uint32_t t12 = lop3<0x78>(t2, t10, t11);
    const uint32_t t13 = t8 ^ t12;
    const uint32_t t14 = lop3<0x48>(x2, t1, t3);
    const uint32_t t15 = lop3<0x96>(t14, t0, t13);
    const uint32_t t16 = lop3<0x96>(x5, t2, t1);
    const uint32_t t17 = lop3<0x28>(x7, t6, t16);
    const uint32_t t18 = lop3<0x96>(x4, t7, t17);
    const uint32_t t19 = t9 & (x0 ^ t9);
    const uint32_t t20 = lop3<0x96>(x2, x5, t12);
    const uint32_t t21 = lop3<0x96>(t19, t18, t20);
    const uint32_t t22 = x2 ^ x4;
    const uint32_t t23 = t4 & t22;
    const uint32_t t24 = x0 ^ x6;
    const uint32_t t25 = lop3<0x96>(x6, t1, t3);
    const uint32_t t26 = lop3<0x96>(x7, t23, t24);
    const uint32_t t27 = x4 ^ x7;
    const uint32_t t28 = lop3<0x78>(x3, t25, t27);
    const uint32_t t29 = lop3<0x96>(t8, t26, t28);
    const uint32_t t30 = x1 ^ t1;
    const uint32_t t31 = t9 ^ t30;
    const uint32_t t32 = lop3<0x28>(x2, x7, t31);
    const uint32_t t33 = lop3<0x96>(t23, t32, t18);
    const uint32_t t34 = lop3<0x27>(t29, t33, t15);
    const uint32_t t35 = lop3<0xd8>(t15, t21, t34);
    const uint32_t t36 = lop3<0x2d>(t29, t33, t15);
    const uint32_t t37 = lop3<0x74>(t15, t21, t36);
    const uint32_t t38 = t35 ^ t37;
    const uint32_t t39 = lop3<0x86>(t15, t33, t29);
    const uint32_t t40 = lop3<0x3b>(t15, t33, t29);
    const uint32_t t41 = lop3<0xac>(t21, t39, t40);
    const uint32_t t42 = lop3<0x5c>(t15, t33, t29);
    const uint32_t t43 = lop3<0x72>(t15, t33, t29);
    const uint32_t t44 = lop3<0xac>(t21, t42, t43);
    const uint32_t t45 = t41 ^ t44;
    const uint32_t t46 = t38 ^ t45;
    const uint32_t t47 = x0 & t46;
    const uint32_t t48 = lop3<0x60>(t37, t4, t22);
    const uint32_t t49 = t6 & t41;
    const uint32_t t50 = x3 ^ t3;
    const uint32_t t51 = t44 ^ t37;
    const uint32_t t52 = t50 & t51;
    const uint32_t t53 = t49 ^ t52;
    const uint32_t t54 = lop3<0x96>(t48, t47, t53);
    const uint32_t t55 = lop3<0x28>(x6, t30, t38);
    const uint32_t t56 = lop3<0x28>(t24, t30, t45);
    const uint32_t t57 = lop3<0x6c>(t44, t56, t5);
    const uint32_t t58 = t55 ^ t57;
    const uint32_t t59 = t25 & t38;
    const uint32_t t60 = lop3<0x6c>(t37, t59, t4);
    const uint32_t t61 = x1 & t41;
    const uint32_t t62 = lop3<0x96>(t61, t60, t58);
    const uint32_t t63 = t54 ^ t62;
    const uint32_t t64 = lop3<0x48>(x5, t44, t30);
    const uint32_t t65 = x3 ^ t2;
    const uint32_t t66 = lop3<0x60>(t35, t9, t65);
    const uint32_t t67 = lop3<0x96>(t66, t64, t62);
    const uint32_t t68 = t41 ^ t35;
    const uint32_t t69 = lop3<0x78>(t60, t10, t68);
    const uint32_t t70 = x0 ^ t50;
    const uint32_t t71 = lop3<0x78>(t53, t68, t70);
    const uint32_t t72 = t16 & t45;
    const uint32_t t73 = t9 & t46;
    const uint32_t t74 = t72 ^ t58;
    const uint32_t t75 = lop3<0x96>(t73, t71, t74);
    const uint32_t t76 = lop3<0x96>(t66, t69, t75);
    const uint32_t t77 = lop3<0x6c>(t1, t69, t51);
    const uint32_t t78 = t55 ^ t77;
    const uint32_t t79 = lop3<0x96>(t56, t54, t78);
    const uint32_t t80 = t48 ^ t64;
    const uint32_t t81 = lop3<0x96>(t49, t78, t80);
    const uint32_t t82 = t59 ^ t57;
    const uint32_t t83 = lop3<0x6c>(t35, t52, t31);
    const uint32_t t84 = lop3<0x96>(t72, t47, t83);
    const uint32_t t85 = lop3<0x96>(t64, t82, t84);
    const uint32_t t86 = lop3<0x96>(t64, t77, t71);
    x[0] = t63;
    x[1] = t67;
    x[2] = t76;
    x[3] = t79;
    x[4] = t81;
    x[5] = t85;
    x[6] = t77;
    x[7] = t86;
}

// SB2(x) = M.inv(x) ^ 0xe2 without its constant: 27 AND, 95 XOR, 10 3-input lookups of the GF(16) inverse;
// 89 operations. Tower: N = w + 1, L = 0xc (4 bits: z-coefficient high), the AES x maps to 0x6f.
KC_HD void sb2_core(uint32_t *x)
{
    const uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const uint32_t t0 = x1 ^ x3;
    const uint32_t t1 = x6 ^ t0;
    const uint32_t t2 = x6 ^ x7;
    const uint32_t t3 = x4 ^ t2;
    const uint32_t t4 = x0 ^ x2;
    const uint32_t t5 = x1 ^ t4;
    const uint32_t t6 = lop3<0x48>(t2, t3, t5);
    const uint32_t t7 = x4 ^ x5;
    const uint32_t t8 = x6 ^ t7;
    const uint32_t t9 = x1 ^ t8;
    const uint32_t t10 = lop3<0x28>(x1, t2, t9);
    const uint32_t t11 = lop3<0x96>(t10, t6, t0);
    const uint32_t t12 = x1 ^ t3;
    const uint32_t t13 = x2 ^ t0;
    const uint32_t t14 = x0 ^ x5;
    const uint32_t t15 = lop3<0x48>(x3, t13, t14);
    const uint32_t t16 = lop3<0x6c>(x3, t15, t12);
    const uint32_t t17 = lop3<0x96>(x7, t11, t16);
    const uint32_t t18 = x5 ^ x7;
    const uint32_t t19 = x1 ^ t18;
    const uint32_t t20 = t19 & t4;
    const uint32_t t21 = lop3<0x96>(x3, t6, t20);
    const uint32_t t22 = lop3<0x96>(x2, x3, t3);
    const uint32_t t23 = lop3<0x78>(t2, t14, t22);
    const uint32_t t24 = lop3<0x96>(t15, t21, t23);
    const uint32_t t25 = lop3<0x28>(t0, t2, t18);
    const uint32_t t26 = t13 ^ t8;
    const uint32_t t27 = lop3<0x28>(x2, x5, t26);
    const uint32_t t28 = lop3<0x96>(t25, t27, t11);
    const uint32_t t29 = lop3<0x96>(x0, x6, t28);
    const uint32_t t30 = t3 ^ t13;
    const uint32_t t31 = lop3<0x96>(x5, t2, t13);
    const uint32_t t32 = lop3<0x78>(t25, t30, t31);
    const uint32_t t33 = lop3<0x96>(t7, t21, t32);
    const uint32_t t34 = lop3<0x2d>(t29, t33, t17);
    const uint32_t t35 = lop3<0x74>(t17, t24, t34);
    const uint32_t t36 = lop3<0x48>(x5, t35, t1);
    const uint32_t t37 = lop3<0x5c>(t17, t33, t29);
    const uint32_t t38 = lop3<0x72>(t17, t33, t29);
    const uint32_t t39 = lop3<0xac>(t24, t37, t38);
    const uint32_t t40 = t39 ^ t35;
    const uint32_t t41 = t0 ^ t3;
    const uint32_t t42 = lop3<0x78>(t36, t40, t41);
    const uint32_t t43 = lop3<0x27>(t29, t33, t17);
    const uint32_t t44 = lop3<0xd8>(t17, t24, t43);
    const uint32_t t45 = t7 & t44;
    const uint32_t t46 = lop3<0x86>(t17, t33, t29);
    const uint32_t t47 = lop3<0x3b>(t17, t33, t29);
    const uint32_t t48 = lop3<0xac>(t24, t46, t47);
    const uint32_t t49 = t3 & t48;
    const uint32_t t50 = lop3<0x48>(x7, t39, t7);
    const uint32_t t51 = lop3<0x96>(t49, t45, t50);
    const uint32_t t52 = t12 & t40;
    const uint32_t t53 = lop3<0x48>(x4, t48, t5);
    const uint32_t t54 = t44 ^ t35;
    const uint32_t t55 = t48 ^ t39;
    const uint32_t t56 = t54 ^ t55;
    const uint32_t t57 = t22 & t56;
    const uint32_t t58 = x3 ^ t4;
    const uint32_t t59 = lop3<0x96>(t2, t7, t58);
    const uint32_t t60 = lop3<0x78>(t57, t56, t59);
    const uint32_t t61 = t53 ^ t60;
    const uint32_t t62 = t9 & t39;
    const uint32_t t63 = lop3<0x6c>(t35, t62, t18);
    const uint32_t t64 = lop3<0x6c>(t44, t63, t30);
    const uint32_t t65 = lop3<0x96>(t52, t61, t64);
    const uint32_t t66 = t51 ^ t65;
    const uint32_t t67 = t42 ^ t66;
    const uint32_t t68 = lop3<0x48>(t18, t55, t5);
    const uint32_t t69 = t48 ^ t44;
    const uint32_t t70 = lop3<0x28>(x5, t5, t69);
    const uint32_t t71 = t68 ^ t70;
    const uint32_t t72 = lop3<0x78>(t63, t54, t26);
    const uint32_t t73 = t51 ^ t72;
    const uint32_t t74 = lop3<0x96>(t71, t42, t73);
    const uint32_t t75 = t13 & t69;
    const uint32_t t76 = lop3<0x48>(x4, t54, t1);
    const uint32_t t77 = lop3<0x78>(t76, t55, t19);
    const uint32_t t78 = lop3<0x96>(t36, t50, t77);
    const uint32_t t79 = lop3<0x96>(t75, t53, t78);
    const uint32_t t80 = lop3<0x96>(t57, t72, t79);
    const uint32_t t81 = lop3<0x96>(t76, t70, t66);
    const uint32_t t82 = t53 ^ t68;
    const uint32_t t83 = lop3<0x96>(t36, t45, t82);
    const uint32_t t84 = lop3<0x96>(t60, t71, t78);
    const uint32_t t85 = lop3<0x96>(t62, t52, t84);
    const uint32_t t86 = lop3<0x96>(t49, t71, t65);
    const uint32_t t87 = lop3<0x96>(t75, t70, t77);
    const uint32_t t88 = lop3<0x96>(t51, t61, t87);
    x[0] = t67;
    x[1] = t74;
    x[2] = t80;
    x[3] = t81;
    x[4] = t83;
    x[5] = t85;
    x[6] = t86;
    x[7] = t88;
}

// SB3(x) = inv(M.(x ^ 0x63)) without its constant: 27 AND, 90 XOR, 10 3-input lookups of the GF(16) inverse;
// 90 operations. Tower: N = w, L = 0xd (4 bits: z-coefficient high), the AES x maps to 0x4a.
KC_HD void sb3_core(uint32_t *x)
{
    const uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const uint32_t t0 = x0 ^ x4;
    const uint32_t t1 = x0 ^ x5;
    const uint32_t t2 = x4 ^ t1;
    const uint32_t t3 = x1 ^ x2;
    const uint32_t t4 = x6 ^ x7;
    const uint32_t t5 = t3 ^ t4;
    const uint32_t t6 = t2 ^ t5;
    const uint32_t t7 = x2 ^ x5;
    const uint32_t t8 = lop3<0x48>(t4, t6, t7);
    const uint32_t t9 = t1 ^ t3;
    const uint32_t t10 = lop3<0x9c>(x6, t8, t9);
    const uint32_t t11 = x3 ^ x4;
    const uint32_t t12 = x5 ^ t11;
    const uint32_t t13 = t12 & (x1 ^ t12);
    const uint32_t t14 = x0 ^ x3;
    const uint32_t t15 = x6 ^ t14;
    const uint32_t t16 = x3 ^ x5;
    const uint32_t t17 = lop3<0x48>(x6, t15, t16);
    const uint32_t t18 = lop3<0x96>(t13, t17, t11);
    const uint32_t t19 = lop3<0x96>(x7, t10, t18);
    const uint32_t t20 = x6 ^ t2;
    const uint32_t t21 = lop3<0x96>(x7, t3, t2);
    const uint32_t t22 = t8 ^ t2;
    const uint32_t t23 = lop3<0x96>(x0, x1, x7);
    const uint32_t t24 = lop3<0x78>(t22, t21, t23);
    const uint32_t t25 = lop3<0x96>(x1, x4, x6);
    const uint32_t t26 = lop3<0x78>(t13, t20, t25);
    const uint32_t t27 = lop3<0x96>(t3, t24, t26);
    const uint32_t t28 = t14 & (t3 ^ t14);
    const uint32_t t29 = x1 ^ t1;
    const uint32_t t30 = lop3<0x48>(t4, t5, t0);
    const uint32_t t31 = lop3<0x96>(t30, t4, t10);
    const uint32_t t32 = lop3<0x96>(t28, t29, t31);
    const uint32_t t33 = t14 ^ t5;
    const uint32_t t34 = t11 ^ t5;
    const uint32_t t35 = lop3<0x78>(t24, t33, t34);
    const uint32_t t36 = lop3<0x96>(x3, t28, t35);
    const uint32_t t37 = lop3<0xd6>(t27, t32, t36);
    const uint32_t t38 = lop3<0x58>(t27, t32, t36);
    const uint32_t t39 = lop3<0xac>(t19, t37, t38);
    const uint32_t t40 = lop3<0x48>(x1, t39, t0);
    const uint32_t t41 = lop3<0x27>(t36, t32, t27);
    const uint32_t t42 = lop3<0xe4>(t27, t19, t41);
    const uint32_t t43 = lop3<0x2d>(t36, t32, t27);
    const uint32_t t44 = lop3<0xb8>(t27, t19, t43);
    const uint32_t t45 = t42 ^ t44;
    const uint32_t t46 = t3 & t45;
    const uint32_t t47 = t5 & t44;
    const uint32_t t48 = t33 & t42;
    const uint32_t t49 = t47 ^ t48;
    const uint32_t t50 = lop3<0x9c>(t27, t32, t36);
    const uint32_t t51 = lop3<0x2b>(t27, t32, t36);
    const uint32_t t52 = lop3<0xac>(t19, t50, t51);
    const uint32_t t53 = t39 ^ t52;
    const uint32_t t54 = x6 & t53;
    const uint32_t t55 = lop3<0x48>(x4, t52, t7);
    const uint32_t t56 = lop3<0x6c>(t52, t55, t21);
    const uint32_t t57 = t54 ^ t56;
    const uint32_t t58 = t0 & t42;
    const uint32_t t59 = lop3<0x96>(t58, t49, t57);
    const uint32_t t60 = lop3<0x96>(t46, t40, t59);
    const uint32_t t61 = t45 ^ t53;
    const uint32_t t62 = t15 & t61;
    const uint32_t t63 = t52 ^ t44;
    const uint32_t t64 = t20 & t63;
    const uint32_t t65 = lop3<0x96>(t64, t62, t49);
    const uint32_t t66 = t6 & t39;
    const uint32_t t67 = t39 ^ t42;
    const uint32_t t68 = x1 & t67;
    const uint32_t t69 = t66 ^ t68;
    const uint32_t t70 = t56 ^ t69;
    const uint32_t t71 = t29 & t63;
    const uint32_t t72 = t3 ^ t0;
    const uint32_t t73 = lop3<0x6c>(t44, t46, t72);
    const uint32_t t74 = lop3<0x78>(t73, t12, t67);
    const uint32_t t75 = t71 ^ t74;
    const uint32_t t76 = t9 & t53;
    const uint32_t t77 = lop3<0x96>(t64, t76, t75);
    const uint32_t t78 = t70 ^ t77;
    const uint32_t t79 = t14 & t45;
    const uint32_t t80 = lop3<0x96>(t47, t79, t57);
    const uint32_t t81 = lop3<0x96>(t68, t77, t80);
    const uint32_t t82 = t1 & t61;
    const uint32_t t83 = lop3<0x96>(t54, t62, t82);
    const uint32_t t84 = lop3<0x96>(t55, t75, t83);
    const uint32_t t85 = lop3<0x96>(t66, t40, t84);
    const uint32_t t86 = lop3<0x96>(t74, t69, t83);
    const uint32_t t87 = lop3<0x96>(t79, t40, t70);
    const uint32_t t88 = lop3<0x96>(t48, t71, t87);
    const uint32_t t89 = lop3<0x96>(t68, t82, t73);
    x[0] = t60;
    x[1] = t65;
    x[2] = t78;
    x[3] = t81;
    x[4] = t85;
    x[5] = t86;
    x[6] = t88;
    x[7] = t89;
}

// SB4(x) = inv(M.(x ^ 0xe2)) without its constant: 27 AND, 92 XOR, 10 3-input lookups of the GF(16) inverse;
// 91 operations. Tower: N = w + 1, L = 0xc (4 bits: z-coefficient high), the AES x maps to 0x70.
KC_HD void sb4_core(uint32_t *x)
{
    const uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const uint32_t t0 = x2 ^ x3;
    const uint32_t t1 = x4 ^ x5;
    const uint32_t t2 = x7 ^ t1;
    const uint32_t t3 = x6 ^ t2;
    const uint32_t t4 = x0 ^ x1;
    const uint32_t t5 = x6 ^ t4;
    const uint32_t t6 = t2 ^ t5;
    const uint32_t t7 = lop3<0x48>(x2, t5, t6);
    const uint32_t t8 = x1 ^ x2;
    const uint32_t t9 = x3 ^ t1;
    const uint32_t t10 = x5 ^ x7;
    const uint32_t t11 = lop3<0x96>(x2, x5, t4);
    const uint32_t t12 = x4 ^ x6;
    const uint32_t t13 = x0 ^ x2;
    const uint32_t t14 = lop3<0x48>(t12, t6, t13);
    const uint32_t t15 = x3 ^ t14;
    const uint32_t t16 = lop3<0x78>(t15, t12, t11);
    const uint32_t t17 = lop3<0x78>(t16, t10, t9);
    const uint32_t t18 = lop3<0x96>(t7, t8, t17);
    const uint32_t t19 = t5 ^ t9;
    const uint32_t t20 = x2 ^ t5;
    const uint32_t t21 = x7 ^ t12;
    const uint32_t t22 = x2 ^ t21;
    const uint32_t t23 = t22 & t13;
    const uint32_t t24 = lop3<0x96>(t23, t4, t15);
    const uint32_t t25 = lop3<0x96>(t7, t1, t24);
    const uint32_t t26 = x4 ^ t20;
    const uint32_t t27 = lop3<0x78>(t25, t19, t26);
    const uint32_t t28 = t4 ^ t0;
    const uint32_t t29 = t10 ^ t28;
    const uint32_t t30 = x4 ^ t28;
    const uint32_t t31 = lop3<0x78>(t2, t3, t30);
    const uint32_t t32 = lop3<0x28>(x1, t12, t29);
    const uint32_t t33 = lop3<0x96>(t32, t16, t31);
    const uint32_t t34 = lop3<0x48>(x1, t2, t10);
    const uint32_t t35 = lop3<0x96>(x1, t34, t31);
    const uint32_t t36 = lop3<0x96>(t14, t23, t35);
    const uint32_t t37 = lop3<0x27>(t33, t36, t18);
    const uint32_t t38 = lop3<0xd8>(t18, t27, t37);
    const uint32_t t39 = lop3<0x2d>(t33, t36, t18);
    const uint32_t t40 = lop3<0x74>(t18, t27, t39);
    const uint32_t t41 = t38 ^ t40;
    const uint32_t t42 = lop3<0x5c>(t18, t36, t33);
    const uint32_t t43 = lop3<0x72>(t18, t36, t33);
    const uint32_t t44 = lop3<0xac>(t27, t42, t43);
    const uint32_t t45 = t44 ^ t40;
    const uint32_t t46 = lop3<0x86>(t18, t36, t33);
    const uint32_t t47 = lop3<0x3b>(t18, t36, t33);
    const uint32_t t48 = lop3<0xac>(t27, t46, t47);
    const uint32_t t49 = t48 ^ t38;
    const uint32_t t50 = t45 ^ t49;
    const uint32_t t51 = lop3<0x28>(x5, t0, t50);
    const uint32_t t52 = t48 ^ t44;
    const uint32_t t53 = lop3<0x28>(x0, t21, t52);
    const uint32_t t54 = t5 ^ t10;
    const uint32_t t55 = lop3<0x60>(t40, t0, t54);
    const uint32_t t56 = t22 & t52;
    const uint32_t t57 = t5 & t49;
    const uint32_t t58 = t56 ^ t57;
    const uint32_t t59 = t6 & t48;
    const uint32_t t60 = lop3<0x60>(t48, t8, t10);
    const uint32_t t61 = lop3<0x96>(x3, x4, x7);
    const uint32_t t62 = lop3<0x78>(t60, t45, t61);
    const uint32_t t63 = t59 ^ t62;
    const uint32_t t64 = lop3<0x78>(t63, t19, t50);
    const uint32_t t65 = t58 ^ t64;
    const uint32_t t66 = lop3<0x96>(t55, t53, t65);
    const uint32_t t67 = t0 ^ t3;
    const uint32_t t68 = lop3<0x48>(x0, t41, t67);
    const uint32_t t69 = lop3<0x96>(t68, t51, t66);
    const uint32_t t70 = t29 & t41;
    const uint32_t t71 = lop3<0x78>(t58, t45, t9);
    const uint32_t t72 = t2 & t38;
    const uint32_t t73 = t72 ^ t59;
    const uint32_t t74 = lop3<0x96>(t70, t71, t73);
    const uint32_t t75 = x1 ^ x4;
    const uint32_t t76 = lop3<0x6c>(t38, t55, t75);
    const uint32_t t77 = t60 ^ t53;
    const uint32_t t78 = t76 ^ t77;
    const uint32_t t79 = t72 ^ t76;
    const uint32_t t80 = lop3<0x6c>(t44, t79, t11);
    const uint32_t t81 = lop3<0x6c>(t40, t71, t30);
    const uint32_t t82 = lop3<0x96>(t80, t77, t81);
    const uint32_t t83 = t51 ^ t80;
    const uint32_t t84 = lop3<0x28>(x2, t2, t49);
    const uint32_t t85 = lop3<0x96>(t84, t83, t81);
    const uint32_t t86 = lop3<0x60>(t44, t1, t20);
    const uint32_t t87 = lop3<0x96>(t70, t86, t83);
    const uint32_t t88 = lop3<0x96>(t56, t62, t87);
    const uint32_t t89 = lop3<0x96>(t86, t84, t65);
    const uint32_t t90 = lop3<0x96>(t57, t64, t87);
    x[0] = t69;
    x[1] = t74;
    x[2] = t78;
    x[3] = t82;
    x[4] = t85;
    x[5] = t88;
    x[6] = t89;
    x[7] = t90;
}

