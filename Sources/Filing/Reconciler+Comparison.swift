import PhotoFilerCatalog
import PhotoFilerSystem

/// The comparison of catalog and disk, streamed: live assets one row at a time in
/// roll-path order, album entries one at a time, so memory follows what changed,
/// not the size of the library. With stamps, folders unchanged since the last
/// reconcile are not read and what they hold is taken as the catalog has it.
extension Reconciler {
    /// What a comparison found, and what it saw of the folders.
    struct Comparison {
        var differences: [Difference]
        var roll: FolderWalk
        /// Album folders (relative, `Albums/NAME`) → how each was seen, with their stamps.
        var albumFolders: [BytePath: FolderWalk.Look]
        var albumStamps: [FolderStamp]
    }

    /// Compares; `stamps` (relative folder → stamp) lets unchanged folders go unread,
    /// unless `readEvery` (`check`) has every folder read; none (a rebuilt catalog)
    /// reads every folder too.
    func compare(
        verifyHashes: Bool, stamps: [BytePath: FolderStamp], readEvery: Bool = false,
        progress: ((_ done: Int, _ total: Int) -> Void)?
    ) throws(FilingError) -> Comparison {
        var walk = FolderWalk.roll(
            layout: layout, stamps: stamps, clock: clock, readEvery: readEvery, statFiles: !verifyHashes)
        var result = walk.unreadable.keys.sorted().map {
            Difference.couldNotLook(path: $0, reason: walk.unreadable[$0]!)
        }
        result += try rollDifferences(walk: &walk, verifyHashes: verifyHashes, progress: progress).map {
            (difference) throws(FilingError) in try ownContent(difference)
        }
        var albums = AlbumComparison(walk: walk, stamps: stamps, readEvery: readEvery)
        result += try albumDifferences(&albums, verifyTargets: verifyHashes)
        return Comparison(
            differences: result, roll: walk, albumFolders: albums.folders, albumStamps: albums.newStamps)
    }

    /// A wrong hash that is another asset's (a roll file copied over another) is
    /// told as such: recording it would give two assets one content.
    private func ownContent(_ difference: Difference) throws(FilingError) -> Difference {
        guard case .wrongHash(let id, let rollPath, _, let actual) = difference else { return difference }
        let owner = try filer.catalogCall { () throws(CatalogError) in
            try catalog.owners(ofContent: actual).either
        }
        guard let owner, owner.id != id else { return difference }
        return .holdsAnotherAssetsBytes(asset: id, rollPath: rollPath, owner: owner.id)
    }

    /// Live assets against the roll files of the folders read: missing files and
    /// videos, changed sizes (or with `verifyHashes`, changed bytes), files without a
    /// row. The files to read are hashed on every core while the catalog is read on;
    /// each one's inode in `walk` becomes the one `fstat` gave.
    private func rollDifferences(
        walk: inout FolderWalk, verifyHashes: Bool, progress: ((_ done: Int, _ total: Int) -> Void)?
    ) throws(FilingError) -> [Difference] {
        // Nothing read and nothing unreadable: every folder is as the catalog has it.
        guard walk.readCount > 0 || !walk.unreadable.isEmpty else { return [] }
        let total =
            try progress.map { _ throws(FilingError) in
                try filer.catalogCall { () throws(CatalogError) in try catalog.liveAssetCount() }
            } ?? 0
        var byAsset: [(id: AssetID, order: Int, difference: Difference)] = []
        var failure: FilingError?
        var done = 0
        // Rows come in roll-path order: the folder's look is asked once per folder.
        var lastFolder = BytePath("")
        var lastLook: FolderWalk.Look?
        func look(_ folder: BytePath) -> FolderWalk.Look? {
            if folder != lastFolder {
                lastFolder = folder
                lastLook = walk.folders[folder]
            }
            return lastLook
        }
        let hashing = RollHashQueue(filer: filer)
        func record(_ answers: [RollHashQueue.Answer]) {
            for answer in answers {
                let request = answer.request
                let hashed: OrderedHasher.Hashed
                switch answer.hashed {
                case .success(let value): hashed = value
                case .failure(let error):
                    byAsset.append(
                        (
                            request.asset, request.order,
                            .unreadableRollFile(
                                asset: request.asset, rollPath: request.rollPath, reason: error.errno)
                        ))
                    continue
                }
                walk.rollFiles.values[request.file].inode = hashed.inode
                guard hashed.hash != request.recorded else { continue }
                byAsset.append(
                    (
                        request.asset, request.order,
                        .wrongHash(
                            asset: request.asset, rollPath: request.rollPath, recorded: request.recorded,
                            actual: hashed.hash)
                    ))
            }
        }
        /// Notes the file as seen; true when it is missing (its hash, when one is
        /// due, is queued and compared when its batch is done).
        func isMissing(_ path: BytePath, asset: AssetID, order: Int, size: Int64?, hash recorded: String?)
            throws(FilingError) -> Bool
        {
            let folder = path.parent
            switch look(folder) {
            case .unchanged: return false
            case .read:
                guard let index = walk.rollFiles.index(forKey: path) else {
                    return !walk.couldNotLook(at: path)
                }
                walk.rollFiles.values[index].seen = true
                guard verifyHashes || walk.rollFiles.values[index].size != size, let recorded else {
                    return false
                }
                record(
                    try hashing.add(
                        .init(asset: asset, order: order, rollPath: path, recorded: recorded, file: index),
                        in: folder))
                return false
            case nil:
                // Its folder is gone (or was never seen): the file is too.
                return !walk.couldNotLook(at: path)
            }
        }
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.forEachLiveAsset { asset in
                done += 1
                if total > 0 { progress?(done, total) }
                do throws(FilingError) {
                    if let video = asset.liveVideoPath,
                        try isMissing(
                            video, asset: asset.id, order: 0, size: asset.liveVideoSize,
                            hash: asset.liveVideoHash)
                    {
                        byAsset.append((asset.id, 0, .missingLiveVideo(asset: asset.id, rollPath: video)))
                    }
                    if try isMissing(
                        asset.rollPath, asset: asset.id, order: 1, size: asset.size, hash: asset.hash)
                    {
                        byAsset.append(
                            (asset.id, 1, .missingRollFile(asset: asset.id, rollPath: asset.rollPath)))
                    }
                } catch {
                    failure = error
                    return false
                }
                return true
            }
        }
        if let failure { throw failure }
        record(try hashing.finish())
        // The catalog's order: by asset, as `check` lists them.
        byAsset.sort { ($0.id, $0.order) < ($1.id, $1.order) }
        // A dot file no row has is a file manager's (`.directory`), not a roll file.
        let orphans = walk.rollFiles.compactMap {
            $0.value.seen || LibraryLayout.isForeignName($0.key.lastComponent) ? nil : $0.key
        }.sorted()
        return byAsset.map(\.difference) + orphans.map { .rollFileWithoutRow(rollPath: $0) }
    }
}
