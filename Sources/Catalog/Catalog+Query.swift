extension SmartAlbum {
    /// Recently Added looks back this far from "now".
    package static let recentWindow: Double = 30 * 24 * 60 * 60

    /// The SQL condition on `assets a` for membership, deletion and hiding included.
    ///
    /// Written out literally (no bound parameters except the Recently Added
    /// cut-off, which is a range on an index column) because SQLite only uses a
    /// partial index when the query repeats its WHERE terms: see `Schema.version1`.
    package func predicate(now: Double) -> (sql: String, values: [SQLiteValue]) {
        let shown = "a.deleted_at IS NULL AND a.hidden = 0"
        switch self {
        case .videos: return ("\(shown) AND a.media_type = 'video'", [])
        case .livePhotos: return ("\(shown) AND instr(',' || a.subtypes || ',', ',live,') > 0", [])
        case .animated: return ("\(shown) AND instr(',' || a.subtypes || ',', ',animated,') > 0", [])
        case .screenshots: return ("\(shown) AND instr(',' || a.subtypes || ',', ',screenshot,') > 0", [])
        case .panoramas, .selfies, .portraits, .bursts, .slomo, .timelapse, .raw:
            return ("\(shown) AND instr(',' || a.subtypes || ',', ',\(kindSubtype ?? ""),') > 0", [])
        case .recentlyAdded: return ("\(shown) AND a.added_at >= ?", [.real(now - Self.recentWindow)])
        case .favorites: return ("\(shown) AND a.favorite = 1", [])
        case .hidden: return ("a.deleted_at IS NULL AND a.hidden = 1", [])
        // Only what can be restored: an asset deleted with nothing left has no trash path.
        // A hidden one stays out of sight here too; `restore ID` still brings it back.
        case .recentlyDeleted:
            return ("a.deleted_at IS NOT NULL AND a.trash_path IS NOT NULL AND a.hidden = 0", [])
        }
    }
}

extension SmartAlbum {
    /// The subtype that puts an asset in this album, for the albums of a kind of picture.
    public var kindSubtype: String? {
        switch self {
        case .panoramas: return "panorama"
        case .selfies: return "selfie"
        case .portraits: return "portrait"
        case .bursts: return "burst"
        case .slomo: return "slomo"
        case .timelapse: return "timelapse"
        case .raw: return "raw"
        case .videos, .livePhotos, .animated, .screenshots, .recentlyAdded, .favorites, .hidden,
            .recentlyDeleted:
            return nil
        }
    }
}

extension Catalog {
    /// Assets matching the query, newest first (by added or created date, then id).
    ///
    /// With an album, the walk goes down the membership index that carries the
    /// asset's sort keys, so it stops after `limit` rows; without one, down the
    /// assets' own index (a smart album's partial index when sorting by added).
    public func assets(matching query: AssetQuery) throws(CatalogError) -> [AssetRecord] {
        let (sql, values) = query.statement()
        return try selectAssets(sql, values)
    }

