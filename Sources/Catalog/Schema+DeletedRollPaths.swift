extension Schema {
    /// Version 7: the old roll paths of deleted assets get their own partial
    /// index, and the full `assets_roll_path` goes.
    ///
    /// A live asset is found by its roll path through the unique
    /// `assets_live_roll_path`; only a restore asks for the path a deleted asset
    /// had. The full index wrote a second random-keyed b-tree entry for every
    /// filed file, and with roll paths spread over the months of their capture
    /// dates each one dirtied its own page: 1.3 KiB more written a filed file
    /// (10,000-file bursts) and about 10 µs of SQLite's CPU an insert (10,000
    /// rows of a bench catalog, 250 a transaction). The partial index is written
    /// only when an asset is deleted.
    static let deletedRollPaths = """
        DROP INDEX IF EXISTS assets_roll_path;
        CREATE INDEX assets_deleted_roll_path ON assets(roll_path) WHERE deleted_at IS NOT NULL;
        """
}
