/// Parsers for the date texts metadata carries: EXIF's "2023:12:01 12:34:56",
/// XMP's and QuickTime's ISO 8601 "2019-12-26T15:42:24-0800", and UTC offsets.
package enum DateTimeText {
    /// A date and time, with the offset when the text has one inline.
    package static func parse(_ text: String) -> (fields: DateFields, offset: Int?)? {
        let trimmed = text.utf8.drop { isSpaceOrNul($0) }.reversed().drop { isSpaceOrNul($0) }.reversed()
        var scanner = ByteScanner(Array(trimmed))
        guard let year = scanner.number(digits: 4), scanner.skip(oneOf: ":-"),
            let month = scanner.number(digits: 2), scanner.skip(oneOf: ":-"),
            let day = scanner.number(digits: 2), scanner.skip(oneOf: " T"),
            let hour = scanner.number(digits: 2), scanner.skip(oneOf: ":"),
            let minute = scanner.number(digits: 2)
        else { return nil }
        var second = 0
        if scanner.skip(oneOf: ":") {
            guard let value = scanner.number(digits: 2) else { return nil }
            second = value
        }
        if scanner.skip(oneOf: ".,") {
            guard scanner.digitRun() > 0 else { return nil }
        }
        var offset: Int?
        if !scanner.isAtEnd {
            guard let value = parseOffset(Substring(decoding: scanner.rest, as: UTF8.self)) else {
                return nil
            }
            offset = value
        }
        let fields = DateFields(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return fields.isValid ? (fields, offset) : nil
    }

    /// "+08:00", "-0700", "+05", "Z" → seconds east of UTC; nil for anything else.
    package static func parseOffset(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8.filter { !isSpaceOrNul($0) })
        if bytes == [UInt8(ascii: "Z")] { return 0 }
        var scanner = ByteScanner(bytes)
        let sign: Int
        if scanner.skip(oneOf: "+") {
            sign = 1
        } else if scanner.skip(oneOf: "-") {
            sign = -1
        } else {
            return nil
        }
        guard let hours = scanner.number(digits: 2) else { return nil }
        var minutes = 0
        if !scanner.isAtEnd {
            _ = scanner.skip(oneOf: ":")
            guard let value = scanner.number(digits: 2), scanner.isAtEnd else { return nil }
            minutes = value
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func isSpaceOrNul(_ byte: UInt8) -> Bool {
        byte == 0 || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// A cursor over ASCII bytes for the small fixed-width formats above.
package struct ByteScanner {
    private let bytes: [UInt8]
    private var index = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { index == bytes.count }
    package var rest: ArraySlice<UInt8> { bytes[index...] }

    /// Exactly `digits` ASCII digits as a number; nothing consumed on failure.
    package mutating func number(digits: Int) -> Int? {
        guard bytes.count - index >= digits else { return nil }
        var value = 0
        for byte in bytes[index..<(index + digits)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += digits
        return value
    }

    /// Skips one byte when it is one of `characters` (ASCII).
    package mutating func skip(oneOf characters: StaticString) -> Bool {
        guard index < bytes.count else { return false }
        let set = UnsafeBufferPointer(start: characters.utf8Start, count: characters.utf8CodeUnitCount)
        guard set.contains(bytes[index]) else { return false }
        index += 1
        return true
    }

    /// Skips any run of digits; how many were skipped.
    package mutating func digitRun() -> Int {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index - start
    }
}
