extension Schema {
    /// Live Photos (photofiler(1) "Live Photos"): an asset may carry a second resource, its
    /// video: a paired MOV in the Roll beside the still (path, hash, size, its own
    /// entry in each album) or a motion photo's video inside the still's own file
    /// (an offset, no path). `content_identifier` is Apple's pairing key, kept on
    /// the still and on a video still waiting for its still.
    ///
    /// `assets_live` is the Live Photos smart album's partial index: its WHERE clause
    /// must match `SmartAlbum.livePhotos`' predicate word for word.
    static let livePhotos = """
        ALTER TABLE assets ADD COLUMN content_identifier TEXT;
        ALTER TABLE assets ADD COLUMN live_video_path BLOB;
        ALTER TABLE assets ADD COLUMN live_video_hash TEXT;
        ALTER TABLE assets ADD COLUMN live_video_size INTEGER;
        ALTER TABLE assets ADD COLUMN live_video_duration REAL;
        ALTER TABLE assets ADD COLUMN live_video_offset INTEGER;
        ALTER TABLE assets ADD COLUMN live_video_name BLOB;
        ALTER TABLE assets ADD COLUMN live_video_trash_path BLOB;
        ALTER TABLE memberships ADD COLUMN video_entry_name BLOB;
        CREATE INDEX assets_content_identifier ON assets(content_identifier)
            WHERE content_identifier IS NOT NULL AND deleted_at IS NULL;
        CREATE UNIQUE INDEX assets_live_video_hash ON assets(live_video_hash) WHERE live_video_hash IS NOT NULL;
        CREATE UNIQUE INDEX assets_live_video_path ON assets(live_video_path)
            WHERE live_video_path IS NOT NULL AND deleted_at IS NULL;
        CREATE INDEX assets_live ON assets(added_at)
            WHERE deleted_at IS NULL AND instr(',' || subtypes || ',', ',live,') > 0;
        """
}
