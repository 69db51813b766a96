extension Schema {
    /// Version 6: `asset_changes` checks its `kind` with comparisons instead of
    /// `IN (…)`. SQLite evaluates an `IN` list of three constants in a CHECK by
    /// building a temporary b-tree for every row written, and the change log
    /// writes two rows for each filed file: 136,500 instructions of SQL a filed
    /// file with it, 77,200 without (callgrind, 2,560 files through the filing
    /// transaction's statements). The same three kinds are allowed.
    ///
    /// SQLite cannot change a table's CHECK, so the table is made again: its rows
    /// and its AUTOINCREMENT sequence are copied, so a running `serve` keeps
    /// reading after the sequence number it has seen. The triggers that write
    /// to it are dropped first and made again after (a table that a trigger
    /// names cannot be renamed into place while the name is missing); one that
    /// is missing from a damaged file is simply made again.
    static let changeLogCheck =
        """
        DROP TRIGGER IF EXISTS asset_filed;
        DROP TRIGGER IF EXISTS asset_deleted;
        DROP TRIGGER IF EXISTS asset_restored;
        DROP TRIGGER IF EXISTS asset_edited;
        DROP TRIGGER IF EXISTS asset_purged;
        DROP TRIGGER IF EXISTS membership_started;
        DROP TRIGGER IF EXISTS membership_changed;
        CREATE TABLE asset_changes_checked (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            asset_id INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind = 'filed' OR kind = 'deleted' OR kind = 'changed')
        );
        INSERT INTO asset_changes_checked (seq, asset_id, kind) SELECT seq, asset_id, kind FROM asset_changes;
        DELETE FROM sqlite_sequence WHERE name = 'asset_changes_checked';
        INSERT INTO sqlite_sequence (name, seq)
            SELECT 'asset_changes_checked', seq FROM sqlite_sequence WHERE name = 'asset_changes';
        DROP TABLE asset_changes;
        ALTER TABLE asset_changes_checked RENAME TO asset_changes;

        """ + changeLogTriggers
}
