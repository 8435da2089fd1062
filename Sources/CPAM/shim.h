// Linux-PAM's application interface (Debian: libpam0g-dev). Only Linux builds depend on this
// module; Apple platforms authenticate with LocalAuthentication instead.
#include <security/pam_appl.h>
