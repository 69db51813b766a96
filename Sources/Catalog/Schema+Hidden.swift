extension Schema {
    /// Version 11: an asset may be hidden (`photofiler hide`), as a phone's Hide: it
    /// keeps its files and memberships but leaves every listing except the Hidden
    /// smart album. Kept only here, like `favorite`; a change of it is logged as any
    /// edit, so an open gallery drops or shows the asset again.
    ///
    /// `assets_hidden` is the Hidden smart album's partial index, and what an album's
    /// count starts from to subtract its hidden members: its WHERE clause must match
    /// `SmartAlbum.hidden`'s predicate word for word.
    static let hidden = """
        ALTER TABLE assets ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX assets_hidden ON assets(added_at) WHERE deleted_at IS NULL AND hidden = 1;
        DROP TRIGGER IF EXISTS asset_edited;
        CREATE TRIGGER asset_edited AFTER UPDATE OF roll_path, favorite, hidden, created_at, media_type, subtypes
            ON assets
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.id, 'changed');
        END;
        """
}
