// Glibc's Swift module does not offer posix_spawn_file_actions_addclosefrom_np.
#define _GNU_SOURCE
#include "CPOSIXSpawn.h"
#include <errno.h>

int handoff_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}
