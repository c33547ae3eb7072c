#ifndef OFFGRID_CSHIMS_H
#define OFFGRID_CSHIMS_H
/* Atomically swaps two paths (Linux renameat2 RENAME_EXCHANGE). Returns 0 or -1 with errno set;
   where the call does not exist it fails with ENOSYS and callers fall back to two renames. */
int offgrid_rename_exchange(const char *a, const char *b);

#include <stddef.h>
#include <stdint.h>
/* open(path, O_RDONLY | O_CLOEXEC), with O_NOATIME where the caller may set it (it owns the file,
   or is root; else EPERM, and the file is opened without it): the kernel then skips the
   access-time check it makes on every read. Returns the descriptor or -1 with errno set. */
int offgrid_open_read_noatime(const char *path);
/* zlib's crc32(crc, buf, len), bit for bit, with PCLMUL folding where the CPU has it (chosen at
   the first call). len may exceed 4 GiB; len 0 returns crc. */
uint32_t offgrid_crc32(uint32_t crc, const void *buf, size_t len);
/* The paths offgrid_crc32 chooses between, for tests and measurements: 512-bit lanes
   (VPCLMULQDQ + AVX-512), 128-bit lanes (PCLMULQDQ + SSE4.1), zlib. Each folding one may only be
   called when its has_ function is non-zero (off x86 they are zlib's). */
int offgrid_crc32_has_vpclmul(void);
int offgrid_crc32_has_pclmul(void);
uint32_t offgrid_crc32_vpclmul(uint32_t crc, const void *buf, size_t len);
uint32_t offgrid_crc32_pclmul(uint32_t crc, const void *buf, size_t len);
uint32_t offgrid_crc32_portable(uint32_t crc, const void *buf, size_t len);
/* zlib's adler32(adler, buf, len), bit for bit, with AVX2 where the CPU has it (chosen at the
   first call); len 0 returns adler. The AVX2 path may only be called when has_avx2 is non-zero
   (off x86 it is zlib's). */
uint32_t offgrid_adler32(uint32_t adler, const void *buf, size_t len);
int offgrid_adler32_has_avx2(void);
uint32_t offgrid_adler32_avx2(uint32_t adler, const void *buf, size_t len);
uint32_t offgrid_adler32_portable(uint32_t adler, const void *buf, size_t len);
/* sin(x) and cos(x) in one call: glibc's sincos, which shares sin's and cos's code and gives
   their results bit for bit (checked on 40 M arguments), in about the time of one of them. */
void offgrid_sincos(double x, double *s, double *c);
/* v truncated toward zero, for |v| < 2^63 (the caller checks): one instruction, where Swift's
   Int64(v) also tests both ends of the range. */
static inline int64_t offgrid_truncate(double v) { return (int64_t)v; }
/* A word of flags other threads may set: loaded and set atomically with no ordering. For lazily
   checked blocks of read-only data: a set bit says a block's bytes, which nobody writes, passed
   its check, so a reader needs the bit alone, and a relaxed load is no fence in a hot loop. */
static inline uint64_t offgrid_load_relaxed_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void offgrid_or_relaxed_u64(uint64_t *p, uint64_t bits) { __atomic_fetch_or(p, bits, __ATOMIC_RELAXED); }
/* Asks for the cache line at p to be loaded for reading, without waiting for it. */
static inline void offgrid_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }
/* Bytes of heap the allocator has handed out and not had back (glibc's mallinfo2 uordblks, plus
   hblkhd, its direct mappings): for tests that a loop keeps no memory. */
size_t offgrid_heap_in_use(void);
#endif
