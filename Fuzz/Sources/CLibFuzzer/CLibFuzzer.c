// Header-only module; SwiftPM needs one C source file per C target.
#include "CLibFuzzer.h"
