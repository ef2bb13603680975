// libFuzzer's entry for programs with their own main (compiler-rt's FuzzerInterface.h).
// Resolved only when linked with -sanitize=fuzzer; nothing calls it otherwise.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