    /// User albums (by name) then the smart albums in `SmartAlbum.allCases` order.
    ///
    /// The cover is the member with the newest `added` date, the same asset
    /// `list --album NAME --limit 1` shows first.
    public func albumSummaries(now: Double) throws(CatalogError) -> [AlbumSummary] {
        var summaries: [AlbumSummary] = []
        for album in try albums() {
            // Active memberships minus those of deleted and of hidden assets: each
            // count reads a small index instead of every member's row. CROSS JOIN
            // makes SQLite start from the (few) deleted or hidden assets; left to
            // itself, without statistics, it walks every member and probes its asset
            // (~80 ms per 20k members instead of well under 1 ms).
            let count =
                try connection.queryFirst(
                    """
                    SELECT (SELECT count(*) FROM memberships WHERE album_id = ?1 AND removed_at IS NULL)
                         - (SELECT count(*) FROM assets a CROSS JOIN memberships m ON m.asset_id = a.id
                            WHERE a.deleted_at IS NOT NULL AND m.album_id = ?1 AND m.removed_at IS NULL)
                         - (SELECT count(*) FROM assets a CROSS JOIN memberships m ON m.asset_id = a.id
                            WHERE a.deleted_at IS NULL AND a.hidden = 1 AND m.album_id = ?1
                              AND m.removed_at IS NULL)
                    """, [.integer(album.id)]
                ) { $0.int(0) } ?? 0
            let cover = try connection.queryFirst(
                """
                SELECT m.asset_id FROM memberships m JOIN assets a ON a.id = m.asset_id
                WHERE m.album_id = ? AND m.removed_at IS NULL AND a.deleted_at IS NULL AND a.hidden = 0
                ORDER BY m.asset_added_at DESC, m.asset_id DESC LIMIT 1
                """, [.integer(album.id)]
            ) { $0.int64(0) }
            summaries.append(AlbumSummary(kind: .user(album), count: count, cover: cover))
        }
        for smart in SmartAlbum.allCases {
            let predicate = smart.predicate(now: now)
            let count =
                try connection.queryFirst(
                    "SELECT count(*) FROM assets a WHERE \(predicate.sql)", predicate.values
                ) {
                    $0.int(0)
                } ?? 0
            let cover = try connection.queryFirst(
                "SELECT a.id FROM assets a WHERE \(predicate.sql) ORDER BY a.added_at DESC, a.id DESC LIMIT 1",
                predicate.values
            ) { $0.int64(0) }
            summaries.append(AlbumSummary(kind: .smart(smart), count: count, cover: cover))
        }
        return summaries
    }
}

extension AssetQuery {
    /// The SELECT for this query (separate so tests can check its plan).
    package func statement() -> (sql: String, values: [SQLiteValue]) {
        var (sql, values) = rows(selecting: AssetRow.columns)
        switch (sort, album != nil) {
        case (.added, true): sql += " ORDER BY m.asset_added_at DESC, m.asset_id DESC"
        case (.created, true): sql += " ORDER BY m.asset_created_at DESC, m.asset_id DESC"
        case (.added, false): sql += " ORDER BY a.added_at DESC, a.id DESC"
        case (.created, false): sql += " ORDER BY a.created_at DESC, a.id DESC"
        }
        if let limit = limit {
            sql += " LIMIT ?"
            values.append(.int(max(0, limit)))
        }
        return (sql, values)
    }

    /// `SELECT columns FROM … WHERE …` of the matching rows, unordered: `assets a`,
    /// joined as `memberships m` for an album.
    package func rows(selecting columns: String) -> (sql: String, values: [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        var sql = "SELECT \(columns) FROM "
        if let album {
            sql += "memberships m JOIN assets a ON a.id = m.asset_id "
            conditions.append("m.album_id = ? AND m.removed_at IS NULL")
            values.append(.integer(album))
        } else {
            sql += "assets a "
        }
        if let smart = smartAlbum {
            let predicate = smart.predicate(now: now)
            conditions.append(predicate.sql)
            values += predicate.values
        } else {
            conditions.append("a.deleted_at IS NULL AND a.hidden = 0")
        }
        if let mediaType = mediaType {
            // A literal from a closed enum, so the Videos partial index can serve `--media video`.
            conditions.append("a.media_type = '\(mediaType.rawValue)'")
        }
        refinements.append(
            to: &conditions, &values, sortKey: sortKeyColumns,
            created: album != nil ? "m.asset_created_at" : "a.created_at")
        sql += "WHERE " + conditions.joined(separator: " AND ")
        return (sql, values)
    }

    /// The sort key and the id column that orders the rows, as the index holds them.
    private var sortKeyColumns: (key: String, id: String) {
        switch (sort, album != nil) {
        case (.added, true): return ("m.asset_added_at", "m.asset_id")
        case (.created, true): return ("m.asset_created_at", "m.asset_id")
        case (.added, false): return ("a.added_at", "a.id")
        case (.created, false): return ("a.created_at", "a.id")
        }
    }
}
