import FoundationEssentials
import Glibc

/// What reading a wall time needs of a time zone: its offset from UTC at an instant.
///
/// Not Foundation's `TimeZone`: without full Foundation and its ICU data (which the
/// helpers do not carry) it knows GMT only. The tests' named zones conform in the tests.
public protocol ZoneOffsets: Sendable {
    func secondsFromGMT(for date: Date) -> Int
}

/// The machine's zone as glibc reads it: `TZ`, else /etc/localtime (read once, at
/// the first call or `tzset()`, so it also answers under the helper's filter).
public struct LocalZone: ZoneOffsets {
    public init() {}

    public func secondsFromGMT(for date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}

/// Coordinated Universal Time: an offset of zero at every instant.
public struct UTCZone: ZoneOffsets {
    public init() {}

    public func secondsFromGMT(for date: Date) -> Int { 0 }
}

extension ZoneOffsets where Self == UTCZone {
    /// `timeZone: .gmt`, as with Foundation's `TimeZone`.
    public static var gmt: UTCZone { UTCZone() }
}
