/// The SQLite index of the library (`.photofiler/catalog.sqlite`, WAL).
///
/// The files on disk are the truth; this is an index that can be rebuilt from
/// them. One connection, owned by whoever created it and used from one serial
/// queue only (a sqlite3 handle must not be shared across threads here).
public final class Catalog {
    /// The schema this build writes; older ones are migrated on open, newer ones refused.
    public static let schemaVersion = 1

    /// Opens (creating when missing) the catalog and migrates it to `schemaVersion`.
    public init(path: BytePath) throws(CatalogError) { fatalError("to be written") }

    /// Runs `body` in one `BEGIN IMMEDIATE … COMMIT` transaction (rolled back on a throw).
    public func transaction<R>(_ body: () throws -> R) throws -> R { fatalError("to be written") }

    // MARK: Assets

    /// Inserts a new asset (the record's `id` is ignored) and returns its new id.
    public func insertAsset(_ asset: AssetRecord) throws(CatalogError) -> AssetID { fatalError("to be written") }
    public func asset(id: AssetID) throws(CatalogError) -> AssetRecord? { fatalError("to be written") }
    public func asset(hash: String) throws(CatalogError) -> AssetRecord? { fatalError("to be written") }
    public func asset(rollPath: BytePath) throws(CatalogError) -> AssetRecord? { fatalError("to be written") }
    /// Every asset, deleted ones included, in id order (for reconciling and `check`).
    public func allAssets() throws(CatalogError) -> [AssetRecord] { fatalError("to be written") }
    public func setRollPath(_ rollPath: BytePath, of id: AssetID) throws(CatalogError) { fatalError("to be written") }
    /// Marks the asset deleted at `time`; `trashPath` is where its bytes are kept, if anywhere.
    public func markDeleted(_ id: AssetID, at time: Double, trashPath: BytePath?) throws(CatalogError) {
        fatalError("to be written")
    }
    /// Clears the deletion and points the asset at `rollPath` again.
    public func markRestored(_ id: AssetID, rollPath: BytePath) throws(CatalogError) { fatalError("to be written") }
    public func setFavorite(_ favorite: Bool, of id: AssetID) throws(CatalogError) { fatalError("to be written") }
    /// Removes the row for good (purge after 30 days); the id is never reused.
    public func removeAsset(_ id: AssetID) throws(CatalogError) { fatalError("to be written") }
    /// Assets deleted before `time` (for the 30-day purge).
    public func assetsDeleted(before time: Double) throws(CatalogError) -> [AssetRecord] { fatalError("to be written") }
    /// Assets matching the query, newest first (by added or created date, then id).
    public func assets(matching query: AssetQuery) throws(CatalogError) -> [AssetRecord] { fatalError("to be written") }

    // MARK: Albums

    public func album(named name: String) throws(CatalogError) -> AlbumRecord? { fatalError("to be written") }
    public func album(id: AlbumID) throws(CatalogError) -> AlbumRecord? { fatalError("to be written") }
    public func createAlbum(name: String, folderName: BytePath, at time: Double) throws(CatalogError) -> AlbumRecord {
        fatalError("to be written")
    }
    public func albums() throws(CatalogError) -> [AlbumRecord] { fatalError("to be written") }
    /// User albums (by name) then the smart albums in `SmartAlbum.allCases` order.
    public func albumSummaries(now: Double) throws(CatalogError) -> [AlbumSummary] { fatalError("to be written") }

    // MARK: Memberships

    public func membership(asset: AssetID, album: AlbumID) throws(CatalogError) -> MembershipRecord? {
        fatalError("to be written")
    }
    /// Adds the membership, or revives an ended one with the new entry name and time.
    public func addMembership(asset: AssetID, album: AlbumID, entryName: BytePath, at time: Double) throws(CatalogError)
    {
        fatalError("to be written")
    }
    /// Ends the membership (sets `removedAt`); the row stays so it is not re-added.
    public func endMembership(asset: AssetID, album: AlbumID, at time: Double) throws(CatalogError) {
        fatalError("to be written")
    }
    /// Active and ended memberships of one asset.
    public func memberships(ofAsset id: AssetID) throws(CatalogError) -> [MembershipRecord] { fatalError("to be written") }
    /// Active and ended memberships of one album.
    public func memberships(inAlbum id: AlbumID) throws(CatalogError) -> [MembershipRecord] { fatalError("to be written") }
    /// Names of the albums the asset is an active member of, sorted.
    public func albumNames(ofAsset id: AssetID) throws(CatalogError) -> [String] { fatalError("to be written") }

    // MARK: Keep-mode sources

    /// True when this inbox path was filed before with exactly this size and mtime.
    public func hasSeenSource(path: BytePath, size: Int64, modificationNanoseconds: Int64) throws(CatalogError) -> Bool {
        fatalError("to be written")
    }
    /// Remembers an inbox path (replacing an older entry for the same path).
    public func recordSource(path: BytePath, size: Int64, modificationNanoseconds: Int64, asset: AssetID)
        throws(CatalogError)
    {
        fatalError("to be written")
    }
}
