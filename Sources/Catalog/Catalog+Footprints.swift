import PhotoFilerSystem

/// The few fields that comparing the catalog with the disk needs, per asset: a
/// start-up with 100,000 assets reads these, not 100,000 full records.
public struct AssetFootprint: Sendable, Equatable {
    public var id: AssetID
    public var rollPath: BytePath
    public var size: Int64
    public var isDeleted: Bool
    /// A Live Photo's paired video in the Roll, and its size.
    public var liveVideoPath: BytePath?
    public var liveVideoSize: Int64?
}

extension Catalog {
    /// Every asset's footprint, deleted ones included, in id order.
    public func assetFootprints() throws(CatalogError) -> [AssetFootprint] {
        try connection.query(
            "SELECT id, roll_path, size, deleted_at IS NOT NULL, live_video_path, live_video_size FROM assets ORDER BY id",
            []
        ) {
            row throws(CatalogError) in
            AssetFootprint(
                id: row.int64(0), rollPath: row.path(1), size: row.int64(2), isDeleted: row.int(3) != 0,
                liveVideoPath: row.optionalPath(4), liveVideoSize: row.optionalInt64(5))
        }
    }
}
