#ifndef ACCOUNTHANDOFF_CSERIALJOBS_H
#define ACCOUNTHANDOFF_CSERIALJOBS_H
#include <stddef.h>

/// Runs Swift concurrency's global jobs on the calling thread, one at a time, in the order
/// they were enqueued: a fuzz input that drives actors and tasks then runs the same way every
/// time. While a thread captures, every job it enqueues on the global executor (new tasks,
/// resumed continuations, actors that became runnable) waits in a queue until
/// serial_jobs_drain runs it there; jobs of other threads go to the normal executor.

/// Installs the hook (once per process) and starts capturing on this thread.
void serial_jobs_begin(void);
/// Stops capturing on this thread; queued jobs stay queued.
void serial_jobs_end(void);
/// Runs queued jobs in order (including those they enqueue) until none is left or `limit`
/// ran; returns how many ran.
size_t serial_jobs_drain(size_t limit);
/// How many jobs wait.
size_t serial_jobs_pending(void);

#endif
