import Glibc
import Synchronization

/// Where finished log lines go. Logic never prints: it logs to a sink, so that
/// tests can read what a command said and the daemon can send it to journald.
public protocol LogSink: Sendable {
    /// Writes one line (without its newline). Called with the logger's lock
    /// held, so lines never interleave.
    func write(_ line: String)
    /// Writes several lines in order, as `write(_:)` would one by one.
    func write(lines: [String])
}

extension LogSink {
    public func write(lines: [String]) {
        for line in lines { write(line) }
    }
}

/// Standard error, whole lines per `write(2)` so that lines from two processes
/// sharing the stream (the daemon and a `save`) never mix mid-line: one line, or
/// several that fit in `PIPE_BUF` bytes (a pipe writes that much atomically).
public struct StandardErrorSink: LogSink {
    public init() {}

    public func write(_ line: String) {
        write(lines: [line])
    }

    public func write(lines: [String]) {
        var bytes: [UInt8] = []
        for line in lines {
            let size = line.utf8.count + 1
            if !bytes.isEmpty, bytes.count + size > Int(PIPE_BUF) {
                Self.writeAll(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            bytes += line.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        if !bytes.isEmpty { Self.writeAll(bytes) }
    }

    private static func writeAll(_ bytes: [UInt8]) {
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
