#ifndef CHEAPCOUNTER_H
#define CHEAPCOUNTER_H

#include <stdint.h>

/// Starts counting the heap allocations of the calling thread: calls to malloc, calloc,
/// realloc, memalign, posix_memalign and aligned_alloc. One thread counts at a time; 0 when the
/// counter is not available or another thread is counting.
int handoff_heap_counter_start(void);

/// Stops counting (on the thread that started) and returns the allocations counted.
uint64_t handoff_heap_counter_stop(void);

#endif
