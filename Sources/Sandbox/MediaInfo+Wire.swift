import PhotoFilerMediaTypes
import PhotoFilerSystem

/// `MediaInfo` and the helpers' refusals as message bodies. What comes back from a
/// helper is checked as input from a stranger (a helper runs hostile bytes): every
/// length is bounded and every number kept in its range before the catalog sees it.
extension MediaInfo {
    package var wire: [UInt8] {
        var writer = WireWriter()
        writer.byte(mediaType == .image ? 0 : 1)
        writer.text(mimeType)
        writer.integer(Int64(subtypes.count))
        for subtype in subtypes { writer.text(subtype) }
        writer.integer(Int64(pixelWidth))
        writer.integer(Int64(pixelHeight))
        writer.integer(Int64(orientation))
        writer.optional(embeddedDate?.secondsSinceEpoch)
        writer.optional(embeddedDate?.utcOffsetSeconds.map(Int64.init))
        writer.byte(embeddedDate.map { Self.sources.firstIndex(of: $0.source).map(UInt8.init) ?? 0 } ?? 0)
        writer.optional(duration.map { Int64(bitPattern: $0.bitPattern) })
        writer.integer(Int64(frameCount))
        writeLive(&writer)
        return writer.bytes
    }

    private static let sources: [CaptureDate.Source] = [.exif, .container, .fileName, .modificationTime]

    package init(wire bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        let mediaType: MediaType
        switch try reader.byte() {
        case 0: mediaType = .image
        case 1: mediaType = .video
        default: throw .badValue
        }
        let mimeType = try reader.text(limit: 255)
        let subtypeCount = try reader.integer()
        guard (0...16).contains(subtypeCount) else { throw .badLength }
        var subtypes: [String] = []
        for _ in 0..<subtypeCount { subtypes.append(try reader.text(limit: 64)) }
        let dimensionRange: ClosedRange<Int64> = 0...1_000_000
        let width = try reader.integer()
        let height = try reader.integer()
        guard dimensionRange.contains(width), dimensionRange.contains(height) else { throw .badValue }
        let turn = try reader.integer()
        let seconds = try reader.optional()
        let offset = try reader.optional()
        let source = Int(try reader.byte())
        var embeddedDate: CaptureDate?
        if let seconds {
            guard offset.map({ abs($0) <= 18 * 3600 }) ?? true, source < Self.sources.count else {
                throw .badValue
            }
            embeddedDate = CaptureDate(
                secondsSinceEpoch: seconds, utcOffsetSeconds: offset.map(Int.init),
                source: Self.sources[source])
        }
        let duration = try reader.optional().map { Double(bitPattern: UInt64(bitPattern: $0)) }
        if let duration, !(duration.isFinite && duration >= 0) { throw .badValue }
        let frames = try reader.integer()
        guard (1...1_000_000).contains(frames) else { throw .badValue }
        let live = try Self.readLive(&reader)
        guard reader.isAtEnd else { throw .badLength }
        self.init(
            mediaType: mediaType, mimeType: mimeType, subtypes: subtypes, pixelWidth: Int(width),
            pixelHeight: Int(height), orientation: (1...8).contains(turn) ? Int(turn) : 1,
            embeddedDate: embeddedDate, duration: duration, frameCount: Int(frames))
        self.live = live
    }
}

extension MediaError {
    /// A refusal as a helper sends it: the path stays with the daemon, which knows it.
    package var wire: [UInt8] {
        var writer = WireWriter()
        switch self {
        case .empty:
            writer.byte(0)
        case .notMedia(_, let detected):
            writer.byte(1)
            writer.text(detected)
        case .truncated(_, let format):
            writer.byte(2)
            writer.text(format)
        case .damaged(_, let format, let reason):
            writer.byte(3)
            writer.text(format)
            writer.text(reason)
        case .unreadable(_, let reason):
            writer.byte(4)
            writer.text(reason)
        case .libraryUnavailable(let name, let reason):
            writer.byte(5)
            writer.text(name)
            writer.text(reason)
        case .readerFailed(_, let what):
            writer.byte(6)
            writer.text(what)
        case .readerTimedOut(_, let seconds):
            writer.byte(7)
            writer.integer(Int64(seconds))
        case .readerUnavailable(_, let reason):
            writer.byte(8)
            writer.text(reason)
        case .notReadBeforeStop:
            writer.byte(9)
        case .needsDecoders(_, let library):
            writer.byte(10)
            writer.text(library)
        case .tooLarge(_, let format, let size, let limit):
            writer.byte(11)
            writer.text(format)
            writer.integer(size)
            writer.integer(limit)
        }
        return writer.bytes
    }

    /// A helper's refusal of the file at `path`.
    package init(wire bytes: [UInt8], path: BytePath) throws(WireError) {
        var reader = WireReader(bytes)
        let refusal: MediaError
        switch try reader.byte() {
        case 0: refusal = .empty(path: path)
        case 1: refusal = .notMedia(path: path, detected: try reader.text(limit: 255))
        case 2: refusal = .truncated(path: path, format: try reader.text(limit: 64))
        case 3: refusal = .damaged(path: path, format: try reader.text(limit: 64), reason: try reader.text())
        case 4: refusal = .unreadable(path: path, reason: try reader.text())
        case 5: refusal = .libraryUnavailable(name: try reader.text(limit: 64), reason: try reader.text())
        case 6: refusal = .readerFailed(path: path, what: try reader.text())
        case 7: refusal = .readerTimedOut(path: path, seconds: Int(clamping: try reader.integer()))
        case 8: refusal = .readerUnavailable(path: path, reason: try reader.text())
        case 9: refusal = .notReadBeforeStop(path: path)
        case 10: refusal = .needsDecoders(path: path, library: try reader.text(limit: 64))
        case 11:
            refusal = .tooLarge(
                path: path, format: try reader.text(limit: 64), size: try reader.integer(),
                limit: try reader.integer())
        default: throw .badValue
        }
        guard reader.isAtEnd else { throw .badLength }
        self = refusal
    }
}
