import PhotoFilerCatalog
import PhotoFilerSystem

/// Where an asset's thumbnails are under `.photofiler/thumbnails/`: a folder per
/// first two hex digits of the content hash, `<hash>-256.jpg`, `<hash>-1024.jpg`,
/// and `<hash>.failed` (the decoder's reason) for content that gave none.
public struct ThumbnailFiles: Sendable {
    public let layout: LibraryLayout

    public init(layout: LibraryLayout) { self.layout = layout }

    public var folder: BytePath { layout.internalFolder.appending("thumbnails") }

    /// Where the thumbnail of content `hash` at `size` lives (whether or not it is made yet).
    public func path(hash: String, size: ThumbnailSize) -> BytePath {
        shard(hash).appending("\(hash)-\(size.rawValue).jpg")
    }

    /// The thumbnail's path when it is made (a non-empty file), nil when it is not.
    /// Throws when it could not be looked at: that is not missing.
    public func existingPath(hash: String, size: ThumbnailSize) throws(SystemError) -> BytePath? {
        let path = path(hash: hash, size: size)
        guard let status = try Sys.statusIfExists(path), status.size > 0 else { return nil }
        return path
    }

    /// The thumbnail to show in JSON: nil when it is not made, and when it cannot be
    /// looked at (there is nothing to show then either; `status` and the daemon say why).
    public func shownPath(hash: String, size: ThumbnailSize) -> BytePath? {
        (try? existingPath(hash: hash, size: size)) ?? nil
    }

    /// Missing at some size and not marked undecodable; throws when a file could not be looked at.
    public func isPending(hash: String) throws(SystemError) -> Bool {
        for size in ThumbnailSize.allCases {
            if try existingPath(hash: hash, size: size) == nil {
                return try Sys.statusIfExists(failureMarker(hash: hash)) == nil
            }
        }
        return false
    }

    /// How many assets in the library have thumbnails still to make (`status`): one
    /// whose thumbnails could not be looked at is not made again, so it is not counted.
    public func pendingCount(in catalog: Catalog) throws(CatalogError) -> Int {
        let settled = SettledThumbnails(files: self)
        var count = 0
        try catalog.forEachLiveAssetHash {
            do {
                if try settled.isPending(hash: $0.hash) { count += 1 }
            } catch {
                // Not pending: the daemon's scan and `thumb --all` report the folder.
            }
            return true
        }
        return count
    }

    /// The reason a previous attempt gave, when the content is known to be undecodable
    /// (a marker whose reason cannot be read still says so); throws when the marker
    /// could not be looked at.
    public func failure(hash: String) throws(SystemError) -> String? {
        let marker = failureMarker(hash: hash)
        guard try Sys.statusIfExists(marker) != nil else { return nil }
        guard let fd = try? Sys.openForReading(marker) else { return "it could not be decoded before" }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { (try? fd.read(into: $0, at: 0)) ?? 0 }
        return count > 0
            ? String(decoding: buffer[..<count], as: UTF8.self) : "it could not be decoded before"
    }

    /// Removes the thumbnails of content `hash` (its asset was purged). What cannot be
    /// looked at or removed stays: the purge does not wait for a thumbnail.
    public func remove(hash: String) {
        for size in ThumbnailSize.allCases where (try? existingPath(hash: hash, size: size)) ?? nil != nil {
            try? Sys.unlinkIfPresent(path(hash: hash, size: size))
        }
        try? clearFailure(hash: hash)
    }

    func failureMarker(hash: String) -> BytePath {
        shard(hash).appending("\(hash).failed")
    }

    /// Forgets a failure once the content has decoded (a newer libheif, say).
    func clearFailure(hash: String) throws(SystemError) {
        let marker = failureMarker(hash: hash)
        if try Sys.statusIfExists(marker) != nil { try Sys.unlinkIfPresent(marker) }
    }

    /// Marks the content undecodable, with the decoder's reason. A marker that cannot
    /// be written leaves the content to be tried again: the decoder says why once more.
    func recordFailure(hash: String, reason: String) {
        let marker = failureMarker(hash: hash)
        guard (try? clearFailure(hash: hash)) != nil else { return }
        guard (try? Sys.makeDirectories(marker.parent)) != nil,
            let fd = try? Sys.createExclusive(marker, mode: 0o644)
        else { return }
        defer { fd.close() }
        try? fd.writeAll(Array(reason.utf8.prefix(512)))
    }

    private func shard(_ hash: String) -> BytePath {
        folder.appending(String(hash.prefix(2)))
    }
}
