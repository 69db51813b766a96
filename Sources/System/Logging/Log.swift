import Glibc
import Synchronization

/// The product's logger: leveled `photofiler: …` lines to one sink.
///
/// A class shared by every queue of the daemon; the mutex keeps lines whole
/// and in order. Messages are autoclosures so that a debug line costs nothing
/// unless `--verbose` asked for it.
public final class Logger: Sendable {
    public let minimumLevel: LogLevel
    public let format: LogFormat
    private let sink: Mutex<any LogSink>
    private let clock: @Sendable () -> timespec

    public init(
        minimumLevel: LogLevel = .info, format: LogFormat = .plain, sink: any LogSink = StandardErrorSink(),
        clock: @escaping @Sendable () -> timespec = Logger.now
    ) {
        self.minimumLevel = minimumLevel
        self.format = format
        self.sink = Mutex(sink)
        self.clock = clock
    }

    /// The logger of a command or the daemon: stderr, debug lines with
    /// `--verbose`. The daemon's lines carry timestamps unless journald (which adds
    /// its own) is the reader; a command's one-sentence errors carry none.
    public static func standardError(
        verbose: Bool, daemon: Bool = false, environment: [String: String] = ProcessEnvironment.current
    ) -> Logger {
        let format: LogFormat = daemon ? .forStandardError(environment: environment) : .plain
        return Logger(minimumLevel: verbose ? .debug : .info, format: format, sink: StandardErrorSink())
    }

    /// A logger that keeps its lines, without timestamps, for tests.
    public static func collecting(minimumLevel: LogLevel = .debug) -> (Logger, CollectingLogSink) {
        let sink = CollectingLogSink()
        return (Logger(minimumLevel: minimumLevel, format: .plain, sink: sink), sink)
    }

    public static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        let lines = format.lines(level: level, message: message(), time: clock())
        sink.withLock { sink in
            for line in lines { sink.write(line) }
        }
    }

    /// Several messages at once (a filed group's lines): one clock reading and one
    /// prefix a level, and the lines handed to the sink together, which writes them
    /// with as few `write(2)`s as keep each line whole.
    public func log(_ messages: [(level: LogLevel, message: String)]) {
        let enabled = messages.filter { isEnabled($0.level) }
        guard !enabled.isEmpty else { return }
        let time = clock()
        var prefixes: [LogLevel: String] = [:]
        let lines = enabled.map { entry in
            let prefix = prefixes[entry.level] ?? format.prefix(level: entry.level, time: time)
            prefixes[entry.level] = prefix
            return prefix + LogFormat.oneLine(entry.message)
        }
        sink.withLock { $0.write(lines: lines) }
    }

    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
