import CSeccomp
import Glibc

/// The seccomp filter a helper runs under: the system calls that reading a handed
/// descriptor, allocating, threads and the reply need, and nothing else. Every
/// other call fails with EPERM without running: no open (of any path), no socket,
/// no connect, no exec, no fork, no kill of another process, no ptrace.
///
/// The list was taken from `strace -f` of helpers reading the shared corpus, its
/// broken files and the examples (after the filter, the only refused calls are
/// glibc's lazy `rt_sigaction` for its set-uid signal, which it does without, and
/// `clone3`, refused on purpose); each entry says who needs it.
enum SyscallFilter {
    /// A system call allowed when its arguments pass `conditions` (all of them).
    struct Rule {
        var name: String
        var conditions: [scmp_arg_cmp] = []
    }

    static func rules(socket: CInt) -> [Rule] {
        let unconditional = [
            // Reading the handed file: FileBytes and libavformat's reader use pread;
            // exiv2 and libvips read the mapping.
            "read", "pread64", "readv", "lseek",
            // Closing the handed descriptor after the answer.
            "close",
            // Memory: malloc (brk, mmap, munmap, mremap, madvise), the file's mapping,
            // thread stacks and guard pages (mprotect, restricted below).
            "brk", "munmap", "mremap", "madvise",
            // Threads (libvips, GLib): locks, thread exit, glibc's per-thread set-up.
            "futex", "set_robust_list", "rseq", "sched_yield", "sched_getaffinity", "gettid", "getpid",
            "exit", "exit_group",
            // Signals the process sends itself: abort() (a C library's assert), the
            // signal mask glibc saves around thread creation.
            "rt_sigprocmask", "rt_sigreturn",
            // Clocks (mostly in the vDSO; these are the fallbacks) and short waits.
            "clock_gettime", "clock_getres", "gettimeofday", "clock_nanosleep", "nanosleep",
            // Swift's hashing seed and glibc's malloc randomisation.
            "getrandom",
            // DaemonWatch waits for the daemon's end of the socket to close (glibc's
            // poll is the poll call; ppoll for a libc that maps it there).
            "poll", "ppoll",
        ].map { Rule(name: $0) }
        let noExec = scmp_arg_cmp(arg: 2, op: SCMP_CMP_MASKED_EQ, datum_a: UInt64(PROT_EXEC), datum_b: 0)
        let conditional = [
            // Memory that is never executable: a hostile file cannot get code run from
            // its own bytes (no library may load or JIT after the lockdown).
            Rule(name: "mmap", conditions: [noExec]),
            Rule(name: "mprotect", conditions: [noExec]),
            // The one socket: requests in (with their descriptor), answers out.
            Rule(name: "recvmsg", conditions: [equal(0, socket)]),
            Rule(name: "sendmsg", conditions: [equal(0, socket)]),
            // Stderr only (a crash message, the libraries' own warnings; stdout is
            // closed), and a thumbnail's output file, whose number changes per request.
            // The handed file is read-only, and the socket is the socket (sendmsg):
            // the helper has nothing else to write to.
            Rule(name: "write"),
            Rule(name: "writev", conditions: [equal(0, 2)]),
            // libvips reads a thumbnail's file through its own dup, and asks its length
            // (fstat: glibc's is newfstatat on the descriptor with an empty path, never a path).
            Rule(name: "dup"),
            Rule(name: "fstat"),
            Rule(
                name: "newfstatat",
                conditions: [
                    scmp_arg_cmp(
                        arg: 3, op: SCMP_CMP_MASKED_EQ, datum_a: atEmptyPath, datum_b: atEmptyPath)
                ]),
            // New threads only (CLONE_THREAD), never a new process.
            Rule(
                name: "clone",
                conditions: [
                    scmp_arg_cmp(
                        arg: 0, op: SCMP_CMP_MASKED_EQ, datum_a: UInt64(CLONE_THREAD),
                        datum_b: UInt64(CLONE_THREAD))
                ]),
            // abort() signals its own thread.
            Rule(name: "tgkill", conditions: [equal(0, getpid())]),
            // Reading a limit (pthread_create asks for RLIMIT_STACK); never setting one.
            Rule(name: "prlimit64", conditions: [equal(0, 0), equal(2, 0)]),
        ]
        return unconditional + conditional + sanitizerRuntime
    }

    #if PHOTOFILER_SANITIZERS
        /// What the AddressSanitizer and UndefinedBehaviorSanitizer runtimes call in a
        /// helper built by `make sanitize` (never in a build that ships): found by
        /// `strace -f` of that build over the corpus, each refused call one entry.
        /// - `sigaltstack`: each new thread gets an alternate signal stack, so that a
        ///   stack overflow is reported instead of silently killing the thread (ASan
        ///   stops with a CHECK failure when it cannot set one).
        static let sanitizerRuntime = ["sigaltstack"].map { Rule(name: $0) }
    #else
        static let sanitizerRuntime: [Rule] = []
    #endif

    /// `AT_EMPTY_PATH` (linux/fcntl.h), which Glibc's module leaves out (it is _GNU_SOURCE).
    private static let atEmptyPath: UInt64 = 0x1000

    private static func equal(_ argument: UInt32, _ value: CInt) -> scmp_arg_cmp {
        scmp_arg_cmp(arg: argument, op: SCMP_CMP_EQ, datum_a: UInt64(UInt32(bitPattern: value)), datum_b: 0)
    }

    /// Loads the filter into every thread of this process (threads started later inherit it).
    static func load(socket: CInt) throws(LockdownError) {
        guard let filter = seccomp_init(photofiler_seccomp_fail_with(UInt16(EPERM))) else {
            throw LockdownError(step: "seccomp_init", code: ENOMEM)
        }
        defer { seccomp_release(filter) }
        // On every thread of the process, not only this one: libvips and GLib start
        // threads of their own at initialisation, before the lockdown.
        let synced = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1)
        guard synced == 0 else { throw LockdownError(step: "seccomp_attr_set TSYNC", code: -synced) }
        for rule in rules(socket: socket) {
            let number = seccomp_syscall_resolve_name(rule.name)
            guard number != __NR_SCMP_ERROR else {
                throw LockdownError(step: "unknown system call \(rule.name)", code: EINVAL)
            }
            let result = rule.conditions.withUnsafeBufferPointer {
                seccomp_rule_add_array(
                    filter, SCMP_ACT_ALLOW, number, UInt32($0.count), $0.count == 0 ? nil : $0.baseAddress)
            }
            guard result == 0 else {
                throw LockdownError(step: "seccomp_rule_add \(rule.name)", code: -result)
            }
        }
        // glibc starts threads with clone3 when the kernel has it, whose flags a filter
        // cannot see: "not implemented" makes it fall back to clone, checked above.
        let clone3 = seccomp_syscall_resolve_name("clone3")
        if clone3 != __NR_SCMP_ERROR {
            let result = seccomp_rule_add_array(
                filter, photofiler_seccomp_fail_with(UInt16(ENOSYS)), clone3, 0, nil)
            guard result == 0 else { throw LockdownError(step: "seccomp_rule_add clone3", code: -result) }
        }
        let loaded = seccomp_load(filter)
        guard loaded == 0 else { throw LockdownError(step: "seccomp_load", code: -loaded) }
    }
}

/// A step of the lockdown that failed; the helper then refuses to read anything.
struct LockdownError: Error, CustomStringConvertible {
    var step: String
    var code: CInt

    var description: String { "\(step) failed: \(String(cString: strerror(code)))" }
}
