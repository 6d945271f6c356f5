/*
 * checksum.c — see checksum.h. A multiply-rotate mix per 8-byte word with a
 * final avalanche; throughput is well above zstd's, so it never shows in a
 * build's profile.
 */
#include "store/checksum.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL

static inline uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

static inline uint64_t load_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline uint64_t avalanche(uint64_t h)
{
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P1;
    h ^= h >> 32;
    return h;
}

uint64_t rdb_checksum64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (len * P1);
    size_t i = 0;
    for (; i + 8 <= len; i += 8)
        h = rotl(h ^ (load_le64(p + i) * P2), 31) * P1;
    uint64_t tail = 0;
    for (size_t j = len; j > i; j--)
        tail = tail << 8 | p[j - 1];
    h = rotl(h ^ (tail * P2), 27) * P1;
    return avalanche(h);
}

uint64_t rdb_checksum_combine(uint64_t acc, uint64_t next)
{
    return avalanche(rotl(acc, 17) ^ next) + P1;
}
