/*
 * bits.h — gathering scattered bits of a word into its low bits (the
 * x86 instruction pext where the compiler may use it, a loop elsewhere,
 * both giving the same answer, which `make check-scalar` checks),
 * spreading them back (pdep), and turning a word end for end.
 */
#ifndef RDB_COMMON_BITS_H
#define RDB_COMMON_BITS_H

#include <stdint.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

/* The bits of x at the set bits of mask, in order, packed from bit 0. */
static inline uint64_t rdb_pext(uint64_t x, uint64_t mask)
{
#ifdef __BMI2__
    return _pext_u64(x, mask);
#else
    uint64_t out = 0;
    for (int i = 0; mask; mask &= mask - 1, i++)
        out |= (x >> __builtin_ctzll(mask) & 1) << i;
    return out;
#endif
}

/* The low bits of x placed, in order, at the set bits of mask. */
static inline uint64_t rdb_pdep(uint64_t x, uint64_t mask)
{
#ifdef __BMI2__
    return _pdep_u64(x, mask);
#else
    uint64_t out = 0;
    for (int i = 0; mask; mask &= mask - 1, i++)
        out |= (x >> i & 1) << __builtin_ctzll(mask);
    return out;
#endif
}

/* x with its bits in the opposite order: bit b goes to bit 63 - b (the
 * half turn of a Cram layout). */
static inline uint64_t rdb_reverse64(uint64_t x)
{
    x = __builtin_bswap64(x);
    x = (x & 0x0f0f0f0f0f0f0f0fULL) << 4 | (x >> 4 & 0x0f0f0f0f0f0f0f0fULL);
    x = (x & 0x3333333333333333ULL) << 2 | (x >> 2 & 0x3333333333333333ULL);
    return (x & 0x5555555555555555ULL) << 1 | (x >> 1 & 0x5555555555555555ULL);
}

#endif
