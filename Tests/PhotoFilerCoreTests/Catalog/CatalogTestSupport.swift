import Foundation

@testable import PhotoFilerCatalog
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

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
