import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// An asset placed by hand, the way a test sets a library up without the filing
/// pipeline: `bytes` written at `rollPath` (relative to the library; its folders
/// made), linked into `album`'s folder as `entry`, its row and its membership
/// recorded (a JPEG of 1 × 1 px, taken 2020-09-13, added 2023-11-14). Returns its id.
public func placeAsset(
    _ bytes: [UInt8], at rollPath: BytePath, entry: BytePath, album: AlbumRecord, in library: PhotoLibrary
) throws -> AssetID {
    let file = library.layout.absolute(rollPath)
    try Sys.makeDirectories(file.parent)
    try writeFile(file, bytes)
    try Sys.link(file, to: library.layout.albumFolder(album).appending(entry))
    let created = CaptureDate(secondsSinceEpoch: 1_600_000_000, utcOffsetSeconds: 0, source: .exif)
    let hash = bytes.withUnsafeBytes { ContentHasher.hash($0) }
    let id = try library.catalog.insertAsset(
        AssetRecord(
            id: 0, rollPath: rollPath, hash: hash,
            info: MediaInfo(
                mediaType: .image, mimeType: "image/jpeg", pixelWidth: 1, pixelHeight: 1,
                embeddedDate: created),
            created: created, addedAt: 1_700_000_000, size: Int64(bytes.count), originalName: entry,
            sourceInbox: album.name))
    try library.catalog.addMembership(asset: id, album: album.id, entryName: entry, at: 1_700_000_000)
    return id
}
