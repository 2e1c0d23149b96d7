#ifndef BROKEN_LOADER_H
#define BROKEN_LOADER_H

/// Whether the library's initializer ran (it aborts first when DEBUGSH_TEST_BROKEN=initializer).
int broken_loader_ran(void);

#endif
