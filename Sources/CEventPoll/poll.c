// Glibc's Swift module does not offer epoll or eventfd, and epoll_event is packed on x86_64;
// these wrappers give the event loop plain integers instead.
#include "CEventPoll.h"
#include <errno.h>
#include <stddef.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

int handoff_poll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int handoff_poll_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token) {
    struct epoll_event event = {0};
    if (interest & HANDOFF_POLL_READABLE) event.events |= EPOLLIN;
    if (interest & HANDOFF_POLL_WRITABLE) event.events |= EPOLLOUT;
    event.data.u64 = token;
    int op = operation == 0 ? EPOLL_CTL_ADD : operation == 1 ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;
    return epoll_ctl(poller, op, descriptor, &event);
}

int handoff_poll_wait(int poller, handoff_poll_event *events, int capacity, int timeout_ms) {
    enum { batch = 128 };
    struct epoll_event ready[batch];
    int count = epoll_wait(poller, ready, capacity < batch ? capacity : batch, timeout_ms);
    for (int index = 0; index < count; index++) {
        uint32_t flags = 0;
        if (ready[index].events & EPOLLIN) flags |= HANDOFF_POLL_READABLE;
        if (ready[index].events & EPOLLOUT) flags |= HANDOFF_POLL_WRITABLE;
        if (ready[index].events & (EPOLLERR | EPOLLHUP)) flags |= HANDOFF_POLL_FAILED;
        events[index].token = ready[index].data.u64;
        events[index].flags = flags;
    }
    return count;
}

int handoff_wakeup_create(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int handoff_wakeup_signal(int wakeup) {
    uint64_t one = 1;
    ssize_t written = write(wakeup, &one, sizeof one);
    return written == sizeof one || errno == EAGAIN ? 0 : -1;
}

void handoff_wakeup_drain(int wakeup) {
    uint64_t count;
    while (read(wakeup, &count, sizeof count) == sizeof count) {}
}

#else

int handoff_poll_create(void) { errno = ENOSYS; return -1; }
int handoff_poll_control(int poller, int operation, int descriptor, uint32_t interest, uint64_t token) {
    (void)poller; (void)operation; (void)descriptor; (void)interest; (void)token;
    errno = ENOSYS;
    return -1;
}
int handoff_poll_wait(int poller, handoff_poll_event *events, int capacity, int timeout_ms) {
    (void)poller; (void)events; (void)capacity; (void)timeout_ms;
    errno = ENOSYS;
    return -1;
}
int handoff_wakeup_create(void) { errno = ENOSYS; return -1; }
int handoff_wakeup_signal(int wakeup) { (void)wakeup; errno = ENOSYS; return -1; }
void handoff_wakeup_drain(int wakeup) { (void)wakeup; }

#endif
