/// A `share` link as the catalog keeps it: the token's hash, never the token.
public struct ShareRecord: Sendable, Equatable {
    /// SHA-256 of the token, lowercase hex.
    public var tokenHash: String
    public var album: AlbumID
    public var createdAt: Double
    /// Seconds since the epoch; nil: until revoked.
    public var expiresAt: Double?

    public init(tokenHash: String, album: AlbumID, createdAt: Double, expiresAt: Double?) {
        self.tokenHash = tokenHash
        self.album = album
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public func isValid(at now: Double) -> Bool { expiresAt.map { now < $0 } ?? true }
}

extension Catalog {
    private static let shareColumns = "hash, album_id, created_at, expires_at"

    private func decodeShare(_ row: Statement) -> ShareRecord {
        ShareRecord(
            tokenHash: row.text(0), album: row.int64(1), createdAt: row.double(2),
            expiresAt: row.optionalDouble(3))
    }

    public func insertShare(_ share: ShareRecord) throws(CatalogError) {
        try update(
            "INSERT INTO share_tokens (\(Self.shareColumns)) VALUES (?, ?, ?, ?)",
            [.text(share.tokenHash), .integer(share.album), .real(share.createdAt), .real(share.expiresAt)])
    }

    /// The share whose token hashes to `tokenHash`, expired or not.
    public func share(tokenHash: String) throws(CatalogError) -> ShareRecord? {
        try connection.queryFirst(
            "SELECT \(Self.shareColumns) FROM share_tokens WHERE hash = ?", [.text(tokenHash)]
        ) { decodeShare($0) }
    }

    /// Every share, oldest first.
    public func shares() throws(CatalogError) -> [ShareRecord] {
        try connection.query("SELECT \(Self.shareColumns) FROM share_tokens ORDER BY created_at, hash") {
            decodeShare($0)
        }
    }

    /// Ends the share at once; false when there was none with that hash.
    public func removeShare(tokenHash: String) throws(CatalogError) -> Bool {
        try write { () throws(CatalogError) in
            try connection.execute("DELETE FROM share_tokens WHERE hash = ?", [.text(tokenHash)])
            return connection.changes > 0
        }
    }
}
