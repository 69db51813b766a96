// glibc calls that Swift's Glibc module does not import: `syncfs` is declared by
// <unistd.h> only under _GNU_SOURCE, and <malloc.h> is not part of the module.
// Wrapped as C functions so Swift calls them with the C calling convention.
#ifndef PHOTOFILER_SYSTEM_SHIMS_H
#define PHOTOFILER_SYSTEM_SHIMS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <malloc.h>
#include <unistd.h>

/// syncfs(2): flushes the whole file system that holds `fd`.
static inline int photofiler_syncfs(int fd) { return syncfs(fd); }

/// malloc_trim(3): gives free heap pages back to the kernel.
static inline int photofiler_malloc_trim(size_t pad) { return malloc_trim(pad); }

#endif
