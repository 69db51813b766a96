/// The auxiliary image types a HEIF declares (its `auxC` properties, e.g. a depth map's
/// `urn:mpeg:hevc:2015:auxid:2`), for the Portraits album.
///
/// exiv2 does not name them, and the light helper has no libheif: this walks the
/// boxes of the bytes already mapped to read the file's metadata (no second open),
/// `meta` → `iprp` → `ipco` → `auxC`, each box checked against its parent's end. A box
/// that does not add up ends the walk with what was found before it.
package enum HEIFAuxiliaryTypes {
    /// More properties than a HEIF of a phone has (a grid's tiles share theirs).
    static let mostBoxes = 4096
    /// A URN is a few dozen bytes; a longer one is no type photofiler knows.
    static let longestType = 128

    package static func read(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var found: [String] = []
        var budget = mostBoxes
        guard let meta = child("meta", of: 0..<bytes.count, in: bytes, budget: &budget),
            meta.count >= 4,
            let properties = child(
                "iprp", of: (meta.lowerBound + 4)..<meta.upperBound, in: bytes, budget: &budget),
            let container = child("ipco", of: properties, in: bytes, budget: &budget)
        else { return found }
        forEachBox(in: container, of: bytes, budget: &budget) { type, body in
            // A full box: version and flags, then the type as a NUL-terminated string.
            guard type == "auxC", body.count > 4 else { return }
            let text = bytes[(body.lowerBound + 4)..<body.upperBound].prefix { $0 != 0 }
            guard (1...longestType).contains(text.count), text.allSatisfy({ (0x21...0x7E).contains($0) })
            else {
                return
            }
            found.append(String(decoding: text, as: UTF8.self))
        }
        return found
    }

    /// The body of the first box of `type` directly in `range`.
    private static func child(
        _ type: String, of range: Range<Int>, in bytes: UnsafeRawBufferPointer, budget: inout Int
    ) -> Range<Int>? {
        var found: Range<Int>?
        forEachBox(in: range, of: bytes, budget: &budget) { boxType, body in
            if found == nil, boxType == type { found = body }
        }
        return found
    }

    /// Calls `body` with each box's type and body range in `range`, in order, until one
    /// does not fit or the budget is spent.
    private static func forEachBox(
        in range: Range<Int>, of bytes: UnsafeRawBufferPointer, budget: inout Int,
        _ body: (String, Range<Int>) -> Void
    ) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, budget > 0 {
            budget -= 1
            var size = Int(uint32(bytes, at: offset))
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { return }
                let large = uint64(bytes, at: offset + 8)
                guard large <= UInt64(range.upperBound - offset) else { return }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { return }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            body(type, (offset + header)..<(offset + size))
            offset += size
        }
    }

    private static func uint32(_ bytes: UnsafeRawBufferPointer, at index: Int) -> UInt32 {
        bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func uint64(_ bytes: UnsafeRawBufferPointer, at index: Int) -> UInt64 {
        bytes[index..<(index + 8)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
