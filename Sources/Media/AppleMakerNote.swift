/// The content identifier in an iPhone still's Apple MakerNote (tag 0x0011,
/// exiftool's `ContentIdentifier`/`MediaGroupUUID`): the key that pairs the still
/// with its Live Photo video.
///
/// Debian's exiv2 0.27 does not decode Apple MakerNotes, and neither does libexif,
/// so this walks the raw `Exif.Photo.MakerNote` bytes exiv2 hands out: the one
/// hand-written reader of the project, kept small and bounded. The layout is
/// `Apple iOS\0`, a version (`00 01`), `MM`, then one big-endian TIFF IFD whose
/// value offsets count from the start of the MakerNote. Every read is checked
/// against the bytes' end; a MakerNote that does not add up has no identifier.
package enum AppleMakerNote {
    package static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
    /// Where the IFD's entry count sits: after the signature, version and byte order.
    static let directoryOffset = 14
    static let contentIdentifierTag: UInt16 = 0x0011
    static let asciiType: UInt16 = 2
    /// More entries than any iPhone writes (about 40): a larger count is damage.
    static let mostEntries = 256
    /// A UUID is 36 characters and a NUL; anything far longer is not an identifier.
    static let longestIdentifier = 64

    /// The identifier, or nil when the bytes are no Apple MakerNote or carry none.
    package static func contentIdentifier(in note: [UInt8]) -> String? {
        guard note.count >= directoryOffset + 2, note.starts(with: signature),
            note[12] == UInt8(ascii: "M"), note[13] == UInt8(ascii: "M")
        else { return nil }
        let entries = Int(uint16(note, at: directoryOffset))
        guard entries <= mostEntries else { return nil }
        for index in 0..<entries {
            let entry = directoryOffset + 2 + 12 * index
            guard entry + 12 <= note.count else { return nil }
            guard uint16(note, at: entry) == contentIdentifierTag else { continue }
            guard uint16(note, at: entry + 2) == asciiType else { return nil }
            let count = Int(uint32(note, at: entry + 4))
            guard (1...longestIdentifier).contains(count) else { return nil }
            // A value of four bytes or fewer sits in the entry itself (TIFF's rule).
            let start = count <= 4 ? entry + 8 : Int(uint32(note, at: entry + 8))
            guard start <= note.count, count <= note.count - start else { return nil }
            return identifier(note[start..<(start + count)])
        }
        return nil
    }

    /// Printable ASCII up to the first NUL; nil when empty or anything else.
    private static func identifier(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = bytes.prefix { $0 != 0 }
        guard !text.isEmpty, text.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    private static func uint16(_ bytes: [UInt8], at index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    private static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
