#include <seccomp.h>
#include <signal.h>
#include <linux/sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>

// SCMP_ACT_ERRNO is a function-like macro Swift cannot import: the action that
// makes a refused system call fail with `code` instead of running it.
static inline uint32_t photofiler_seccomp_fail_with(uint16_t code) { return SCMP_ACT_ERRNO(code); }

// prctl is variadic, which Swift cannot call: the setting the helper needs.

/// PR_SET_NO_NEW_PRIVS: no exec can ever gain privileges (setuid bits, file
/// capabilities); required before an unprivileged process may load a seccomp filter.
static inline int photofiler_set_no_new_privileges(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

