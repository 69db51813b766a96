import PhotoFilerSystem

extension Catalog {
    // MARK: Memberships

    private static let membershipColumns =
        "asset_id, album_id, entry_name, added_at, removed_at, video_entry_name, symbolic"

    private func decodeMembership(_ row: Statement) -> MembershipRecord {
        MembershipRecord(
            assetID: row.int64(0), albumID: row.int64(1), entryName: row.path(2), addedAt: row.double(3),
            removedAt: row.optionalDouble(4), videoEntryName: row.optionalPath(5), symbolic: row.int64(6) != 0
        )
    }

    /// Notes whether the asset's entry in the album is a symbolic link, as its
    /// deletion finds it, for `restore`.
    public func setSymbolic(_ symbolic: Bool, asset: AssetID, album: AlbumID) throws(CatalogError) {
        try update(
            "UPDATE memberships SET symbolic = ? WHERE asset_id = ? AND album_id = ?",
            [.integer(symbolic ? 1 : 0), .integer(asset), .integer(album)])
    }

    public func membership(asset: AssetID, album: AlbumID) throws(CatalogError) -> MembershipRecord? {
        try connection.queryFirst(
            "SELECT \(Self.membershipColumns) FROM memberships WHERE asset_id = ? AND album_id = ?",
            [.integer(asset), .integer(album)]
        ) { decodeMembership($0) }
    }

    /// Adds the membership, or revives an ended one with the new entry name and time.
    ///
    /// On an active membership only the entry name changes: the album already
    /// shows the asset, and its place in the album stays. The asset's sort keys
    /// are copied in so album listings need no sort (see `Schema.version1`).
    public func addMembership(asset: AssetID, album: AlbumID, entryName: BytePath, at time: Double)
        throws(CatalogError)
    {
        try update(
            Self.upsertMembershipLookingUpKeys,
            [.integer(asset), .integer(album), .path(entryName), .real(time)])
    }

    /// `addMembership(asset:album:entryName:at:)` for an asset inserted in this
    /// transaction: the membership begins when the asset was added (so the change
    /// log's `filed` row tells it, `Schema.lighterChangeLog`), and the asset's sort
    /// keys are the ones the caller holds, not two look-ups of the row just inserted.
    public func addMembership(ofNew asset: AssetRecord, album: AlbumID, entryName: BytePath)
        throws(CatalogError)
    {
        try update(
            Self.upsertNewAssetMembership,
            [
                .integer(asset.id), .integer(album), .path(entryName), .real(asset.addedAt),
                .integer(asset.created.secondsSinceEpoch),
            ])
    }

    private static let upsertMembershipLookingUpKeys = upsertMembership(
        sortKeys: "(SELECT added_at FROM assets WHERE id = ?1), (SELECT created_at FROM assets WHERE id = ?1)"
    )
    private static let upsertNewAssetMembership = upsertMembership(sortKeys: "?4, ?5")

    /// The one statement of both: `?1` to `?4` are the asset, the album, the
    /// entry name and the time; `sortKeys` gives `asset_added_at, asset_created_at`.
    private static func upsertMembership(sortKeys: String) -> String {
        """
        INSERT INTO memberships
            (asset_id, album_id, entry_name, added_at, removed_at, asset_added_at, asset_created_at)
        VALUES (?1, ?2, ?3, ?4, NULL, \(sortKeys))
        ON CONFLICT (asset_id, album_id) DO UPDATE SET
            entry_name = excluded.entry_name,
            added_at = CASE WHEN removed_at IS NULL THEN added_at ELSE excluded.added_at END,
            removed_at = NULL
        """
    }

    /// Ends the membership (sets `removedAt`); the row stays so it is not re-added.
    /// An already ended one keeps its first end time.
    public func endMembership(asset: AssetID, album: AlbumID, at time: Double) throws(CatalogError) {
        try update(
            "UPDATE memberships SET removed_at = ? WHERE asset_id = ? AND album_id = ? AND removed_at IS NULL",
            [.real(time), .integer(asset), .integer(album)])
    }

    /// Active and ended memberships of one asset.
    public func memberships(ofAsset id: AssetID) throws(CatalogError) -> [MembershipRecord] {
        try connection.query(
            "SELECT \(Self.membershipColumns) FROM memberships WHERE asset_id = ? ORDER BY album_id",
            [.integer(id)]
        ) { decodeMembership($0) }
    }

    /// Active and ended memberships of one album.
    public func memberships(inAlbum id: AlbumID) throws(CatalogError) -> [MembershipRecord] {
        try connection.query(
            "SELECT \(Self.membershipColumns) FROM memberships WHERE album_id = ? ORDER BY asset_id",
            [.integer(id)]
        ) { decodeMembership($0) }
    }

    /// Names of the albums the asset is an active member of, sorted.
    public func albumNames(ofAsset id: AssetID) throws(CatalogError) -> [String] {
        try connection.query(
            """
            SELECT al.name FROM memberships m JOIN albums al ON al.id = m.album_id
            WHERE m.asset_id = ? AND m.removed_at IS NULL ORDER BY al.name
            """, [.integer(id)]
        ) { $0.text(0) }
    }
}
