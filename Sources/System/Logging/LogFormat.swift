import Glibc

/// How a log line looks: `photofiler: <message>`, with an ISO 8601 timestamp
/// in front when a person reads it in a terminal or a file, and without one
/// (but with a journald priority prefix) when journald is the reader, since it
/// stamps every line itself.
public struct LogFormat: Hashable, Sendable {
    public var timestamps: Bool
    /// Prefix `<N>` (syslog priority), which journald strips and records.
    public var journalPriorities: Bool

    public init(timestamps: Bool, journalPriorities: Bool) {
        self.timestamps = timestamps
        self.journalPriorities = journalPriorities
    }

    /// Plain `photofiler: …` lines, for tests and pipes that want no clock.
    public static let plain = LogFormat(timestamps: false, journalPriorities: false)

    /// The format for this process's stderr: journald's when stderr is the
    /// stream systemd connected (`JOURNAL_STREAM` names its device and inode,
    /// as systemd.exec(5) says to check), timestamps otherwise.
    public static func forStandardError(environment: [String: String] = ProcessEnvironment.current)
        -> LogFormat
    {
        if isatty(2) == 0, let stream = environment["JOURNAL_STREAM"], stderrMatches(stream) {
            return LogFormat(timestamps: false, journalPriorities: true)
        }
        return LogFormat(timestamps: true, journalPriorities: false)
    }

    private static func stderrMatches(_ stream: String) -> Bool {
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
            return false
        }
        guard let status = try? FileDescriptor(rawValue: 2).status() else { return false }
        return status.device == device && status.inode == inode
    }

    /// The line for one message: its prefix, then the message as one line (`oneLine`).
    public func lines(level: LogLevel, message: String, time: timespec) -> [String] {
        [prefix(level: level, time: time) + Self.oneLine(message)]
    }

    /// What comes before a message of `level` logged at `time` (the same for every
    /// message of a batch: `Logger.log(_:)` makes it once a level).
    public func prefix(level: LogLevel, time: timespec) -> String {
        var prefix = ""
        if journalPriorities { prefix += "<\(level.syslogPriority)>" }
        if timestamps { prefix += Self.timestamp(time) + " " }
        prefix += "photofiler: "
        if let label = level.label { prefix += label + ": " }
        return prefix
    }

    /// A message as exactly one line: control characters (a newline in a file name,
    /// say) are escaped, so no file name can split or forge a log line.
    package static func oneLine(_ message: String) -> String {
        // Fast path: control characters are C0 (< 0x20), DEL, or C1 (UTF-8 lead byte 0xC2).
        guard message.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return message }
        var result = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.properties.generalCategory == .control {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Local time with its offset and milliseconds: `2024-05-01T12:00:00.123+02:00`.
    package static func timestamp(_ time: timespec) -> String {
        var seconds = time_t(time.tv_sec)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let offset = Int(parts.tm_gmtoff)
        let sign = offset < 0 ? "-" : "+"
        let milliseconds = Int(time.tv_nsec) / 1_000_000
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))"
            + "T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
            + "." + pad(milliseconds, width: 3)
            + sign + pad(abs(offset) / 3600) + ":" + pad(abs(offset) % 3600 / 60)
    }

    private static func pad<T: BinaryInteger>(_ value: T, width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
