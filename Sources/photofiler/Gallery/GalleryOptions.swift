import Dispatch
import Glibc
import PhotoFilerDaemon
import PhotoFilerServer

extension Arguments {
    /// `--listen ADDR:PORT`, by default 127.0.0.1:8765 (with [::1]:8765 beside it).
    mutating func listenAddress() throws(UsageError) -> ListenAddress {
        guard let text = try string("--listen") else { return .defaultGallery }
        do {
            return try ListenAddress(parsing: text)
        } catch {
            throw UsageError(error.description)
        }
    }
}

/// Ends the process on SIGTERM or SIGINT with `status` (blocked early in main).
@discardableResult
func exitOnTermination(status: Int32) -> SignalWatcher {
    SignalWatcher(queue: .main) { signal in
        if signal == .terminate { exit(status) }
    }
}

/// Writes a line to stdout at once (a script reading it should not wait for a buffer).
func printNow(_ text: String) {
    print(text)
    fflush(nil)  // nil: every stream (stdout is not concurrency-safe to name)
}
