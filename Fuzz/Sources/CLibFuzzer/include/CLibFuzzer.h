#ifndef ACCOUNTHANDOFF_CLIBFUZZER_H
#define ACCOUNTHANDOFF_CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's documented entry for programs that keep their own main
/// (https://llvm.org/docs/LibFuzzer.html#using-libfuzzer-as-a-library).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

/// libFuzzer's own byte-level mutation (with its dictionary and comparison tables), for
/// custom mutators (https://llvm.org/docs/LibFuzzer.html#fuzzer-friendly-build-mode).
size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

#endif
