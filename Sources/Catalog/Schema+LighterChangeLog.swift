extension Schema {
    /// Version 10: the change log costs a filed file one row, not two, and trims
    /// itself every 64th row instead of after every row.
    ///
    /// A file filed into its album wrote a `filed` row for its asset and a `changed` row for its
    /// membership, each with `AUTOINCREMENT`'s sequence and each running the trim's `DELETE`: the
    /// filing's catalog step took 137,200 instructions a file, 124,000 without (callgrind of `save`
    /// of 500 files into a library past the log's bound). A membership that begins at the moment
    /// its asset was added (the filer gives a new asset's album entries the asset's own `added_at`,
    /// in the transaction that inserts it) is part of that filing: a reader of the `filed` row
    /// reads the asset with its albums, so it is not logged again. A membership added later
    /// (another album, a Live Photo's pairing, an entry adopted by a reconcile) starts at a later
    /// time and is logged as before. The log still keeps at least the newest 4,096 rows (at most 63
    /// more), so a reader that fell further behind still reloads.
    static let lighterChangeLog = """
        DROP TRIGGER IF EXISTS asset_changes_bounded;
        CREATE TRIGGER asset_changes_bounded AFTER INSERT ON asset_changes
            WHEN NEW.seq % 64 = 0
        BEGIN
            DELETE FROM asset_changes WHERE seq <= NEW.seq - 4096;
        END;
        DROP TRIGGER IF EXISTS membership_started;
        CREATE TRIGGER membership_started AFTER INSERT ON memberships
            WHEN NEW.added_at IS NOT NEW.asset_added_at
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.asset_id, 'changed');
        END;
        """
}
