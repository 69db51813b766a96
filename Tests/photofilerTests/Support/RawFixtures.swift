import Foundation

/// Tiny synthetic camera RAW files, made here byte by byte: no real camera file
/// of these formats is in the corpus (it has one DNG), and a real one is megabytes.
/// Each carries what identifies its format to libmagic or exiv2 (the header magic,
/// the maker tags) and an EXIF capture date and pixel size, laid out as the
/// formats' public descriptions say (TIFF 6.0 IFDs; Canon CIFF heaps; Fujifilm RAF
/// header offsets); the image data is a few placeholder bytes. Written for
/// photofiler's tests; not copied from any file.
enum RawFixtures {
    static let date = "2021:03:04 05:06:07"
    static let width: UInt32 = 64
    static let height: UInt32 = 48

    /// One file per format: its name, bytes and the MIME type photofiler should record.
    static let all: [(name: String, bytes: [UInt8], mimeType: String)] = [
        ("IMG_0001.CR2", cr2, "image/x-canon-cr2"),
        (
            "DSC_0001.NEF", tiffRaw(make: "NIKON CORPORATION", model: "NIKON D750", compression: 34713),
            "image/x-nikon-nef"
        ),
        ("DSC00001.ARW", tiffRaw(make: "SONY", model: "ILCE-7M3", compression: 32767), "image/x-sony-arw"),
        (
            "IMGP0001.PEF", tiffRaw(make: "PENTAX", model: "PENTAX K-1", compression: 65535),
            "image/x-pentax-pef"
        ),
        (
            "P0000001.ORF",
            tiffRaw(prefix: Array("IIRO".utf8) + le32(8), make: "OLYMPUS IMAGING CORP.", model: "E-M5"),
            "image/x-olympus-orf"
        ),
        ("P1000001.RW2", rw2, "image/x-panasonic-rw2"),
        ("DSCF0001.RAF", raf, "image/x-fuji-raf"),
        ("CRW_0001.CRW", crw, "image/x-canon-crw"),
    ]

    /// CR3: ISO-BMFF with Canon's `crx ` brand. exiv2 0.27 cannot read its metadata.
    static let cr3: [UInt8] = {
        let ftyp = Array("ftyp".utf8) + Array("crx ".utf8) + be32(1) + Array("crx isom".utf8)
        return be32(UInt32(ftyp.count + 4)) + ftyp + be32(8) + Array("moov".utf8)
    }()

