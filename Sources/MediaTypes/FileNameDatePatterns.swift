import FoundationEssentials
import PhotoFilerSystem

/// The file-name conventions of chat apps, phones and screenshot tools that put
/// the capture date in the name (photofiler(1) "Capture date"), since chat apps strip EXIF.
///
/// Each pattern is anchored at the start of the name (so a photo called
/// `holiday 20231201.jpg` is not misread) and what follows the match is ignored
/// (`-WA0001`, a counter, the extension). Hand-written rather than `Regex`: it
/// runs for every filed file and needs only fixed-width digit fields.
package enum FileNameDatePatterns {
    package enum Piece {
        /// Literal text, ASCII letters compared case-insensitively.
        case text(String)
        case year, month, day, hour, minute, second
        /// 13 digits of Unix milliseconds (WeChat's `mmexport`, `wx_camera_`).
        case unixMilliseconds
    }

    private static let dateTime: [Piece] = [.year, .month, .day, .text("_"), .hour, .minute, .second]
    private static let compact: [Piece] = [.year, .month, .day, .hour, .minute, .second]
    private static let dashed: [Piece] = [
        .year, .text("-"), .month, .text("-"), .day, .text("-"), .hour, .text("-"), .minute, .text("-"),
        .second,
    ]

    package static let patterns: [[Piece]] = [
        [.text("mmexport"), .unixMilliseconds],
        [.text("wx_camera_"), .unixMilliseconds],
        [.text("microMsg."), .unixMilliseconds],
        // WhatsApp: date only.
        [.text("IMG-"), .year, .month, .day, .text("-WA")],
        [.text("VID-"), .year, .month, .day, .text("-WA")],
        // Android cameras, Pixel (`PXL_20231201_123456789`: milliseconds ignored), Samsung (no prefix).
        [.text("IMG_")] + dateTime,
        [.text("VID_")] + dateTime,
        [.text("PXL_")] + dateTime,
        [.text("MVIMG_")] + dateTime,
        [.text("PANO_")] + dateTime,
        dateTime,
        // Android screenshots.
        [.text("Screenshot_"), .year, .month, .day, .text("-"), .hour, .minute, .second],
        [.text("Screenshot_")] + dateTime,
        [.text("Screenshot_")] + dashed,
        // macOS: `Screenshot 2023-12-01 at 12.34.56`, before Mojave `Screen Shot …`.
        [
            .text("Screenshot "), .year, .text("-"), .month, .text("-"), .day, .text(" at "), .hour,
            .text("."),
            .minute, .text("."), .second,
        ],
        [
            .text("Screen Shot "), .year, .text("-"), .month, .text("-"), .day, .text(" at "), .hour,
            .text("."),
            .minute, .text("."), .second,
        ],
        // Chinese chat apps and screenshot tools.
        [.text("QQ图片")] + compact,
        [.text("微信图片_")] + compact,
        [
            .text("Snipaste_"), .year, .text("-"), .month, .text("-"), .day, .text("_"), .hour, .text("-"),
            .minute, .text("-"), .second,
        ],
        [
            .text("截屏"), .year, .text("-"), .month, .text("-"), .day, .text(" "), .hour, .text("."), .minute,
            .text("."), .second,
        ],
        [.text("屏幕截图 "), .year, .text("-"), .month, .text("-"), .day, .text(" "), .hour, .minute, .second],
    ]

    package static func match(_ name: BytePath, timeZone: any ZoneOffsets) -> CaptureDate? {
        // Ill-formed bytes become U+FFFD, which matches no pattern piece: safe.
        let scalars = Array(String(decoding: name.bytes, as: UTF8.self).unicodeScalars)
        for pattern in patterns {
            if let date = match(pattern, scalars, timeZone: timeZone) { return date }
        }
        return nil
    }

    private static func match(_ pattern: [Piece], _ scalars: [Unicode.Scalar], timeZone: any ZoneOffsets)
        -> CaptureDate?
    {
        var index = 0
        var fields = DateFields(year: 0, month: 1, day: 1)
        var milliseconds: Int64?

        func digits(_ count: Int) -> Int64? {
            guard scalars.count - index >= count else { return nil }
            var value: Int64 = 0
            for scalar in scalars[index..<(index + count)] {
                guard let digit = asciiDigit(scalar) else { return nil }
                value = value * 10 + Int64(digit)
            }
            index += count
            return value
        }

        for piece in pattern {
            switch piece {
            case .text(let literal):
                for expected in literal.unicodeScalars {
                    guard index < scalars.count, lowered(scalars[index]) == lowered(expected) else {
                        return nil
                    }
                    index += 1
                }
            case .year:
                guard let value = digits(4) else { return nil }
                fields.year = Int(value)
            case .month:
                guard let value = digits(2) else { return nil }
                fields.month = Int(value)
            case .day:
                guard let value = digits(2) else { return nil }
                fields.day = Int(value)
            case .hour:
                guard let value = digits(2) else { return nil }
                fields.hour = Int(value)
            case .minute:
                guard let value = digits(2) else { return nil }
                fields.minute = Int(value)
            case .second:
                guard let value = digits(2) else { return nil }
                fields.second = Int(value)
            case .unixMilliseconds:
                guard let value = digits(13) else { return nil }
                milliseconds = value
            }
        }
        // A longer digit run right after the match is some other number, not this date.
        if milliseconds != nil, index < scalars.count, asciiDigit(scalars[index]) != nil { return nil }

        if let milliseconds {
            return CaptureDate(
                secondsSinceEpoch: milliseconds / 1000, utcOffsetSeconds: nil, source: .fileName)
        }
        guard let seconds = fields.instant(utcOffset: nil, timeZone: timeZone) else { return nil }
        return CaptureDate(secondsSinceEpoch: seconds, utcOffsetSeconds: nil, source: .fileName)
    }

    private static func asciiDigit(_ scalar: Unicode.Scalar) -> Int? {
        (0x30...0x39).contains(scalar.value) ? Int(scalar.value - 0x30) : nil
    }

    private static func lowered(_ scalar: Unicode.Scalar) -> UInt32 {
        (0x41...0x5A).contains(scalar.value) ? scalar.value + 0x20 : scalar.value
    }
}
