import Foundation

@testable import PhotoFilerCore

/// A fresh folder per test, removed when the test lets go of it.
final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/photofiler-catalog-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> BytePath { BytePath(path + "/" + name) }

    /// A catalog at `catalog.sqlite` in this folder.
    func catalog() throws -> Catalog { try Catalog(path: file("catalog.sqlite")) }
}

/// A complete asset whose fields all differ from their defaults, so a
/// round-trip test notices any column that is dropped or swapped.
func sampleAsset(
    _ number: Int, addedAt: Double = 1_700_000_000, createdAt: Int64 = 1_600_000_000,
    mediaType: MediaType = .image, subtypes: [String] = [], favorite: Bool = false
) -> AssetRecord {
    let hash = String(repeating: "0", count: 56) + String(format: "%08x", number)
    return AssetRecord(
        id: 0, rollPath: BytePath("Roll/2023/12/IMG_\(number).jpg"), hash: hash,
        info: MediaInfo(
            mediaType: mediaType, mimeType: mediaType == .video ? "video/mp4" : "image/jpeg",
            subtypes: subtypes,
            pixelWidth: 4032, pixelHeight: 3024, orientation: 6,
            embeddedDate: CaptureDate(secondsSinceEpoch: createdAt, utcOffsetSeconds: 28_800, source: .exif),
            duration: mediaType == .video ? 12.5 : nil, frameCount: 1),
        created: CaptureDate(secondsSinceEpoch: createdAt, utcOffsetSeconds: 28_800, source: .exif),
        addedAt: addedAt, size: 123_456, originalName: BytePath("IMG_\(number).jpg"), sourceInbox: "QQ",
        favorite: favorite)
}
