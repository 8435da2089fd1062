// Counts one thread's heap allocations for `handoff-dev bench`. With glibc, the program's malloc
// family is defined here and forwards every call to glibc's own (`__libc_malloc` and kin, the
// replacement glibc documents in "Replacing malloc"), so the whole process, the Swift runtime
// included, allocates through these functions; each adds one comparison, and counts only while
// a thread has asked to. Not a product: only the bench links it. Elsewhere nothing is defined
// and the counter is unavailable.
#include "CHeapCounter.h"

#if defined(__GLIBC__)
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static bool counting;                  // read by every allocation, atomically
static pthread_t counted_thread;       // set before `counting`, cleared after
static uint64_t allocations;           // written only by the counted thread

static inline void count(void) {
    if (__atomic_load_n(&counting, __ATOMIC_ACQUIRE) && pthread_equal(pthread_self(), counted_thread)) allocations += 1;
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

// glibc's checks and results (malloc/malloc.c, __posix_memalign).
int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || alignment == 0 || ((alignment / sizeof(void *)) & (alignment / sizeof(void *) - 1)) != 0) {
        return EINVAL;
    }
    count();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}


int handoff_heap_counter_start(void) {
    if (__atomic_load_n(&counting, __ATOMIC_ACQUIRE)) return 0;
    allocations = 0;
    counted_thread = pthread_self();
    __atomic_store_n(&counting, true, __ATOMIC_RELEASE);
    return 1;
}

uint64_t handoff_heap_counter_stop(void) {
    if (__atomic_load_n(&counting, __ATOMIC_ACQUIRE) && pthread_equal(pthread_self(), counted_thread)) {
        __atomic_store_n(&counting, false, __ATOMIC_RELEASE);
    }
    return allocations;
}

#else

int handoff_heap_counter_start(void) { return 0; }
uint64_t handoff_heap_counter_stop(void) { return 0; }

#endif
