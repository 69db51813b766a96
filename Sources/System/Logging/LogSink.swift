import Glibc
import Synchronization

/// Where finished log lines go. Logic never prints: it logs to a sink, so that
/// tests can read what a command said and the daemon can send it to journald.
public protocol LogSink: Sendable {
    /// Writes one line (without its newline). Called with the logger's lock
    /// held, so lines never interleave.
    func write(_ line: String)
}

/// Standard error, one `write(2)` per line so that lines from two processes
/// sharing the stream (the daemon and a `save`) never mix mid-line.
public struct StandardErrorSink: LogSink {
    public init() {}

    public func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // Nowhere left to report a broken stderr.
            }
            done += written
        }
    }
}

/// Keeps every line, for tests.
public final class CollectingLogSink: LogSink {
    private let storage = Mutex<[String]>([])

    public init() {}

    public func write(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    /// The lines written so far, oldest first.
    public var lines: [String] { storage.withLock { $0 } }
}
