extension Schema {
    /// Version 8: whether an asset's entry in an album was a symbolic link when the
    /// asset went to Recently Deleted, so `restore` makes it again as it was rather
    /// than as a hard link. Written only when an asset is deleted; 0 (hard) for
    /// every membership before this version, as `restore` made them then.
    static let symbolicEntries = """
        ALTER TABLE memberships ADD COLUMN symbolic INTEGER NOT NULL DEFAULT 0;
        """
}
