#ifndef CPOSIXSPAWN_H
#define CPOSIXSPAWN_H

#include <spawn.h>
#include <sys/types.h>

/// Adds to `actions` the closing of every descriptor from `lowest` up (glibc 2.34's
/// `posix_spawn_file_actions_addclosefrom_np`), so the child inherits only the descriptors the
/// actions before it set up. Returns 0, or an error number like the other file actions;
/// elsewhere than glibc, `ENOSYS` (Darwin has the `POSIX_SPAWN_CLOEXEC_DEFAULT` flag instead).
int handoff_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Starts `path` (Linux only) in a child that the kernel sends `death_signal` when the thread
/// that called this ends (`PR_SET_PDEATHSIG`), so a server of the test harness ends with the
/// test process however it ends, `SIGKILL` included. The child has every signal unblocked and
/// at its default disposition, `input`, `output` and `errors` as its standard streams
/// (`errors` -1: the same as `output`), no other descriptor of this process, and `directory`
/// (when not NULL) as its working directory. Call it from a thread that lives as long as the
/// process. Returns 0 and sets `*pid`, or the error number of the step that failed (`fork`,
/// or in the child `dup2`, `chdir` or `execve`); the failed child is reaped.
int handoff_spawn_tied(const char *path, char *const argv[], char *const envp[], int input, int output, int errors,
                       const char *directory, int death_signal, pid_t *pid);

#endif
