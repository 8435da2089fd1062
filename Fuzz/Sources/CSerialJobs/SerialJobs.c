#include "CSerialJobs.h"
#include <stdint.h>
#include <stdlib.h>

// The Swift runtime's hook for jobs bound for the global executor and its job runner
// (swift/Runtime/Concurrency.h); both use the Swift calling convention.
typedef void (__attribute__((swiftcall)) *EnqueueOriginal)(void *job);
typedef void (__attribute__((swiftcall)) *EnqueueHook)(void *job, EnqueueOriginal original);
extern EnqueueHook swift_task_enqueueGlobal_hook;
typedef struct {
    const void *identity;
    uintptr_t implementation;
} SerialExecutorRef;
extern __attribute__((swiftcall)) void swift_job_run(void *job, SerialExecutorRef executor);

static __thread int capturing;
static __thread void **queue;
static __thread size_t head, count, capacity;

static void push(void *job) {
    if (count == capacity) {
        size_t grown = capacity ? capacity * 2 : 256;
        void **bigger = malloc(grown * sizeof(void *));
        if (!bigger) abort();
        for (size_t i = 0; i < count; i++) bigger[i] = queue[(head + i) % capacity];
        free(queue);
        queue = bigger;
        head = 0;
        capacity = grown;
    }
    queue[(head + count) % capacity] = job;
    count++;
}

static __attribute__((swiftcall)) void hook(void *job, EnqueueOriginal original) {
    if (capturing) {
        push(job);
    } else {
        original(job);
    }
}

void serial_jobs_begin(void) {
    swift_task_enqueueGlobal_hook = hook;
    capturing = 1;
}

void serial_jobs_end(void) { capturing = 0; }

size_t serial_jobs_pending(void) { return count; }

size_t serial_jobs_drain(size_t limit) {
    size_t ran = 0;
    while (count > 0 && ran < limit) {
        void *job = queue[head];
        head = (head + 1) % capacity;
        count--;
        // The generic executor: the job runs as the global executor would run it.
        SerialExecutorRef generic = {0, 0};
        swift_job_run(job, generic);
        ran++;
    }
    return ran;
}
