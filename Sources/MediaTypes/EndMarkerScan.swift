import Glibc
import PhotoFilerSystem

/// Finds where a JPEG's, PNG's or GIF's image ends while the filer hashes the file, so a
/// file is read once and its end is found wherever it lies (photofiler(1) "Complete files
/// only"): a trailer of any size after the end (Samsung's SEFT block, a motion
/// photo's video, an app's appended data) is fine, and a file cut before its end
/// is still caught.
///
/// A JPEG ends at the first EOI after its first SOS: segment lengths are followed
/// from the start (so an EXIF thumbnail's own EOI, inside APP1, is skipped), and in
/// entropy-coded data 0xFF is always stuffed or a restart marker, so an EOI there
/// is the end. A damaged byte in the data is no cut: a 0xFF followed by a code no
/// segment has is corrupt data, passed over as decoders do, and a file whose walk
/// lost its way in a damaged scan is whole all the same when its last two bytes
/// are an EOI (a file cut before its first scan never is: the walk has not
/// reached one, so a thumbnail's EOI cannot pass for the end). A PNG ends at its IEND chunk, found by walking
/// chunk lengths; a GIF at its trailer byte (0x3B), found by walking its blocks and sub-blocks.
///
/// A pure state machine over the bytes in order: `consume` takes each chunk the
/// hash pass reads. Pure byte scanning, no decoder: it runs in the daemon, beside
/// the hash (`EndMarkerScans`).
package struct EndMarkerScan {
    private enum Format { case jpeg, png, gif }

    private enum State {
        /// JPEG: between segments, a marker's 0xFF next.
        case marker
        /// JPEG: after 0xFF, the marker's code next.
        case markerCode
        /// JPEG: the two length bytes of segment `code`.
        case length(code: UInt8, high: UInt8?)
        /// Bytes to pass over, then `next`.
        case skip(remaining: Int64, next: Next)
        /// JPEG: entropy-coded data of a scan, up to the next 0xFF.
        case entropy
        /// JPEG: after a 0xFF in entropy-coded data.
        case entropyFF
        /// PNG: collecting a chunk's length and type (`header` so far).
        case chunkHeader
        /// GIF: collecting the header and logical screen descriptor (13 bytes).
        case gifScreen
        /// GIF: a block's introducer next (image, extension, trailer).
        case gifBlock
        /// GIF: an extension's label next.
        case gifLabel
        /// GIF: collecting an image descriptor (9 bytes after its 0x2C).
        case gifImage
        /// GIF: a sub-block's size next (0 ends the data).
        case gifSubBlock
        case done
        /// The structure broke (a PNG chunk type that is no type): the end never comes.
        case broken
    }

    private enum Next { case marker, entropy, chunkHeader, gifBlock, gifSubBlock, done }

    private let format: Format
    private var state: State
    private var sawScan = false
    /// The last two bytes consumed (JPEG), newest in the low byte.
    private var tail: UInt16 = 0
    private var header: [UInt8] = []
    /// The format's name, for the message when the end is missing.
    package let formatName: String
    /// The MIME type whose end this scan looks for.
    package let mimeType: String

    /// A scan for the formats whose end is a marker inside the file; nil for the others.
    package init?(mimeType: String) {
        self.mimeType = mimeType
        switch mimeType {
        case "image/jpeg":
            format = .jpeg
            state = .skip(remaining: 2, next: .marker)  // SOI
            formatName = "JPEG"
        case "image/png":
            format = .png
            state = .skip(remaining: 8, next: .chunkHeader)  // the signature
            formatName = "PNG"
        case "image/gif":
            format = .gif
            state = .gifScreen
            formatName = "GIF"
        default:
            return nil
        }
    }

    /// True once the end was seen.
    package var foundEnd: Bool {
        if case .done = state { return true }
        return format == .jpeg && sawScan && tail == 0xFFD9
    }

    /// Refuses a file whose end never came: it was cut.
    package func verify(path: BytePath) throws(MediaError) {
        guard foundEnd else { throw .truncated(path: path, format: formatName) }
    }

    /// The next bytes of the file, in order.
    package mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        var index = 0
        let count = chunk.count
        if format == .jpeg {
            for byte in chunk.suffix(2) { tail = tail << 8 | UInt16(byte) }
        }
        while index < count {
            switch state {
            case .done, .broken:
                return
            case .skip(let remaining, let next):
                let step = Int(min(remaining, Int64(count - index)))
                index += step
                if remaining - Int64(step) > 0 {
                    state = .skip(remaining: remaining - Int64(step), next: next)
                } else {
                    state = Self.state(after: next)
                }
            case .entropy, .marker:
                // Up to the next 0xFF at memchr's speed: data, or stray bytes between
                // segments (a cut or preallocated file may hold gigabytes of zeros).
                let wasMarker: Bool
                if case .marker = state { wasMarker = true } else { wasMarker = false }
                guard let base = chunk.baseAddress else { return }
                var from = index
                var at = 0
                while true {
                    guard let found = memchr(base + from, 0xFF, count - from) else {
                        if wasMarker, sawScan, index < count { state = .entropy }
                        return
                    }
                    at = base.distance(to: UnsafeRawPointer(found))
                    // In a scan's data a 0xFF and a stuffed 0x00 or a restart marker is
                    // still data: passed over here, not byte by byte through `step`
                    // (one in every few hundred bytes of a photo's data).
                    guard !wasMarker, at + 1 < count, Self.isStillData(chunk[at + 1]) else { break }
                    from = at + 2
                }
                if wasMarker, sawScan, at > index { state = .entropy }
                index = at + 1
                if case .entropy = state { state = .entropyFF } else { state = .markerCode }
            default:
                step(chunk[index])
                index += 1
            }
        }
    }

    /// After a 0xFF in entropy-coded data: a stuffed byte or a restart marker.
    private static func isStillData(_ code: UInt8) -> Bool { code == 0x00 || (0xD0...0xD7).contains(code) }

    private static func state(after next: Next) -> State {
        switch next {
        case .marker: return .marker
        case .entropy: return .entropy
        case .chunkHeader: return .chunkHeader
        case .gifBlock: return .gifBlock
        case .gifSubBlock: return .gifSubBlock
        case .done: return .done
        }
    }

    /// One byte of a JPEG's marker structure or of a PNG chunk header.
    private mutating func step(_ byte: UInt8) {
        switch state {
        case .markerCode:
            switch byte {
            case 0xFF: break  // fill
            case 0xD8, 0x01, 0xD0...0xD7: state = .marker
            case 0xD9: state = sawScan ? .done : .marker
            case 0x00: state = sawScan ? .entropy : .marker
            default: state = .length(code: byte, high: nil)
            }
        case .length(let code, let high):
            guard let high else {
                state = .length(code: code, high: byte)
                return
            }
            let remaining = (Int64(high) << 8 | Int64(byte)) - 2
            let isScan = code == 0xDA
            if isScan { sawScan = true }
            let next: Next = isScan ? .entropy : .marker
            state = remaining > 0 ? .skip(remaining: remaining, next: next) : Self.state(after: next)
        case .entropyFF:
            switch byte {
            case 0xFF: break
            case 0xD9: state = .done
            // DHT, SOS, DQT, APPn … between scans: a segment with a length.
            case 0xC0...0xCF, 0xDA...0xDF, 0xE0...0xEF, 0xFE: state = .length(code: byte, high: nil)
            // Stuffed byte, restart marker, or a damaged byte: still data.
            default: state = .entropy
            }
        case .chunkHeader:
            header.append(byte)
            guard header.count == 8 else { return }
            let length = Int64(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let isType = header[4..<8].allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            guard isType else {
                state = .broken
                return
            }
            let isEnd = header[4..<8].elementsEqual("IEND".utf8)
            header.removeAll(keepingCapacity: true)
            state = .skip(remaining: length + 4, next: isEnd ? .done : .chunkHeader)  // data, CRC
        case .gifScreen:
            header.append(byte)
            guard header.count == 13 else { return }
            let table = Self.colorTableSize(header[10])
            header.removeAll(keepingCapacity: true)
            state = table > 0 ? .skip(remaining: table, next: .gifBlock) : .gifBlock
        case .gifBlock:
            switch byte {
            case 0x21: state = .gifLabel
            case 0x2C: state = .gifImage
            case 0x3B: state = .done
            default: state = .broken
            }
        case .gifLabel:
            state = .gifSubBlock
        case .gifImage:
            header.append(byte)
            guard header.count == 9 else { return }
            // The local color table, then the LZW code size byte, then the data.
            let table = Self.colorTableSize(header[8])
            header.removeAll(keepingCapacity: true)
            state = .skip(remaining: table + 1, next: .gifSubBlock)
        case .gifSubBlock:
            state = byte == 0 ? .gifBlock : .skip(remaining: Int64(byte), next: .gifSubBlock)
        case .marker, .skip, .entropy, .done, .broken:
            break
        }
    }

    /// Bytes of a GIF color table announced by a packed field (its flag in bit 7).
    private static func colorTableSize(_ packed: UInt8) -> Int64 {
        packed & 0x80 == 0 ? 0 : 3 << (Int64(packed & 0x07) + 1)
    }
}
