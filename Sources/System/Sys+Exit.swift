import Glibc

extension Sys {
    /// Ends the process now with `status`, after flushing stdio, without running
    /// atexit handlers or the libraries' static destructors. A daemon that stops has
    /// made everything durable already, but other threads of its own (a thumbnail
    /// worker starting up, a dispatch queue's cancel handlers) may still run, and
    /// `exit` would tear down Foundation's, GLib's and SQLite's globals under them:
    /// a stop right after READY aborted once with "corrupted size vs. prev_size".
    public static func exitNow(_ status: CInt) -> Never {
        #if DEBUG
            FaultInjection.reportCount()
        #endif
        fflush(nil)
        _exit(status)
    }
}
