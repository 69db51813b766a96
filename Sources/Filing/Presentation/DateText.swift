import Foundation
import PhotoFilerMediaTypes

/// Dates as photofiler(1) JSON shows them.
public enum DateText {
    /// ISO 8601 with the offset: the content's own, else the machine's zone.
    public static func iso8601(_ date: CaptureDate) -> String {
        let instant = Date(timeIntervalSince1970: Double(date.secondsSinceEpoch))
        let offset = date.utcOffsetSeconds ?? TimeZone.current.secondsFromGMT(for: instant)
        return format(instant, offset: offset)
    }

    public static func iso8601UTC(_ seconds: Double) -> String {
        format(Date(timeIntervalSince1970: seconds.rounded(.down)), offset: nil)
    }

    private static func format(_ instant: Date, offset: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset ?? 0) ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
            c.minute ?? 0,
            c.second ?? 0)
        guard let offset else { return base + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return base + String(format: "%@%02d:%02d", sign, magnitude / 3600, (magnitude % 3600) / 60)
    }
}
