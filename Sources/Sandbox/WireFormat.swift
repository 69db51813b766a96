/// The bytes of the helpers' messages: little-endian integers and length-prefixed
/// byte strings, nothing else. A reader never trusts a length: every read is
/// checked against what is left, so a helper taken over by a hostile file can send
/// nonsense but cannot make the daemon read past a message.
package struct WireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// A writer that holds `capacity` bytes before it grows: a request's size is
    /// known as it is made, so it is made with one allocation.
    package init(reservingCapacity capacity: Int) { bytes.reserveCapacity(capacity) }

    package mutating func byte(_ value: UInt8) { bytes.append(value) }

    package mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func bytes(_ value: [UInt8]) {
        integer(Int64(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func text(_ value: String) { bytes(Array(value.utf8)) }

    package mutating func optional(_ value: Int64?) {
        byte(value == nil ? 0 : 1)
        if let value { integer(value) }
    }
}

/// Reads what a `WireWriter` wrote; `WireError` when the bytes do not add up.
package struct WireReader {
    private let bytes: [UInt8]
    private var index = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { index == bytes.count }

    package mutating func byte() throws(WireError) -> UInt8 {
        guard index < bytes.count else { throw .short }
        defer { index += 1 }
        return bytes[index]
    }

    package mutating func integer() throws(WireError) -> Int64 {
        guard bytes.count - index >= 8 else { throw .short }
        var value: UInt64 = 0
        for offset in (0..<8).reversed() { value = value << 8 | UInt64(bytes[index + offset]) }
        index += 8
        return Int64(bitPattern: value)
    }

    /// A byte string of at most `limit` bytes.
    package mutating func bytes(limit: Int) throws(WireError) -> [UInt8] {
        let count = try integer()
        guard count >= 0, count <= limit, count <= Int64(bytes.count - index) else { throw .badLength }
        defer { index += Int(count) }
        return Array(bytes[index..<(index + Int(count))])
    }

    package mutating func text(limit: Int = 1024) throws(WireError) -> String {
        String(decoding: try bytes(limit: limit), as: UTF8.self)
    }

    package mutating func optional() throws(WireError) -> Int64? {
        switch try byte() {
        case 0: return nil
        case 1: return try integer()
        default: throw .badValue
        }
    }
}

/// Why a message could not be read.
package enum WireError: Error, Equatable {
    case short, badLength, badValue
}
