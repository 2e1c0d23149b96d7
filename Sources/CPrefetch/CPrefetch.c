// CPrefetch is header-only (include/CPrefetch.h); SwiftPM needs one source file in a C target.
#include "CPrefetch.h"
