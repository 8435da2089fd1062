#ifndef CEVENTPOLL_H
#define CEVENTPOLL_H

#include <stdint.h>

/// Readiness flags of one event, in both directions (the transport's event loop, Linux epoll).
#define HANDOFF_POLL_READABLE 1u
#define HANDOFF_POLL_WRITABLE 2u
/// An error or hang-up: the next read or write reports it.
#define HANDOFF_POLL_FAILED 4u

/// One ready descriptor: the token it was registered with and its `HANDOFF_POLL_*` flags.
typedef struct {
    uint64_t token;
    uint32_t flags;
} handoff_poll_event;

/// A new epoll instance, close-on-exec; -1 with `errno` set on failure (ENOSYS off Linux).
int handoff_poll_create(void);

/// Adds (`operation` 0), changes (1) or removes (2) `descriptor` in `poller`, level-triggered,
/// watching the `HANDOFF_POLL_READABLE` / `HANDOFF_POLL_WRITABLE` bits of `interest`.
/// 0 or -1 with `errno` set.
int handoff_poll_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token);

/// Waits up to `timeout_ms` (-1: no limit) for events; the count written to `events`
/// (at most `capacity`), 0 on timeout, -1 with `errno` set (EINTR included).
int handoff_poll_wait(int poller, handoff_poll_event *events, int capacity, int timeout_ms);

/// A non-blocking, close-on-exec eventfd that wakes the loop; -1 with `errno` set.
int handoff_wakeup_create(void);

/// Makes `wakeup` readable (adds 1 to its counter); 0 or -1.
int handoff_wakeup_signal(int wakeup);

/// Resets `wakeup` to not readable.
void handoff_wakeup_drain(int wakeup);

#endif
