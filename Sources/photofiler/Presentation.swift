import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMedia
import PhotoFilerMediaTypes

/// SPEC's JSON shape of one asset; more fields than SPEC asks are welcome.
struct AssetJSON: Encodable {
    var id: AssetID
    var path: String
    var pathBase64: String?
    var albums: [String]
    var mediaType: String
    var mimeType: String
    var subtypes: [String]
    var created: String
    var createdSource: String
    var added: String
    var width: Int
    var height: Int
    var orientation: Int
    var rotation: Int?
    var duration: Double?
    var size: Int64
    var hash: String
    var originalName: String
    var originalNameBase64: String?
    var sourceInbox: String?
    var favorite: Bool
    var deleted: String?
    /// The 256 px thumbnail's path, null while it is not made.
    var thumbnail: OrNull<String>

    init(_ asset: AssetRecord, albums: [String], layout: LibraryLayout) {
        let absolute = asset.trashPath.map { layout.absolute($0) } ?? layout.absolute(asset.rollPath)
        id = asset.id
        path = absolute.display
        pathBase64 = absolute.isValidUTF8 ? nil : Data(absolute.bytes).base64EncodedString()
        self.albums = albums
        mediaType = asset.info.mediaType.rawValue
        mimeType = asset.info.mimeType
        subtypes = asset.info.subtypes
        created = DateText.iso8601(asset.created)
        createdSource = asset.created.source.rawValue
        added = DateText.iso8601UTC(asset.addedAt)
        width = asset.info.displayWidth
        height = asset.info.displayHeight
        orientation = asset.info.exifOrientation
        rotation = asset.info.rotation
        duration = asset.info.duration
        size = asset.size
        hash = asset.hash
        originalName = asset.originalName.display
        originalNameBase64 =
            asset.originalName.isValidUTF8 ? nil : Data(asset.originalName.bytes).base64EncodedString()
        sourceInbox = asset.sourceInbox
        favorite = asset.favorite
        deleted = asset.deletedAt.map(DateText.iso8601UTC)
        thumbnail = OrNull(
            ThumbnailFiles(layout: layout).existingPath(hash: asset.hash, size: .grid)?.display)
    }
}

/// SPEC's JSON shape of one album.
struct AlbumJSON: Encodable {
    var name: String
    var kind: String
    var count: Int
    var cover: AssetID?
    var path: String?
    /// The cover's 256 px thumbnail, or null.
    var coverThumbnail: String?

    init(_ summary: AlbumSummary, layout: LibraryLayout, coverHash: String?) {
        coverThumbnail = coverHash.flatMap {
            ThumbnailFiles(layout: layout).existingPath(hash: $0, size: .grid)?.display
        }
        name = summary.name
        count = summary.count
        cover = summary.cover
        switch summary.kind {
        case .user(let album):
            kind = "user"
            path = layout.albumFolder(album).display
        case .smart:
            kind = "smart"
            path = nil
        }
    }

    private enum CodingKeys: String, CodingKey { case name, kind, count, cover, path, coverThumbnail }

    /// SPEC shows a missing cover and a smart album's path as `null`, not as an absent key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(count, forKey: .count)
        try container.encode(cover, forKey: .cover)
        try container.encode(path, forKey: .path)
        try container.encode(coverThumbnail, forKey: .coverThumbnail)
    }
}

/// A value SPEC shows as `null` when absent: synthesized `Encodable` leaves a nil
/// optional out instead.
struct OrNull<Value: Encodable>: Encodable {
    var value: Value?

    init(_ value: Value?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// Dates as SPEC shows them.
enum DateText {
    /// ISO 8601 with the offset: the content's own, else the machine's zone.
    static func iso8601(_ date: CaptureDate) -> String {
        let instant = Date(timeIntervalSince1970: Double(date.secondsSinceEpoch))
        let offset = date.utcOffsetSeconds ?? TimeZone.current.secondsFromGMT(for: instant)
        return format(instant, offset: offset)
    }

    static func iso8601UTC(_ seconds: Double) -> String {
        format(Date(timeIntervalSince1970: seconds.rounded(.down)), offset: nil)
    }

    private static func format(_ instant: Date, offset: Int?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset ?? 0) ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
            c.minute ?? 0,
            c.second ?? 0)
        guard let offset else { return base + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return base + String(format: "%@%02d:%02d", sign, magnitude / 3600, (magnitude % 3600) / 60)
    }
}

/// Writes to stdout, and JSON for `--json`.
enum Output {
    static func line(_ text: String) {
        print(text)
    }

    /// Prints `value` as JSON. A value that cannot be encoded is a bug, never an empty
    /// success: the command stops with exit status 1 and says so.
    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes, .sortedKeys]
        do {
            print(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            FileHandle.standardError.write(
                Data(
                    "photofiler: the JSON output could not be encoded (\(error)); please report this bug.\n"
                        .utf8))
            exit(1)
        }
    }
}
