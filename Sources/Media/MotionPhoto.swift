import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A motion photo's video: where it lies in the still's file, as its XMP (read by
/// exiv2) or Samsung's trailer says, checked to lie inside the file and to start
/// like an MP4.
package enum MotionPhoto {
    /// The XMP properties that announce an embedded video.
    package struct Announcement: Equatable {
        /// `GCamera:MotionPhoto` or `GCamera:MicroVideo` is 1.
        package var flagged = false
        /// `GCamera:MicroVideoOffset`: bytes from the end of the file to the video.
        package var microVideoOffset: Int64?
        /// The `Container:Directory` items, in order.
        package var items: [ContainerItem] = []

        package init(flagged: Bool = false, microVideoOffset: Int64? = nil, items: [ContainerItem] = []) {
            self.flagged = flagged
            self.microVideoOffset = microVideoOffset
            self.items = items
        }
    }

    /// One `Container:Item`: the items follow one another to the end of the file.
    package struct ContainerItem: Equatable {
        package var semantic: String
        package var length: Int64
        /// Bytes after this item's data, before the next item's.
        package var padding: Int64

        package init(semantic: String, length: Int64, padding: Int64 = 0) {
            self.semantic = semantic
            self.length = length
            self.padding = padding
        }
    }

    /// The XMP namespaces exiv2 must know to name these properties.
    package static let namespaces: [(prefix: String, uri: String)] = [
        ("GCamera", "http://ns.google.com/photos/1.0/camera/"),
        ("Container", "http://ns.google.com/photos/1.0/container/"),
        ("Item", "http://ns.google.com/photos/1.0/container/item/"),
        // Google's depth map, for the Portraits album (`PictureKinds`).
        ("GDepth", "http://ns.google.com/photos/1.0/depthmap/"),
    ]

    /// The video's byte range by the XMP: the `MotionPhoto` container item (its
    /// offset is what the items after it leave of the file's end), else the older
    /// `MicroVideoOffset`. Nil when neither fits in the file.
    package static func range(announced: Announcement, fileSize: Int64) -> (offset: Int64, length: Int64)? {
        if let index = announced.items.firstIndex(where: { $0.semantic == "MotionPhoto" }) {
            let length = announced.items[index].length
            var fromEnd: Int64 = 0
            for item in announced.items[index...] {
                guard item.length >= 0, item.padding >= 0 else { return nil }
                let (sum, overflow) = fromEnd.addingReportingOverflow(item.length + item.padding)
                guard !overflow else { return nil }
                fromEnd = sum
            }
            // The last item's padding (none, by the format) must not count against it.
            fromEnd -= announced.items.last?.padding ?? 0
            return checked(offset: fileSize - fromEnd, length: length, fileSize: fileSize)
        }
        if let fromEnd = announced.microVideoOffset {
            return checked(offset: fileSize - fromEnd, length: fromEnd, fileSize: fileSize)
        }
        return nil
    }

    private static func checked(offset: Int64, length: Int64, fileSize: Int64) -> (
        offset: Int64, length: Int64
    )? {
        guard length > 8, offset > 0, offset <= fileSize - length else { return nil }
        return (offset, length)
    }

    // MARK: Samsung's trailer

    /// One entry of the SEF directory at the end of a Samsung file.
    package struct SamsungBlock: Equatable {
        package var type: UInt16
        /// Where the block starts in the file, and its size.
        package var offset: Int64
        package var size: Int64
    }

    /// Samsung's motion-video block type, named `MotionPhoto_Data`.
    static let samsungVideoType: UInt16 = 0x0A30
    static let samsungVideoName = Array("MotionPhoto_Data".utf8)
    /// The SEF directory is small; one larger than this is not one.
    package static let longestSamsungDirectory = 64 * 1024

    /// The directory in the file's last bytes (`tail`, the last `tail.count` bytes
    /// of a file of `fileSize`): `…SEFH, version, count, entries…, length, SEFT`.
    package static func samsungBlocks(tail: [UInt8], fileSize: Int64) -> [SamsungBlock] {
        guard tail.count >= 8, Array(tail.suffix(4)) == Array("SEFT".utf8) else { return [] }
        let length = Int(tail.littleEndian32(at: tail.count - 8))
        guard length >= 12, length <= longestSamsungDirectory, length <= tail.count - 8 else { return [] }
        let start = tail.count - 8 - length
        guard Array(tail[start..<(start + 4)]) == Array("SEFH".utf8) else { return [] }
        let count = Int(tail.littleEndian32(at: start + 8))
        guard count <= (length - 12) / 12 else { return [] }
        let directory = fileSize - 8 - Int64(length)
        var blocks: [SamsungBlock] = []
        for index in 0..<count {
            let entry = start + 12 + 12 * index
            let type = UInt16(tail[entry + 2]) | UInt16(tail[entry + 3]) << 8
            let backwards = Int64(tail.littleEndian32(at: entry + 4))
            let size = Int64(tail.littleEndian32(at: entry + 8))
            guard backwards <= directory, size <= backwards, size >= 8 else { return [] }
            blocks.append(SamsungBlock(type: type, offset: directory - backwards, size: size))
        }
        return blocks
    }

    /// How many bytes of a block `samsungVideo(in:header:)` wants to see.
    package static let samsungHeaderSize = 8 + 16

    /// The video inside a `MotionPhoto_Data` block whose first bytes are `header`:
    /// the block repeats its type, then the name's length and the name, then the data.
    package static func samsungVideo(in block: SamsungBlock, header: [UInt8]) -> (
        offset: Int64, length: Int64
    )? {
        guard block.type == samsungVideoType, header.count >= samsungHeaderSize else { return nil }
        let nameLength = Int(header.littleEndian32(at: 4))
        guard nameLength == samsungVideoName.count, Array(header[8..<(8 + nameLength)]) == samsungVideoName
        else { return nil }
        let dataStart = Int64(8 + nameLength)
        guard block.size > dataStart + 8 else { return nil }
        return (block.offset + dataStart, block.size - dataStart)
    }

    // MARK: Both, over the file

    /// The embedded video of the image in `file`, by its XMP or else Samsung's
    /// trailer, once the range is seen to start with an MP4 `ftyp` box.
    package static func embeddedVideo(announced: Announcement?, file: FileBytes) throws(MediaError)
        -> EmbeddedVideo?
    {
        var range = announced.flatMap { self.range(announced: $0, fileSize: file.size) }
        // Samsung's directory is looked for only when the file ends in its mark: one
        // 8-byte read for every other picture.
        let end = range == nil ? try file.tail(8).bytes : []
        if end.count == 8, Array(end.suffix(4)) == Array("SEFT".utf8) {
            let length = Int(min(end.littleEndian32(at: 0), UInt32(longestSamsungDirectory)))
            let tail = try file.tail(length + 8)
            for block in samsungBlocks(tail: tail.bytes, fileSize: file.size) {
                let header = try file.read(at: block.offset, count: samsungHeaderSize)
                if let found = samsungVideo(in: block, header: header) {
                    range = found
                    break
                }
            }
        }
        guard let range else { return nil }
        let start = try file.read(at: range.offset, count: 8)
        guard start.count == 8, Array(start[4..<8]) == Array("ftyp".utf8) else { return nil }
        return EmbeddedVideo(offset: range.offset, length: range.length)
    }
}
