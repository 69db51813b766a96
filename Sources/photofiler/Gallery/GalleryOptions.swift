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

extension Arguments {
    /// `serve`'s limits on what clients may hold (photofiler(1) gives the defaults and why).
    mutating func galleryLimits() throws(UsageError) -> HTTPLimits {
        var limits = HTTPLimits()
        if let value = try integer("--connections", in: 2...100_000) { limits.connections = UInt32(value) }
        if let value = try integer("--connections-per-address", in: 1...100_000) {
            limits.connectionsPerAddress = UInt32(value)
        }
        if let value = try integer("--head-timeout", in: 1...3600) { limits.headSeconds = UInt32(value) }
        if let value = try integer("--streams-per-address", in: 1...100_000) {
            limits.eventStreamsPerAddress = UInt32(value)
        }
        if let value = try integer("--streams-per-share", in: 1...100_000) {
            limits.eventStreamsPerShare = UInt32(value)
        }
        return limits
    }
}

/// Ends the process on SIGTERM or SIGINT with `status` (blocked early in main), after `cleanUp`.
@discardableResult
func exitOnTermination(status: Int32, cleanUp: @escaping @Sendable () -> Void = {}) -> SignalWatcher {
    SignalWatcher(queue: .main) { signal in
        guard signal == .terminate else { return }
        cleanUp()
        exit(status)
    }
}

/// Writes a line to stdout at once (a script reading it should not wait for a buffer).
func printNow(_ text: String) {
    print(text)
    fflush(nil)  // nil: every stream (stdout is not concurrency-safe to name)
}
