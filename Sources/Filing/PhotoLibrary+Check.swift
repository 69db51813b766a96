import PhotoFilerCatalog

/// `check` and `check --repair`: the catalog compared with the disk, in one sequence.
extension PhotoLibrary {
    /// What a check found, and with `repair`, what it mended and what is left.
    public struct CheckReport: Sendable {
        /// Every difference found (hashes verified).
        public var differences: [Difference]
        /// With repair: how many were mended, and the differences left after it.
        public var repaired: Int?
        public var remaining: [Difference]

        /// The library agrees with its catalog, or with repair, nothing that matters is
        /// left (album entries that are not roll assets are never deleted).
        public var isClean: Bool {
            remaining.allSatisfy {
                if case .strayAlbumEntry = $0 { return repaired != nil } else { return false }
            }
        }
    }

    /// Compares catalog and disk (every roll file hashed); with `repair`, clears the
    /// temporary folder, makes the catalog match the disk and removes what a restore
    /// cut short left in Recently Deleted. `hashing` and
    /// `adopting` are told how far the two long steps are (done, total).
    public func check(
        repair: Bool, hashing: ((_ done: Int, _ total: Int) -> Void)? = nil,
        adopting: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(FilingError) -> CheckReport {
        let differences = try reconciler.differences(verifyHashes: true, progress: hashing)
        guard repair else {
            return CheckReport(differences: differences, repaired: nil, remaining: differences)
        }
        _ = try reconciler.removeTemporaryFiles()
        let mended = try reconciler.repair(differences, progress: adopting)
        try lifecycle.removeLeftoverNames()
        // The second look reads no file, so what only reading found is left as found.
        let unread = differences.filter {
            switch $0 {
            case .unreadableRollFile, .holdsAnotherAssetsBytes: return true
            default: return false
            }
        }
        let left = try reconciler.differences(verifyHashes: false)
        let alsoLeft = left.filter { !unread.contains($0) }
        return CheckReport(differences: differences, repaired: mended, remaining: unread + alsoLeft)
    }

    /// The assets that differences of these kinds stand for once mended: roll files
    /// adopted, content hashed anew. Their thumbnails are made as a filed asset's
    /// are, by whoever mended them (the daemon's reconcile, `check --repair`).
    public func assetsWithNewContent(after differences: [Difference]) throws(FilingError) -> [AssetRecord] {
        var assets: [AssetRecord] = []
        for difference in differences {
            switch difference {
            case .rollFileWithoutRow(let rollPath), .wrongHash(_, let rollPath, _, _):
                if let asset = try filer.catalogCall({ () throws(CatalogError) in
                    try catalog.asset(rollPath: rollPath)
                }) {
                    assets.append(asset)
                }
            default:
                continue
            }
        }
        return assets
    }
}
