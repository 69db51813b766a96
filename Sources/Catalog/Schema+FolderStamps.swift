extension Schema {
    /// Folder stamps (version 5): what the Roll's and the albums' folders looked like
    /// (device, inode, mtime, ctime) when a reconcile last found them agreeing with
    /// the catalog. A folder's times change whenever an entry is added, removed or
    /// renamed, so a folder whose stamp still matches holds the same names, and a
    /// start-up need not read it (`Reconciler`). `trusted = 0` keeps a folder in the
    /// tree (its parent's clean listing still leads to it) but has it read.
    ///
    /// The files are the truth and most changes reach the disk first (a filed file
    /// is linked before its row), which the folder's times show. Two are recorded
    /// in the catalog before any file moves (photofiler(1) "Deletion": `rm` and `rm --album`):
    /// the triggers distrust the folders they are about to change, so a process
    /// that dies between the catalog and the unlink leaves them to be read again.
    static let folderStamps = """
        CREATE TABLE folder_stamps (
            path BLOB PRIMARY KEY,
            device INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            ctime_ns INTEGER NOT NULL,
            trusted INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TRIGGER folder_stamps_asset_deleted AFTER UPDATE OF deleted_at ON assets
            WHEN NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL
        BEGIN
            UPDATE folder_stamps SET trusted = 0 WHERE trusted = 1 AND (
                (substr(NEW.roll_path, 1, length(path)) = path
                    AND substr(NEW.roll_path, length(path) + 1, 1) = x'2f')
                OR (NEW.live_video_path IS NOT NULL AND substr(NEW.live_video_path, 1, length(path)) = path
                    AND substr(NEW.live_video_path, length(path) + 1, 1) = x'2f'));
        END;
        CREATE TRIGGER folder_stamps_membership_ended AFTER UPDATE OF removed_at ON memberships
            WHEN NEW.removed_at IS NOT NULL AND OLD.removed_at IS NULL
        BEGIN
            UPDATE folder_stamps SET trusted = 0 WHERE trusted = 1
                AND substr(path, 1, 7) = CAST('Albums/' AS BLOB)
                AND substr(path, 8) = (SELECT folder FROM albums WHERE id = NEW.album_id);
        END;
        """
}
