#include "fuzz_driver.h"

// In libclang_rt.fuzzer, which -sanitize=fuzzer links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int offgrid_fuzz_run_driver(int argc, char **argv, offgrid_fuzz_callback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
