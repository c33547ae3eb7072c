/* Adler-32 (RFC 1950), zlib's adler32() bit for bit, with 256-bit vectors where the CPU has
   AVX2: Debian's zlib sums one byte at a time, which was 15 % of the instructions of unpacking a
   routing pack (its inflate checks every stream's Adler-32). Per 32-byte block b[0..31] entered
   with sums (a, s): a' = a + sum b[i], s' = s + 32 a + sum (32 - i) b[i]. The vector loop keeps
   eight lanes of each sum (their totals are the sums) and, for the 32 a terms, the running
   total of a before each block; everything is reduced modulo 65521 after at most NMAX bytes,
   before any 32-bit lane can overflow (zlib's own bound). zlib does the last < 32 bytes and
   every CPU without AVX2. */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>
#include "cshims.h"
#include "resolve_once.h"

#define BASE 65521u
/* zlib's NMAX (5552), rounded down to whole 32-byte blocks. */
#define BLOCKS_PER_CHUNK (5552 / 32)

static uint32_t adler32_zlib(uint32_t adler, const unsigned char *p, size_t len) {
    return len == 0 ? adler : (uint32_t)adler32_z(adler, p, (z_size_t)len);
}

uint32_t offgrid_adler32_portable(uint32_t adler, const void *buf, size_t len) {
    return adler32_zlib(adler, buf, len);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

int offgrid_adler32_has_avx2(void) {
    return __builtin_cpu_supports("avx2");
}

__attribute__((target("avx2")))
static uint32_t sum_lanes(__m256i v) {
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

__attribute__((target("avx2")))
uint32_t offgrid_adler32_avx2(uint32_t adler, const void *buf, size_t len) {
    const unsigned char *p = buf;
    uint32_t a = adler & 0xffff, s = adler >> 16;
    const __m256i weights = _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                             16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m256i ones = _mm256_set1_epi16(1), zero = _mm256_setzero_si256();
    size_t blocks = len / 32;
    while (blocks > 0) {
        size_t n = blocks < BLOCKS_PER_CHUNK ? blocks : BLOCKS_PER_CHUNK;
        blocks -= n;
        __m256i va = _mm256_setzero_si256(), vs = _mm256_setzero_si256(), vprev = _mm256_setzero_si256();
        uint64_t a0 = a;
        for (size_t k = 0; k < n; k++, p += 32) {
            __m256i b = _mm256_loadu_si256((const __m256i *)p);
            vprev = _mm256_add_epi32(vprev, va);
            va = _mm256_add_epi32(va, _mm256_sad_epu8(b, zero));
            vs = _mm256_add_epi32(vs, _mm256_madd_epi16(_mm256_maddubs_epi16(b, weights), ones));
        }
        /* s gains 32 a0 per block for the entering a, plus 32 x (the bytes summed before each block). */
        uint64_t s64 = s + 32 * (a0 * n + sum_lanes(vprev)) + sum_lanes(vs);
        a = (uint32_t)((a0 + sum_lanes(va)) % BASE);
        s = (uint32_t)(s64 % BASE);
    }
    return adler32_zlib(s << 16 | a, p, len % 32);
}
#else
int offgrid_adler32_has_avx2(void) { return 0; }

uint32_t offgrid_adler32_avx2(uint32_t adler, const void *buf, size_t len) {
    return adler32_zlib(adler, buf, len);
}
#endif

OFFGRID_RESOLVED_ONCE(adler32, offgrid_adler32_has_avx2() ? offgrid_adler32_avx2 : offgrid_adler32_portable)
