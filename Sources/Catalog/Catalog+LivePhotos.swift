import PhotoFilerMediaTypes
import PhotoFilerSystem

/// The catalog's side of Live Photos: finding the halves that belong together and
/// making them one asset (photofiler(1) "Live Photos").
extension Catalog {
    /// The asset whose paired video has these bytes.
    public func asset(liveVideoHash hash: String) throws(CatalogError) -> AssetRecord? {
        try firstAsset(AssetLookups.byLiveVideoHash, [.text(hash)])
    }

    /// The assets these bytes belong to: the one whose content they are, and the
    /// Live Photo whose paired video they are. One look-up, since filing asks both
    /// of every file.
    public func owners(ofContent hash: String) throws(CatalogError) -> ContentOwners {
        let path = connection.path
        let rows = try connection.query(AssetLookups.byHashOrLiveVideoHash, [.text(hash)]) {
            row throws(CatalogError) in try AssetRow.decode(row, path: path)
        }
        var owners = ContentOwners()
        for asset in rows {
            if asset.hash == hash { owners.asset = asset }
            if asset.liveVideo?.hash == hash { owners.liveVideoOwner = asset }
        }
        return owners
    }

    /// The live asset whose paired video is at `rollPath`, else the newest deleted one.
    public func asset(liveVideoPath rollPath: BytePath) throws(CatalogError) -> AssetRecord? {
        if let live = try firstAsset(AssetLookups.liveByLiveVideoPath, [.path(rollPath)]) { return live }
        return try firstAsset(AssetLookups.newestByLiveVideoPath, [.path(rollPath)])
    }

    /// The oldest live still with this identifier that has no video yet.
    public func unpairedStill(contentIdentifier: String) throws(CatalogError) -> AssetRecord? {
        try firstAsset(AssetLookups.oldestUnpairedStill, [.text(contentIdentifier)])
    }

    /// The oldest live video with this identifier still filed on its own.
    public func loneVideo(contentIdentifier: String) throws(CatalogError) -> AssetRecord? {
        try firstAsset(AssetLookups.oldestLoneVideo, [.text(contentIdentifier)])
    }

    /// Identifiers that have both an unpaired still and a lone video: halves that a
    /// crash, or a catalog rebuilt from the files, left apart.
    public func identifiersWaitingToPair() throws(CatalogError) -> [String] {
        try connection.query(
            """
            SELECT DISTINCT s.content_identifier FROM assets s JOIN assets v
                ON v.content_identifier = s.content_identifier AND v.deleted_at IS NULL AND v.media_type = 'video'
            WHERE s.content_identifier IS NOT NULL AND s.deleted_at IS NULL AND s.media_type = 'image'
                AND s.live_video_size IS NULL
            ORDER BY s.content_identifier
            """, []
        ) { $0.text(0) }
    }

    /// Makes `video` the asset's paired video: it becomes subtype `live`.
    public func attachLiveVideo(_ video: LiveVideoRecord, to id: AssetID) throws(CatalogError) {
        try write { () throws(CatalogError) in
            try connection.execute(
                """
                UPDATE assets SET live_video_path = ?, live_video_hash = ?, live_video_size = ?,
                    live_video_duration = ?, live_video_offset = ?, live_video_name = ?, live_video_trash_path = ?
                WHERE id = ?
                """, AssetRow.liveVideoValues(video) + [.integer(id)])
            try setLiveSubtype(true, of: id)
        }
    }

    /// The paired video is gone: a plain still again, without video entries in its albums.
    public func detachLiveVideo(of id: AssetID) throws(CatalogError) {
        try write { () throws(CatalogError) in
            try connection.execute(
                AssetRow.clearLiveVideo + " WHERE id = ?", [.integer(id)])
            try connection.execute(
                "UPDATE memberships SET video_entry_name = NULL WHERE asset_id = ?", [.integer(id)])
            try setLiveSubtype(false, of: id)
        }
    }

    /// Where the paired video is now: moved within the Roll, into Recently Deleted or back.
    public func setLiveVideoLocation(of id: AssetID, rollPath: BytePath, trashPath: BytePath?)
        throws(CatalogError)
    {
        try update(
            "UPDATE assets SET live_video_path = ?, live_video_trash_path = ? WHERE id = ?",
            [.path(rollPath), .path(trashPath), .integer(id)])
    }

    /// The album entry that links the asset's paired video (nil: none).
    public func setVideoEntry(_ name: BytePath?, asset: AssetID, album: AlbumID) throws(CatalogError) {
        try update(
            "UPDATE memberships SET video_entry_name = ? WHERE asset_id = ? AND album_id = ?",
            [.path(name), .integer(asset), .integer(album)])
    }

    /// A lone video joined its still: its row goes (its id is never reused) and the
    /// inbox paths that brought it now lead to the still's asset.
    public func retireAsset(_ id: AssetID, joining still: AssetID) throws(CatalogError) {
        try write { () throws(CatalogError) in
            try connection.execute(
                "UPDATE seen_sources SET asset_id = ? WHERE asset_id = ?", [.integer(still), .integer(id)])
            try connection.execute("DELETE FROM assets WHERE id = ?", [.integer(id)])
        }
    }

    private func setLiveSubtype(_ live: Bool, of id: AssetID) throws(CatalogError) {
        guard let asset = try asset(id: id) else { return }
        var subtypes = Set(asset.info.subtypes)
        if live { subtypes.insert(MediaInfo.liveSubtype) } else { subtypes.remove(MediaInfo.liveSubtype) }
        try connection.execute(
            "UPDATE assets SET subtypes = ? WHERE id = ?",
            [.text(subtypes.sorted().joined(separator: ",")), .integer(id)])
    }
}
