#ifndef OFFGRID_FUZZ_DRIVER_H
#define OFFGRID_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's per-input callback (LLVMFuzzerTestOneInput's type).
typedef int (*offgrid_fuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (command line, corpus, mutations) on `callback`: the executable's main.
int offgrid_fuzz_run_driver(int argc, char **argv, offgrid_fuzz_callback callback);

#endif
