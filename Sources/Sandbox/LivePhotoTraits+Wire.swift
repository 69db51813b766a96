import PhotoFilerMediaTypes

/// A Live Photo's identifier and a motion photo's video range in a helper's answer,
/// checked like the rest of it: a short printable identifier, a range that is one.
extension MediaInfo {
    /// Apple's identifiers are UUIDs (36 characters); longer is not one.
    static let longestContentIdentifier = 64

    func writeLive(_ writer: inout WireWriter) {
        writer.byte(live.contentIdentifier == nil ? 0 : 1)
        if let identifier = live.contentIdentifier { writer.text(identifier) }
        writer.optional(live.embeddedVideo?.offset)
        writer.optional(live.embeddedVideo?.length)
        writer.optional(live.embeddedVideo?.duration.map { Int64(bitPattern: $0.bitPattern) })
    }

    static func readLive(_ reader: inout WireReader) throws(WireError) -> LivePhotoTraits {
        var live = LivePhotoTraits()
        switch try reader.byte() {
        case 0: break
        case 1:
            let identifier = try reader.text(limit: longestContentIdentifier)
            guard !identifier.isEmpty, identifier.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw .badValue
            }
            live.contentIdentifier = identifier
        default: throw .badValue
        }
        let offset = try reader.optional()
        let length = try reader.optional()
        let duration = try reader.optional().map { Double(bitPattern: UInt64(bitPattern: $0)) }
        if let duration, !(duration.isFinite && duration >= 0) { throw .badValue }
        switch (offset, length) {
        case (nil, nil): break
        case (let offset?, let length?):
            guard offset >= 0, length > 0, offset <= Int64.max - length else { throw .badValue }
            live.embeddedVideo = EmbeddedVideo(offset: offset, length: length, duration: duration)
        default: throw .badValue
        }
        return live
    }
}
