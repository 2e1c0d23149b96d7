// CDebugShellHints is header-only (include/CDebugShellHints.h); SwiftPM needs one source file in a
// C target.
#include "CDebugShellHints.h"
