// Glibc's Swift module does not offer posix_spawn_file_actions_addclosefrom_np.
#define _GNU_SOURCE
#include "CPOSIXSpawn.h"
#include <errno.h>
#if defined(__linux__)
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

int handoff_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}

#if defined(__linux__)
/// In the child: reports `code` on `report` and exits. Only async-signal-safe calls from fork to exec.
static void fail(int report, int code) {
    while (write(report, &code, sizeof code) < 0 && errno == EINTR) {}
    _exit(127);
}

int handoff_spawn_tied(const char *path, char *const argv[], char *const envp[], int input, int output, int errors,
                       const char *directory, int death_signal, pid_t *pid) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    struct rlimit limit;
    int highest = (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536) ? (int)limit.rlim_cur : 65536;
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) {
        int code = errno;
        close(report[0]);
        close(report[1]);
        return code;
    }
    if (child == 0) {
        sigset_t none;
        sigemptyset(&none);
        struct sigaction defaults = {0};
        defaults.sa_handler = SIG_DFL;
        for (int number = 1; number < NSIG; number++) {
            if (number != SIGKILL && number != SIGSTOP) sigaction(number, &defaults, NULL);
        }
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (prctl(PR_SET_PDEATHSIG, death_signal) != 0) fail(report[1], errno);
        // The parent may have ended before the line above: then nobody would send the signal.
        if (getppid() != parent) _exit(127);
        // Copies above the standard three first, so that a source that is itself 0, 1 or 2 is
        // not overwritten before it is used.
        int in = fcntl(input, F_DUPFD, 3), out = fcntl(output, F_DUPFD, 3);
        int err = errors >= 0 ? fcntl(errors, F_DUPFD, 3) : out;
        if (in < 0 || out < 0 || err < 0) fail(report[1], errno);
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) fail(report[1], errno);
        // Everything else closes at exec; the report pipe stays usable until then.
        if (syscall(SYS_close_range, 3, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */) != 0) {
            for (int descriptor = 3; descriptor < highest; descriptor++) fcntl(descriptor, F_SETFD, FD_CLOEXEC);
        }
        if (directory != NULL && chdir(directory) != 0) fail(report[1], errno);
        execve(path, argv, envp);
        fail(report[1], errno);
    }
    close(report[1]);
    int code = 0;
    ssize_t got;
    while ((got = read(report[0], &code, sizeof code)) < 0 && errno == EINTR) {}
    close(report[0]);
    if (got == (ssize_t)sizeof code) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        return code;
    }
    *pid = child;
    return 0;
}
#else
int handoff_spawn_tied(const char *path, char *const argv[], char *const envp[], int input, int output, int errors,
                       const char *directory, int death_signal, pid_t *pid) {
    (void)path; (void)argv; (void)envp; (void)input; (void)output; (void)errors; (void)directory; (void)death_signal; (void)pid;
    return ENOSYS;
}
#endif
