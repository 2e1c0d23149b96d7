#ifndef CREADLINE_SHIM_H
#define CREADLINE_SHIM_H
/* readline.h uses FILE but does not include stdio.h itself. */
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
#endif
