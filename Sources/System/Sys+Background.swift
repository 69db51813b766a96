import CSystemShims

extension Sys {
    /// Lowers the calling thread to nice 19 and the idle I/O class: work on it runs
    /// only when nothing else wants the CPU or the disk. The thread keeps it.
    public static func moveCurrentThreadToBackground() throws(SystemError) {
        try check("ioprio_set", nil) { photofiler_thread_to_background(19) }
    }
}
