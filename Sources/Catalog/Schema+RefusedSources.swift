extension Schema {
    /// Version 9: the inbox files the daemon refused and reported, with the size
    /// each had then, so a restart's catch-up scan does not report them again
    /// (photofiler(1) "Content decides": a refused file is reported once). Only files still in an inbox
    /// are kept: the daemon drops a row whose file is gone or changed at start-up,
    /// and when its path is filed.
    static let refusedSources = """
        CREATE TABLE refused_sources (
            path BLOB PRIMARY KEY,
            size INTEGER NOT NULL
        ) WITHOUT ROWID;
        """
}
