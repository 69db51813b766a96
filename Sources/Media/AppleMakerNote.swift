/// The tags of an iPhone picture's Apple MakerNote that photofiler reads (exiftool's
/// names): `ContentIdentifier`/`MediaGroupUUID` (0x0011), the key that pairs a still
/// with its Live Photo video; `BurstUUID` (0x000b), shared by the photos of one burst;
/// `ImageCaptureType` (0x0014, 2 for Portrait mode); `FrontFacingCamera` (0x0045, 1
/// for the front camera).
///
/// Debian's exiv2 0.27 does not decode Apple MakerNotes, and neither does libexif,
/// so this walks the raw `Exif.Photo.MakerNote` bytes exiv2 hands out: the one
/// hand-written reader of the project, kept small and bounded. The layout is
/// `Apple iOS\0`, a version (`00 01`), `MM`, then one big-endian TIFF IFD whose
/// value offsets count from the start of the MakerNote. Every read is checked
/// against the bytes' end; a MakerNote that does not add up says nothing, and a
/// tag of another type or size than Apple writes is no tag.
package enum AppleMakerNote {
    package static let signature: [UInt8] = Array("Apple iOS".utf8) + [0]
    /// Where the IFD's entry count sits: after the signature, version and byte order.
    static let directoryOffset = 14
    static let contentIdentifierTag: UInt16 = 0x0011
    static let burstTag: UInt16 = 0x000b
    static let imageCaptureTypeTag: UInt16 = 0x0014
    static let frontFacingCameraTag: UInt16 = 0x0045
    static let asciiType: UInt16 = 2
    static let signedLongType: UInt16 = 9
    /// More entries than any iPhone writes (about 40): a larger count is damage.
    static let mostEntries = 256
    /// A UUID is 36 characters and a NUL; anything far longer is not an identifier.
    static let longestIdentifier = 64

    /// What a MakerNote says; every field nil when it does not say it.
    package struct Tags: Sendable, Equatable {
        package var contentIdentifier: String?
        package var burstUUID: String?
        package var imageCaptureType: Int?
        package var frontFacingCamera: Int?

        package init(
            contentIdentifier: String? = nil, burstUUID: String? = nil, imageCaptureType: Int? = nil,
            frontFacingCamera: Int? = nil
        ) {
            self.contentIdentifier = contentIdentifier
            self.burstUUID = burstUUID
            self.imageCaptureType = imageCaptureType
            self.frontFacingCamera = frontFacingCamera
        }
    }

    /// The identifier, or nil when the bytes are no Apple MakerNote or carry none.
    package static func contentIdentifier(in note: [UInt8]) -> String? {
        tags(in: note).contentIdentifier
    }

    /// The tags above, from one walk of the IFD.
    package static func tags(in note: [UInt8]) -> Tags {
        var tags = Tags()
        guard note.count >= directoryOffset + 2, note.starts(with: signature),
            note[12] == UInt8(ascii: "M"), note[13] == UInt8(ascii: "M")
        else { return tags }
        let entries = Int(uint16(note, at: directoryOffset))
        guard entries <= mostEntries else { return tags }
        for index in 0..<entries {
            let entry = directoryOffset + 2 + 12 * index
            guard entry + 12 <= note.count else { return tags }
            switch uint16(note, at: entry) {
            case contentIdentifierTag: tags.contentIdentifier = text(note, entry: entry)
            case burstTag: tags.burstUUID = text(note, entry: entry)
            case imageCaptureTypeTag: tags.imageCaptureType = signedLong(note, entry: entry)
            case frontFacingCameraTag: tags.frontFacingCamera = signedLong(note, entry: entry)
            default: continue
            }
        }
        return tags
    }

    /// An ASCII entry's printable text; nil for another type, or a count out of bounds.
    private static func text(_ note: [UInt8], entry: Int) -> String? {
        guard uint16(note, at: entry + 2) == asciiType else { return nil }
        let count = Int(uint32(note, at: entry + 4))
        guard (1...longestIdentifier).contains(count) else { return nil }
        // A value of four bytes or fewer sits in the entry itself (TIFF's rule).
        let start = count <= 4 ? entry + 8 : Int(uint32(note, at: entry + 8))
        guard start <= note.count, count <= note.count - start else { return nil }
        return identifier(note[start..<(start + count)])
    }

    /// One signed 32-bit value, held in the entry itself; nil for another type or count.
    private static func signedLong(_ note: [UInt8], entry: Int) -> Int? {
        guard uint16(note, at: entry + 2) == signedLongType, uint32(note, at: entry + 4) == 1 else {
            return nil
        }
        return Int(Int32(bitPattern: uint32(note, at: entry + 8)))
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
