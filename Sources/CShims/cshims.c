#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include "cshims.h"

int offgrid_rename_exchange(const char *a, const char *b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    (void)a; (void)b;
    errno = ENOSYS;
    return -1;
#endif
}

int offgrid_open_read_noatime(const char *path) {
#ifdef O_NOATIME
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOATIME);
    if (fd >= 0 || errno != EPERM) return fd;
#endif
    return open(path, O_RDONLY | O_CLOEXEC);
}

void offgrid_sincos(double x, double *s, double *c) {
#if defined(__GLIBC__)
    sincos(x, s, c);
#else
    *s = sin(x);
    *c = cos(x);
#endif
}

size_t offgrid_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
