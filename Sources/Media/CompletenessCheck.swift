import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Whether a file's end is there: SPEC's "complete files only" made concrete
/// per format, with a few small reads near the start and the end, never the
/// whole file. A file still being written, or cut by a failed download, is
/// refused as `.truncated` and filed once it is whole.
package enum CompletenessCheck {
    /// How far from the end the end marker may lie: some phones append trailers
    /// (Samsung's SEFT, say) after a JPEG's EOI.
    package static let trailerAllowance = 64 * 1024

    /// Checks the end is there; returns the frame count when the walk found it
    /// (WebP), so no library has to be asked.
    package static func check(_ format: MediaFormat, head: [UInt8], file: FileBytes) throws(MediaError)
        -> Int?
    {
        switch format {
        case .jpeg: try checkJPEG(head: head, file: file)
        case .png: try checkPNG(file)
        case .gif: try checkGIF(file)
        case .webp: return try WebPChunks.frameCount(head: head, file: file)
        case .heif: _ = try topLevelBoxes(file, format: format)
        case .tiff: try checkTIFF(head: head, file: file)
        case .video:
            let boxes = try topLevelBoxes(file, format: format)
            guard boxes.contains("moov") else { throw .truncated(path: file.path, format: "video") }
        }
        return nil
    }

    /// EOI (FFD9) within the last 64 KiB, after the header segments: a truncated
    /// file's tail is entropy-coded data, where FFD9 cannot occur, and skipping
    /// the header keeps an EXIF thumbnail's own EOI from passing for the end.
    /// A motion photo (Pixel, Samsung) carries megabytes of video after its EOI:
    /// its XMP says how long the video is, and the EOI must sit right before it.
    private static func checkJPEG(head: [UInt8], file: FileBytes) throws(MediaError) {
        let headerEnd = try jpegHeaderEnd(file)
        let (start, tail) = try file.tail(trailerAllowance)
        let from = Int(max(0, headerEnd - start))
        if tail.lastIndex(of: [0xFF, 0xD9], from: from) != nil { return }
        if let videoLength = MotionPhoto.videoLength(xmpIn: head), videoLength < file.size - headerEnd {
            let videoStart = file.size - videoLength
            let slack = 64
            let before = try file.read(at: max(headerEnd, videoStart - Int64(slack)), count: slack)
            if before.lastIndex(of: [0xFF, 0xD9]) != nil { return }
        }
        throw .truncated(path: file.path, format: "JPEG")
    }

    /// Offset of the first SOS (start of scan) marker, by walking the segment
    /// lengths; 2 when the walk goes wrong (then only the tail test counts).
    private static func jpegHeaderEnd(_ file: FileBytes) throws(MediaError) -> Int64 {
        var offset: Int64 = 2
        for _ in 0..<512 {
            let bytes = try file.read(at: offset, count: 4)
            guard bytes.count == 4, bytes[0] == 0xFF else { return 2 }
            let marker = bytes[1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xDA { return offset }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            offset += 2 + (Int64(bytes[2]) << 8 | Int64(bytes[3]))
        }
        return 2
    }

    /// The IEND chunk with its fixed CRC, near the end.
    private static func checkPNG(_ file: FileBytes) throws(MediaError) {
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        guard try file.tail(4096).bytes.lastIndex(of: iend) != nil else {
            throw .truncated(path: file.path, format: "PNG")
        }
    }

    /// The trailer byte 0x3B, ignoring zero padding some tools add.
    private static func checkGIF(_ file: FileBytes) throws(MediaError) {
        let tail = try file.tail(256).bytes
        guard tail.last(where: { $0 != 0 }) == 0x3B else { throw .truncated(path: file.path, format: "GIF") }
    }

    /// TIFF has no end marker: the first IFD must at least lie inside the file;
    /// exiv2 then has to read it (checked by the reader).
    private static func checkTIFF(head: [UInt8], file: FileBytes) throws(MediaError) {
        guard head.count >= 8 else { throw .truncated(path: file.path, format: "TIFF") }
        let bigEndian = head[0] == 0x4D
        let firstIFD = Int64(bigEndian ? head.bigEndian32(at: 4) : head.littleEndian32(at: 4))
        guard firstIFD + 2 <= file.size else { throw .truncated(path: file.path, format: "TIFF") }
    }

    /// Walks the top-level boxes of an ISO-BMFF file (HEIF, AVIF, MP4, MOV): their
    /// sizes must add up to the file's. A box running past the end is a cut file.
    package static func topLevelBoxes(_ file: FileBytes, format: MediaFormat) throws(MediaError) -> Set<
        String
    > {
        var types = Set<String>()
        var offset: Int64 = 0
        var boxes = 0
        while offset < file.size {
            boxes += 1
            guard boxes <= 100_000 else {
                throw .damaged(
                    path: file.path, format: format.displayName, reason: "too many top-level boxes")
            }
            let header = try file.read(at: offset, count: 16)
            guard header.count >= 8 else {
                // A few stray bytes after the last box: only zero padding is whole.
                if header.allSatisfy({ $0 == 0 }) { break }
                throw .truncated(path: file.path, format: format.displayName)
            }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var size = Int64(header.bigEndian32(at: 0))
            var headerSize: Int64 = 8
            if size == 1 {
                guard header.count == 16 else {
                    throw .truncated(path: file.path, format: format.displayName)
                }
                let large = header.bigEndian64(at: 8)
                guard large <= UInt64(Int64.max) else {
                    throw .damaged(
                        path: file.path, format: format.displayName, reason: "box '\(type)' is too large")
                }
                size = Int64(large)
                headerSize = 16
            } else if size == 0 {
                // "Extends to the end of the file": whole by definition.
                types.insert(type)
                break
            }
            guard size >= headerSize else {
                throw .damaged(
                    path: file.path, format: format.displayName,
                    reason: "box '\(type)' at \(offset) has size \(size)")
            }
            guard size <= file.size - offset else {
                throw .truncated(path: file.path, format: format.displayName)
            }
            types.insert(type)
            offset += size
        }
        return types
    }
}
