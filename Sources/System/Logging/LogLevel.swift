/// How much a log line matters; `--verbose` shows `.debug` too.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case debug, info, warning, error

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The word after `photofiler:` (info lines carry none: they are the normal case).
    package var label: String? {
        switch self {
        case .debug: return "debug"
        case .info: return nil
        case .warning: return "warning"
        case .error: return "error"
        }
    }

    /// The syslog priority journald reads from a `<N>` line prefix, so that
    /// `journalctl -p warning` finds the daemon's warnings.
    package var syslogPriority: Int {
        switch self {
        case .debug: return 7
        case .info: return 6
        case .warning: return 4
        case .error: return 3
        }
    }
}
