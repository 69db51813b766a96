import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Whether a file's end is there: photofiler(1) "Complete files only" made concrete
/// per format, with a few small reads near the start and the end, never the
/// whole file. A file still being written, or cut by a failed download, is
/// refused as `.truncated` and filed once it is whole. JPEG, PNG and GIF, whose end
/// is a marker that may lie anywhere before a trailer, are checked in the pass
/// that hashes them instead (`EndMarkerScan`).
package enum CompletenessCheck {
    /// Checks the end is there; returns the frame count when the walk found it
    /// (WebP), so no library has to be asked.
    package static func check(_ format: MediaFormat, head: [UInt8], file: FileBytes) throws(MediaError)
        -> Int?
    {
        switch format {
        case .jpeg, .png, .gif:
            // Its end marker is found while hashing (EndMarkerScan); a last byte that
            // was never written is known now, without reading the whole file.
            if try tailIsUnwritten(file) { throw .truncated(path: file.path, format: format.displayName) }
        case .webp: return try WebPChunks.frameCount(head: head, file: file)
        case .heif: _ = try topLevelBoxes(file, format: format)
        case .tiff: try checkTIFF(head: head, file: file)
        case .raw: try checkRaw(head: head, file: file)
        case .video:
            let boxes = try topLevelBoxes(file, format: format)
            guard boxes.contains("moov") else { throw .truncated(path: file.path, format: "video") }
        }
        return nil
    }

    /// True when the file's last byte lies in a hole: its size was set before its bytes came.
    private static func tailIsUnwritten(_ file: FileBytes) throws(MediaError) -> Bool {
        do {
            return try file.fd.isHole(from: file.size - 1)
        } catch {
            throw .unreadable(path: file.path, reason: error.description)
        }
    }

    /// TIFF has no end marker: the first IFD must at least lie inside the file;
    /// exiv2 then has to read it (checked by the reader).
    private static func checkTIFF(head: [UInt8], file: FileBytes) throws(MediaError) {
        guard head.count >= 8 else { throw .truncated(path: file.path, format: "TIFF") }
        let bigEndian = head[0] == 0x4D
        let firstIFD = Int64(bigEndian ? head.bigEndian32(at: 4) : head.littleEndian32(at: 4))
        guard firstIFD + 2 <= file.size else { throw .truncated(path: file.path, format: "TIFF") }
    }

    /// Camera RAW: CR3 is ISO-BMFF (its boxes must add up); the TIFF-based ones
    /// (CR2, NEF, ARW, ORF, RW2, PEF) have their first IFD inside the file; CRW and
    /// RAF have no cheap test, so exiv2 has to read them (checked by the reader).
    private static func checkRaw(head: [UInt8], file: FileBytes) throws(MediaError) {
        guard head.count >= 16 else { throw .truncated(path: file.path, format: MediaFormat.raw.displayName) }
        if head[4..<8].elementsEqual("ftyp".utf8) {
            _ = try topLevelBoxes(file, format: .raw)
        } else if head[0..<2].elementsEqual("II".utf8) || head[0..<2].elementsEqual("MM".utf8),
            !head[6..<14].elementsEqual("HEAPCCDR".utf8)
        {
            try checkTIFF(head: head, file: file)
        }
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
