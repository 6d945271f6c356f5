/*
 * bits.h — gathering scattered bits of a word into its low bits (the
 * x86 instruction pext where the compiler may use it, a loop elsewhere,
 * both giving the same answer, which `make check-scalar` checks), and
 * spreading them back (pdep).
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

#endif
