// Glibc's Swift module does not offer accept4, which needs _GNU_SOURCE.
#define _GNU_SOURCE
#include "CPOSIXAccept.h"
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>

int handoff_accept_close_on_exec(int listener) {
#ifdef __linux__
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
#else
    (void)listener;
    errno = ENOSYS;
    return -1;
#endif
}
