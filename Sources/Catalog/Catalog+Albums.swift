import PhotoFilerSystem

extension Catalog {
    // MARK: Albums

    private static let albumColumns = "id, name, folder, created_at"

    private func decodeAlbum(_ row: Statement) -> AlbumRecord {
        AlbumRecord(id: row.int64(0), name: row.text(1), folderName: row.path(2), createdAt: row.double(3))
    }

    public func album(named name: String) throws(CatalogError) -> AlbumRecord? {
        try connection.queryFirst("SELECT \(Self.albumColumns) FROM albums WHERE name = ?", [.text(name)]) {
            decodeAlbum($0)
        }
    }

    public func album(id: AlbumID) throws(CatalogError) -> AlbumRecord? {
        try connection.queryFirst("SELECT \(Self.albumColumns) FROM albums WHERE id = ?", [.integer(id)]) {
            decodeAlbum($0)
        }
    }

    /// The album whose folder under `Albums/` is `folderName` (for reconciling a folder seen on disk).
    public func album(folderName: BytePath) throws(CatalogError) -> AlbumRecord? {
        try connection.queryFirst(
            "SELECT \(Self.albumColumns) FROM albums WHERE folder = ?", [.path(folderName)]
        ) {
            decodeAlbum($0)
        }
    }

    /// Creates the album; a name or folder that exists already fails with a
    /// UNIQUE violation (`isUniqueConstraintViolation`), never a second album.
    public func createAlbum(name: String, folderName: BytePath, at time: Double) throws(CatalogError)
        -> AlbumRecord
    {
        try write { () throws(CatalogError) in
            try connection.execute(
                "INSERT INTO albums (name, folder, created_at) VALUES (?, ?, ?)",
                [.text(name), .path(folderName), .real(time)])
            return AlbumRecord(
                id: connection.lastInsertRowID, name: name, folderName: folderName, createdAt: time)
        }
    }

    /// The album called `name`, created when missing; never a second one, across
    /// processes too. The look-up runs under the write lock (`BEGIN IMMEDIATE`), so
    /// of several processes creating the same new album at once the first creates
    /// it and the others find it. A row whose folder is `folderName` (an album
    /// created under another spelling before NFC) is that album.
    public func albumCreatingIfMissing(name: String, folderName: BytePath, at time: Double)
        throws(CatalogError) -> AlbumRecord
    {
        try write { () throws(CatalogError) in
            if let existing = try album(named: name) { return existing }
            if let existing = try album(folderName: folderName) { return existing }
            return try createAlbum(name: name, folderName: folderName, at: time)
        }
    }

    /// Every user album, by name.
    public func albums() throws(CatalogError) -> [AlbumRecord] {
        try connection.query("SELECT \(Self.albumColumns) FROM albums ORDER BY name") { decodeAlbum($0) }
    }
}
