import PhotoFilerSystem

/// The content hash of an asset that is in the library (not deleted): what its
/// thumbnails are named by.
public struct AssetHash: Sendable, Equatable {
    public var id: AssetID
    public var hash: String
}

extension Catalog {
    /// Every asset not deleted, id and hash only, oldest first: the thumbnail queue
    /// compares these with the files under `.photofiler/thumbnails/` at start-up.
    public func liveAssetHashes() throws(CatalogError) -> [AssetHash] {
        try connection.query("SELECT id, hash FROM assets WHERE deleted_at IS NULL ORDER BY id", []) {
            row throws(CatalogError) in AssetHash(id: row.int64(0), hash: row.text(1))
        }
    }

    /// `liveAssetHashes` one row at a time, for scans that keep only a few of them
    /// (a million assets at start-up, nearly all with their thumbnails made);
    /// `body` returns false to stop.
    public func forEachLiveAssetHash(_ body: (AssetHash) -> Bool) throws(CatalogError) {
        try connection.withStatement("SELECT id, hash FROM assets WHERE deleted_at IS NULL ORDER BY id", []) {
            row throws(CatalogError) in
            while try row.step() {
                guard body(AssetHash(id: row.int64(0), hash: row.text(1))) else { return }
            }
        }
    }
}
