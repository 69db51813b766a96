// glibc calls that Swift's Glibc module does not import: `syncfs`, `F_SETLEASE` and
// `O_NOATIME` are declared (by <unistd.h>, <fcntl.h>) only under _GNU_SOURCE, and <malloc.h>, <sys/vfs.h>
// <sys/eventfd.h> and <sys/auxv.h> are not part of the module.
// Wrapped as C functions so Swift calls them with the C calling convention.
#ifndef PHOTOFILER_SYSTEM_SHIMS_H
#define PHOTOFILER_SYSTEM_SHIMS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/vfs.h>

/// syncfs(2): flushes the whole file system that holds `fd`.
static inline int photofiler_syncfs(int fd) { return syncfs(fd); }

/// statx(2) for the mount that holds `fd`'s file (STATX_MNT_ID, Linux 5.8): two paths
/// on one file system may sit on two mounts (a bind mount), and link(2) between them
/// fails with EXDEV although their st_dev is the same. `statx` and its mask are
/// declared only under _GNU_SOURCE. Returns 0 and sets `*mount`, or -1 with errno set
/// (ENOSYS when the kernel does not give the mount).
static inline int photofiler_mount_id(int fd, unsigned long long *mount) {
    struct statx status;
    if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &status) != 0) return -1;
    if (!(status.stx_mask & STATX_MNT_ID)) {
        errno = ENOSYS;
        return -1;
    }
    *mount = status.stx_mnt_id;
    return 0;
}

/// fcntl(2) F_SETLEASE: `F_SETLEASE` is defined by <fcntl.h> only under _GNU_SOURCE,
/// and fcntl is variadic. `type` is F_RDLCK (0) or F_UNLCK (2). Returns 0, or -1
/// with errno set (EAGAIN: the file is open for writing).
static inline int photofiler_set_lease(int fd, int type) { return fcntl(fd, F_SETLEASE, type); }

/// open(2)'s O_NOATIME, defined by <fcntl.h> only under _GNU_SOURCE.
static inline int photofiler_open_no_access_time(void) { return O_NOATIME; }

/// malloc_trim(3): gives free heap pages back to the kernel.
static inline int photofiler_malloc_trim(size_t pad) { return malloc_trim(pad); }

/// mallopt(3) M_ARENA_MAX: at most `count` malloc arenas (a macro-named option).
static inline int photofiler_limit_malloc_arenas(int count) { return mallopt(M_ARENA_MAX, count); }

/// mallopt(3) M_MMAP_THRESHOLD: every allocation of `bytes` or more is a mapping of
/// its own, unmapped when freed; setting it also stops glibc raising it on its own.
static inline int photofiler_fix_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

/// mallopt(3) M_TRIM_THRESHOLD: free memory at the top of the heap is given back
/// only beyond `bytes`.
static inline int photofiler_fix_malloc_trim_threshold(int bytes) { return mallopt(M_TRIM_THRESHOLD, bytes); }

/// Moves the calling thread, and only it (Linux schedules threads one by one),
/// to nice `nice` and the idle I/O class (ioprio_set(2): IOPRIO_WHO_PROCESS = 1
/// with a thread id; IOPRIO_CLASS_IDLE = 3 in the top bits), for background work
/// that must never slow what a user waits for. `syscall` is variadic, hence here.
/// Returns 0, or -1 with errno set.
static inline int photofiler_thread_to_background(int nice) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    // setpriority(2) as a raw call: <sys/resource.h> clashes with the Glibc module's
    // own view of it. 0 is PRIO_PROCESS, which on Linux names one thread.
    if (syscall(SYS_setpriority, 0, thread, nice) != 0) return -1;
    return (int)syscall(SYS_ioprio_set, 1, thread, 3 << 13);
}

/// fstatfs(2)'s `f_type`: <sys/vfs.h> is not part of the Glibc module. Returns the
/// file system's magic number, or -1 with errno set.
static inline long photofiler_file_system_type(int fd) {
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return -1;
    return (long)info.f_type;
}

/// eventfd(2), close-on-exec: a counter another thread is woken through (it polls as
/// readable once written). Returns the descriptor, or -1 with errno set.
static inline int photofiler_wakeup_descriptor(void) { return eventfd(0, EFD_CLOEXEC); }

/// Whether this process runs in secure-execution mode (AT_SECURE: set-user-ID,
/// set-group-ID or file capabilities), where glibc does not honour GLIBC_TUNABLES.
static inline int photofiler_secure_execution(void) { return getauxval(AT_SECURE) != 0; }

#endif
