// Linux-PAM's application interface (Debian: libpam0g-dev). Only Linux builds depend on this
// module; Apple platforms authenticate with LocalAuthentication instead.
#include <security/pam_appl.h>
// glibc's shadow password database, which pam_unix checks: read (by root only) to tell a
// person before the gate asks that their account has no usable login password.
#include <shadow.h>
