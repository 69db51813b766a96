import PhotoFilerSystem

extension Catalog {
    // MARK: Refused inbox files

    /// Every inbox file refused and reported, with the size it had then.
    public func refusedSources() throws(CatalogError) -> [(path: BytePath, size: Int64)] {
        try connection.query("SELECT path, size FROM refused_sources", []) { row throws(CatalogError) in
            (path: row.path(0), size: row.int64(1))
        }
    }

    /// Remembers that the file at `path`, of `size` bytes, was refused and reported.
    public func recordRefusal(path: BytePath, size: Int64) throws(CatalogError) {
        try update(
            "INSERT INTO refused_sources (path, size) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET size = excluded.size",
            [.path(path), .integer(size)])
    }

    /// Forgets the refusals of `paths` (filed now, or gone), in one transaction.
    public func forgetRefusals(_ paths: [BytePath]) throws(CatalogError) {
        try write { () throws(CatalogError) in
            for path in paths { try update("DELETE FROM refused_sources WHERE path = ?", [.path(path)]) }
        }
    }
}
