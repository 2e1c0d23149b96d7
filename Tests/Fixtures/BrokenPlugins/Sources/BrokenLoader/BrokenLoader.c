#include "BrokenLoader.h"

#include <stdlib.h>
#include <string.h>

static int ran = 0;

/// Runs as the dynamic linker loads the library, before any of its entry points.
__attribute__((constructor)) static void broken_loader_init(void) {
    const char *place = getenv("DEBUGSH_TEST_BROKEN");
    if (place != NULL && strcmp(place, "initializer") == 0) abort();
    ran = 1;
}

int broken_loader_ran(void) { return ran; }
