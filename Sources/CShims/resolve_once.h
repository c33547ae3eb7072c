/* A checksum entry point `offgrid_NAME(value, buf, len)` that calls the implementation CHOICE
   picks at its first call (a CPU check), and that pointer directly afterwards. A race between
   first callers only stores the same pointer twice. CRC-32 and Adler-32 share it. */
#ifndef OFFGRID_RESOLVE_ONCE_H
#define OFFGRID_RESOLVE_ONCE_H
#include <stddef.h>
#include <stdint.h>

typedef uint32_t (*offgrid_checksum_fn)(uint32_t, const void *, size_t);

#define OFFGRID_RESOLVED_ONCE(NAME, CHOICE)                                                     \
    static uint32_t NAME##_resolve(uint32_t value, const void *buf, size_t len);               \
    static offgrid_checksum_fn NAME##_impl = NAME##_resolve;                                   \
    static uint32_t NAME##_resolve(uint32_t value, const void *buf, size_t len) {              \
        offgrid_checksum_fn fn = (CHOICE);                                                     \
        __atomic_store_n(&NAME##_impl, fn, __ATOMIC_RELAXED);                                  \
        return fn(value, buf, len);                                                            \
    }                                                                                          \
    uint32_t offgrid_##NAME(uint32_t value, const void *buf, size_t len) {                     \
        return __atomic_load_n(&NAME##_impl, __ATOMIC_RELAXED)(value, buf, len);               \
    }
#endif
