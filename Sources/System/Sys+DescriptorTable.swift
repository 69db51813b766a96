import Glibc

extension Sys {
    /// Makes this process's descriptor table large enough for `count` descriptors,
    /// while the process has only one thread.
    ///
    /// The kernel grows the table as descriptors are opened, by doubling, and in a
    /// process whose table more than one thread shares, each growth waits for an RCU
    /// grace period (`expand_fdtable`, `synchronize_rcu`). `perf sched timehist` put
    /// those waits at 10–60 ms each in the daemon's first burst, in the middle of
    /// opening a group's files and of starting a helper. Grown now, by asking for
    /// one descriptor numbered `count - 1` and closing it again, the table costs no
    /// wait, and it never shrinks. A failure (no stderr to duplicate, a lower
    /// `ulimit -n`) changes nothing: the table grows later as it always did.
    public static func reserveDescriptorTable(_ count: Int) {
        let highest = min(count, openFileLimit() ?? count) - 1
        guard highest > 2 else { return }
        let probe = fcntl(2, F_DUPFD_CLOEXEC, CInt(clamping: highest))
        if probe >= 0 { Glibc.close(probe) }
    }
}
