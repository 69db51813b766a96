extension Schema {
    /// Version 11: the phone's kinds of pictures, and Hide.
    ///
    /// An asset may be hidden (`photofiler hide`), as a phone's Hide: it
    /// keeps its files and memberships but leaves every listing except the Hidden
    /// smart album. Kept only here, like `favorite`; a change of it is logged as any
    /// edit, so an open gallery drops or shows the asset again.
    ///
    /// `assets_hidden` is the Hidden smart album's partial index, and what an album's
    /// count starts from to subtract its hidden members: its WHERE clause must match
    /// `SmartAlbum.hidden`'s predicate word for word.
    ///
    /// Each smart album of a kind of picture (a subtype: `panorama`, `selfie`, `portrait`,
    /// `burst`, `slomo`, `timelapse`, `raw`) has its partial index as Videos and
    /// Screenshots have, so its count and cover read only its members.
    static let hiddenAndKinds = """
        ALTER TABLE assets ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX assets_hidden ON assets(added_at) WHERE deleted_at IS NULL AND hidden = 1;
        DROP TRIGGER IF EXISTS asset_edited;
        CREATE TRIGGER asset_edited AFTER UPDATE OF roll_path, favorite, hidden, created_at, media_type, subtypes
            ON assets
        BEGIN
            INSERT INTO asset_changes (asset_id, kind) VALUES (NEW.id, 'changed');
        END;
        CREATE INDEX assets_panoramas ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',panorama,') > 0;
        CREATE INDEX assets_selfies ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',selfie,') > 0;
        CREATE INDEX assets_portraits ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',portrait,') > 0;
        CREATE INDEX assets_bursts ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',burst,') > 0;
        CREATE INDEX assets_slomo ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',slomo,') > 0;
        CREATE INDEX assets_timelapse ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',timelapse,') > 0;
        CREATE INDEX assets_raw ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',raw,') > 0;
        """
}
