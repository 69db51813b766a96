import Glibc

/// Temporary: replaced by the daemon branch's Logger at merge.
public final class Logger: Sendable {
    public init() {}
    public func debug(_ message: @autoclosure () -> String) {}
    public func info(_ message: @autoclosure () -> String) { emit(message()) }
    public func warning(_ message: @autoclosure () -> String) { emit(message()) }
    public func error(_ message: @autoclosure () -> String) { emit(message()) }
    private func emit(_ text: String) {
        let line = "photofiler: \(text)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
