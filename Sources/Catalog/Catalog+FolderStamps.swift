import PhotoFilerSystem

/// A folder of the Roll or an album as a reconcile last saw it (Schema.folderStamps).
public struct FolderStamp: Sendable, Equatable {
    /// Relative to the library: `Roll/2024/05`, `Albums/QQ`.
    public var path: BytePath
    public var device: UInt64
    public var inode: UInt64
    public var modificationNanoseconds: Int64
    public var changeNanoseconds: Int64
    /// False: the folder is read at the next reconcile whatever its times say.
    public var trusted: Bool

    public init(path: BytePath, status: FileStatus, trusted: Bool) {
        self.init(
            path: path, device: status.device, inode: status.inode,
            modificationNanoseconds: status.modificationNanoseconds,
            changeNanoseconds: status.changeNanoseconds,
            trusted: trusted)
    }

    public init(
        path: BytePath, device: UInt64, inode: UInt64, modificationNanoseconds: Int64,
        changeNanoseconds: Int64,
        trusted: Bool
    ) {
        self.path = path
        self.device = device
        self.inode = inode
        self.modificationNanoseconds = modificationNanoseconds
        self.changeNanoseconds = changeNanoseconds
        self.trusted = trusted
    }

    /// The folder has the same identity and times as when it was stamped.
    public func matches(_ status: FileStatus) -> Bool {
        device == status.device && inode == status.inode
            && modificationNanoseconds == status.modificationNanoseconds
            && changeNanoseconds == status.changeNanoseconds
    }
}

/// One live asset as a reconcile compares it with the disk, with its recorded hash.
public struct LiveAssetFootprint: Sendable {
    public var id: AssetID
    public var rollPath: BytePath
    public var size: Int64
    public var hash: String
    public var liveVideoPath: BytePath?
    public var liveVideoSize: Int64?
    public var liveVideoHash: String?
}

extension Catalog {
    /// Every stored folder stamp.
    public func folderStamps() throws(CatalogError) -> [FolderStamp] {
        try connection.query(
            "SELECT path, device, inode, mtime_ns, ctime_ns, trusted FROM folder_stamps", []
        ) { row throws(CatalogError) in
            FolderStamp(
                path: row.path(0), device: UInt64(bitPattern: row.int64(1)),
                inode: UInt64(bitPattern: row.int64(2)), modificationNanoseconds: row.int64(3),
                changeNanoseconds: row.int64(4), trusted: row.int(5) != 0)
        }
    }

    /// Replaces every stamp with `stamps`, in one transaction.
    public func replaceFolderStamps(_ stamps: [FolderStamp]) throws(CatalogError) {
        try write { () throws(CatalogError) in
            try update("DELETE FROM folder_stamps", [])
            for stamp in stamps {
                try update(
                    """
                    INSERT OR REPLACE INTO folder_stamps (path, device, inode, mtime_ns, ctime_ns, trusted)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .path(stamp.path), .integer(Int64(bitPattern: stamp.device)),
                        .integer(Int64(bitPattern: stamp.inode)), .integer(stamp.modificationNanoseconds),
                        .integer(stamp.changeNanoseconds), .bool(stamp.trusted),
                    ])
            }
        }
    }

    /// The sequence number of the newest change logged in `asset_changes` (0 when none).
    public func latestChangeSequence() throws(CatalogError) -> Int64 {
        try connection.queryFirst("SELECT COALESCE(MAX(seq), 0) FROM asset_changes", []) { $0.int64(0) } ?? 0
    }

    /// The assets changed after `sequence`, or nil when the bounded log no longer
    /// reaches back that far (some changes are not known).
    public func assetsChanged(after sequence: Int64) throws(CatalogError) -> Set<AssetID>? {
        let latest = try latestChangeSequence()
        if latest <= sequence { return [] }
        let oldest = try connection.queryFirst("SELECT MIN(seq) FROM asset_changes", []) { $0.int64(0) } ?? 0
        guard oldest <= sequence + 1 else { return nil }
        return Set(
            try connection.query("SELECT asset_id FROM asset_changes WHERE seq > ?", [.integer(sequence)]) {
                $0.int64(0)
            })
    }

    /// Calls `body` with every live asset in roll-path order, one row at a time (a
    /// million assets are compared without a million-element array); `body` returns
    /// false to stop.
    public func forEachLiveAsset(_ body: (LiveAssetFootprint) -> Bool) throws(CatalogError) {
        try connection.withStatement(
            """
            SELECT id, roll_path, size, hash, live_video_path, live_video_size, live_video_hash
            FROM assets WHERE deleted_at IS NULL ORDER BY roll_path
            """, []
        ) { row throws(CatalogError) in
            while try row.step() {
                let asset = LiveAssetFootprint(
                    id: row.int64(0), rollPath: row.path(1), size: row.int64(2), hash: row.text(3),
                    liveVideoPath: row.optionalPath(4), liveVideoSize: row.optionalInt64(5),
                    liveVideoHash: row.optionalText(6))
                guard body(asset) else { return }
            }
        }
    }

    /// The active memberships of live assets in one album: the still's entry name,
    /// the video's (a Live Photo's), the asset, and the roll paths they link to.
    public func forEachActiveEntry(
        inAlbum id: AlbumID,
        _ body: (
            _ entry: BytePath, _ videoEntry: BytePath?, _ asset: AssetID, _ rollPath: BytePath,
            _ videoPath: BytePath?
        ) -> Void
    ) throws(CatalogError) {
        try connection.withStatement(
            """
            SELECT m.entry_name, m.video_entry_name, m.asset_id, a.roll_path, a.live_video_path FROM memberships m
            JOIN assets a ON a.id = m.asset_id
            WHERE m.album_id = ? AND m.removed_at IS NULL AND a.deleted_at IS NULL
            """, [.integer(id)]
        ) { row throws(CatalogError) in
            while try row.step() {
                body(row.path(0), row.optionalPath(1), row.int64(2), row.path(3), row.optionalPath(4))
            }
        }
    }

    /// The entries a deletion recorded but not finished may have left in the album
    /// (a crash between its record and its unlinks): each entry name of its deleted
    /// assets' active memberships (a Live Photo's two), with the asset and the
    /// Recently Deleted file that keeps those bytes (nil when none does). From the
    /// assets in Recently Deleted (30 days of deletions) to their membership in the album:
    /// CROSS JOIN keeps SQLite from walking the album's members, a million maybe.
    public func entriesOfDeletedMembers(inAlbum id: AlbumID) throws(CatalogError) -> [BytePath: (
        asset: AssetID, keptAt: BytePath?
    )] {
        var entries: [BytePath: (asset: AssetID, keptAt: BytePath?)] = [:]
        try connection.withStatement(
            """
            SELECT m.entry_name, m.video_entry_name, m.asset_id, a.trash_path, a.live_video_trash_path
            FROM assets a CROSS JOIN memberships m ON m.asset_id = a.id AND m.album_id = ?
            WHERE a.deleted_at IS NOT NULL AND m.removed_at IS NULL
            """, [.integer(id)]
        ) { row throws(CatalogError) in
            while try row.step() {
                let asset = row.int64(2)
                entries[row.path(0)] = (asset, row.optionalPath(3))
                if let video = row.optionalPath(1) { entries[video] = (asset, row.optionalPath(4)) }
            }
        }
        return entries
    }
}
