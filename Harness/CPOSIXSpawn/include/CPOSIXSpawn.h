#ifndef CPOSIXSPAWN_H
#define CPOSIXSPAWN_H

#include <spawn.h>

/// Adds to `actions` the closing of every descriptor from `lowest` up (glibc 2.34's
/// `posix_spawn_file_actions_addclosefrom_np`), so the child inherits only the descriptors the
/// actions before it set up. Returns 0, or an error number like the other file actions;
/// elsewhere than glibc, `ENOSYS` (Darwin has the `POSIX_SPAWN_CLOEXEC_DEFAULT` flag instead).
int handoff_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
