import PhotoFilerMediaTypes

/// A desktop cache PNG of one size, encoded once without text; `with` gives each
/// path's entry: that PNG with the path's `tEXt` chunks (`Thumb::URI`, `Thumb::MTime`,
/// …) put right after its header.
///
/// An asset is shown at two paths or more (its roll file, each album entry), and the
/// entries of one size differ only in their text: libvips can set text only by
/// encoding the whole picture again (a PNG is some 5 ms of zlib at 256 px), while
/// these chunks are a few hundred bytes and a CRC.
struct PNGWithoutText {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The signature and the IHDR chunk (length, type, 13 bytes, CRC), which comes first.
    private static let headerLength = 8 + 4 + 4 + 13 + 4

    let png: [UInt8]

    /// Nil when `png` does not begin as a PNG does (a signature, then IHDR).
    init?(_ png: [UInt8]) {
        guard png.count > Self.headerLength, png.starts(with: Self.signature),
            png[12..<16].elementsEqual("IHDR".utf8), png[8..<12].elementsEqual([0, 0, 0, 13])
        else { return nil }
        self.png = png
    }

    /// The PNG with `text` inserted after its IHDR chunk. Keys and values go as their
    /// UTF-8 bytes: a file URI is ASCII.
    func with(_ text: [PNGText]) -> [UInt8] {
        let headerLength = Self.headerLength
        var out: [UInt8] = []
        out.reserveCapacity(png.count + text.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 13 })
        out += png[..<headerLength]
        for entry in text {
            let data = Array(entry.key.utf8) + [0] + Array(entry.value.utf8)
            let length = UInt32(data.count)
            out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) }
            let typed = Array("tEXt".utf8) + data
            out += typed
            let crc = CRC32.checksum(typed)
            out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        }
        out += png[headerLength...]
        return out
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, the polynomial 0xEDB88320 reflected).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
