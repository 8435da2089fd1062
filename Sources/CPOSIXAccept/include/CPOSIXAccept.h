#ifndef CPOSIXACCEPT_H
#define CPOSIXACCEPT_H

/// Accepts one connection on `listener` as a descriptor that is close-on-exec and non-blocking
/// from the moment it exists (Linux `accept4`), so a process that another thread starts at the
/// same moment cannot inherit it. Returns -1 with `errno` set like `accept`; elsewhere than
/// Linux, -1 with `ENOSYS`.
int handoff_accept_close_on_exec(int listener);

#endif