    // MARK: TIFF-based (CR2, NEF, ARW, PEF, ORF, RW2)

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }

    /// One IFD entry: tag, TIFF type (2 ASCII, 3 SHORT, 4 LONG), count, value bytes.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
        }
        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            Entry(tag: tag, type: 4, count: 1, value: le32(value))
        }
        static func short(_ tag: UInt16, _ value: UInt16) -> Entry {
            Entry(tag: tag, type: 3, count: 1, value: le16(value))
        }
    }

    /// A little-endian IFD placed at `offset`, its long values right after it.
    static func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        let dataOffset = offset + 2 + 12 * sorted.count + 4
        var head = le16(UInt16(sorted.count))
        var data: [UInt8] = []
        for entry in sorted {
            head += le16(entry.tag) + le16(entry.type) + le32(entry.count)
            if entry.value.count <= 4 {
                head += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                head += le32(UInt32(dataOffset + data.count))
                data += entry.value
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return head + le32(0) + data
    }

    /// The Exif IFD: capture date and pixel size.
    static func exifIFD(at offset: Int) -> [UInt8] {
        ifd([.ascii(36867, date), .long(40962, width), .long(40963, height)], at: offset)
    }

    /// Header `prefix` (its IFD0 offset inside it), IFD0 with the maker's tags, the
    /// Exif IFD, 16 bytes of placeholder image data.
    static func tiffRaw(
        prefix: [UInt8] = Array("II*\0".utf8) + le32(8), make: String, model: String, compression: UInt16 = 1,
        extra: [Entry] = []
    ) -> [UInt8] {
        let ifd0At = prefix.count
        func ifd0(exifAt: Int, stripAt: Int) -> [UInt8] {
            ifd(
                [
                    .long(256, width), .long(257, height), .short(259, compression), .ascii(271, make),
                    .ascii(272, model), .long(273, UInt32(stripAt)), .long(279, 16), .ascii(306, date),
                    .long(34665, UInt32(exifAt)),
                ] + extra, at: ifd0At)
        }
        let exifAt = ifd0At + ifd0(exifAt: 0, stripAt: 0).count
        let exif = exifIFD(at: exifAt)
        let stripAt = exifAt + exif.count
        return prefix + ifd0(exifAt: exifAt, stripAt: stripAt) + exif + (0..<16).map { UInt8($0) }
    }

    /// CR2: TIFF with "CR", version 2 and the raw IFD's offset after the header.
    static let cr2 = tiffRaw(
        prefix: Array("II*\0".utf8) + le32(16) + Array("CR".utf8) + [2, 0] + le32(0),
        make: "Canon", model: "Canon EOS 5D Mark III", compression: 6)

    /// RW2: Panasonic's TIFF variant (magic 0x55), its sensor size in IFD0 tags 2 and 3.
    static let rw2 = tiffRaw(
        prefix: Array("IIU\0".utf8) + le32(24) + [UInt8](repeating: 0, count: 16), make: "Panasonic",
        model: "DMC-GH4", compression: 34316,
        extra: [.short(2, UInt16(width)), .short(3, UInt16(height))])

    // MARK: RAF (Fujifilm): a header, then offsets to an embedded JPEG with the EXIF

    static let raf: [UInt8] = {
        let exifTIFF: [UInt8] = {
            let exifAt = 8 + 2 + 12 + 4
            return Array("II*\0".utf8) + le32(8) + le16(1) + le16(34665) + le16(4) + le32(1)
                + le32(UInt32(exifAt)) + le32(0) + exifIFD(at: exifAt)
        }()
        let payload = Array("Exif\0\0".utf8) + exifTIFF
        let length = payload.count + 2
        let jpeg =
            [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            + Pictures.sampleJPEG[2...]
        var header = Array("FUJIFILMCCD-RAW 0201FF383501".utf8)
        header += Array("X-T3".utf8) + [UInt8](repeating: 0, count: 28)
        header += Array("0100".utf8) + [UInt8](repeating: 0, count: 20)
        let jpegAt = header.count + 24
        return header + be32(UInt32(jpegAt)) + be32(UInt32(jpeg.count)) + [UInt8](repeating: 0, count: 16)
            + jpeg
    }()

    // MARK: CRW (Canon CIFF): heaps of records, the image properties in sub-heap 0x300A

    /// A CIFF heap: the values, then the record table and its offset, last.
    static func heap(_ records: [(tag: UInt16, data: [UInt8])]) -> [UInt8] {
        var values: [UInt8] = []
        var table: [UInt8] = []
        for record in records {
            table += le16(record.tag) + le32(UInt32(record.data.count)) + le32(UInt32(values.count))
            values += record.data
            if values.count % 2 == 1 { values.append(0) }
        }
        return values + le16(UInt16(records.count)) + table + le32(UInt32(values.count))
    }

    static let crw: [UInt8] = {
        // 0x180E: capture time (Unix seconds of `date` as UTC); 0x1810: width, height, …
        let captured: UInt32 = 1_614_834_367
        let properties = heap([
            (0x180E, le32(captured) + le32(0) + le32(0)),
            (0x1810, le32(width) + le32(height) + [0, 0, 0x80, 0x3F] + [UInt8](repeating: 0, count: 16)),
        ])
        return Array("II".utf8) + le32(26) + Array("HEAPCCDR".utf8) + le16(1) + le16(2)
            + [UInt8](repeating: 0, count: 8) + heap([(0x300A, properties)])
    }()
}
