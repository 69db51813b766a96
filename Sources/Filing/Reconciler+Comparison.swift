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
    /// none reads every folder (`check`, a rebuilt catalog).
    func compare(
        verifyHashes: Bool, stamps: [BytePath: FolderStamp],
        progress: ((_ done: Int, _ total: Int) -> Void)?
    ) throws(FilingError) -> Comparison {
        let walk = FolderWalk.roll(layout: layout, stamps: stamps, clock: clock)
        var result = walk.unreadable.keys.sorted().map {
            Difference.couldNotLook(path: $0, reason: walk.unreadable[$0]!)
        }
        result += try rollDifferences(walk: walk, verifyHashes: verifyHashes, progress: progress)
        var albums = AlbumComparison(walk: walk, stamps: stamps)
        result += try albumDifferences(&albums, verifyTargets: verifyHashes)
        return Comparison(
            differences: result, roll: walk, albumFolders: albums.folders, albumStamps: albums.newStamps)
    }

    /// Live assets against the roll files of the folders read: missing files and
    /// videos, changed sizes (or with `verifyHashes`, changed bytes), files without a row.
    private func rollDifferences(
        walk: FolderWalk, verifyHashes: Bool, progress: ((_ done: Int, _ total: Int) -> Void)?
    ) throws(FilingError) -> [Difference] {
        // Nothing read and nothing unreadable: every folder is as the catalog has it.
        guard walk.readCount > 0 || !walk.unreadable.isEmpty else { return [] }
        let total =
            try progress.map { _ throws(FilingError) in
                try filer.catalogCall { () throws(CatalogError) in try catalog.liveAssetCount() }
            } ?? 0
        var byAsset: [(id: AssetID, order: Int, difference: Difference)] = []
        var seen = Set<BytePath>()
        var failure: FilingError?
        var done = 0
        // Rows come in roll-path order: the folder's look is asked once per folder.
        var lastFolder = BytePath("")
        var lastLook: FolderWalk.Look?
        func look(_ path: BytePath) -> FolderWalk.Look? {
            let folder = path.parent
            if folder != lastFolder {
                lastFolder = folder
                lastLook = walk.folders[folder]
            }
            return lastLook
        }
        // Files are opened by name in their open folder: no walk of the whole path per file.
        var openFolder: (path: BytePath, descriptor: FileDescriptor)?
        defer { openFolder?.descriptor.close() }
        func hash(_ path: BytePath) throws(FilingError) -> String {
            let folder = path.parent
            let absolute = layout.absolute(path)
            return try filer.systemCall(absolute) { () throws(SystemError) -> String in
                if openFolder?.path != folder {
                    openFolder?.descriptor.close()
                    openFolder = nil
                    openFolder = (folder, try Sys.openDirectory(layout.absolute(folder)))
                }
                let fd = try Sys.openForReading(path.lastComponent, in: openFolder!.descriptor)
                defer { fd.close() }
                return try ContentHasher.hash(fd)
            }
        }
        enum Found { case asRecorded, missing, otherBytes(String) }
        func compare(_ path: BytePath, size: Int64?, hash recorded: String?) throws(FilingError) -> Found {
            switch look(path) {
            case .unchanged: return .asRecorded
            case .read:
                guard let file = walk.rollFiles[path] else {
                    return walk.couldNotLook(at: path) ? .asRecorded : .missing
                }
                seen.insert(path)
                guard verifyHashes || file.size != size, let recorded else { return .asRecorded }
                let actual = try hash(path)
                return actual == recorded ? .asRecorded : .otherBytes(actual)
            case nil:
                // Its folder is gone (or was never seen): the file is too.
                return walk.couldNotLook(at: path) ? .asRecorded : .missing
            }
        }
        try filer.catalogCall { () throws(CatalogError) in
            try catalog.forEachLiveAsset { asset in
                done += 1
                if total > 0 { progress?(done, total) }
                do throws(FilingError) {
                    if let video = asset.liveVideoPath {
                        switch try compare(video, size: asset.liveVideoSize, hash: asset.liveVideoHash) {
                        case .missing:
                            byAsset.append((asset.id, 0, .missingLiveVideo(asset: asset.id, rollPath: video)))
                        case .otherBytes(let actual):
                            byAsset.append(
                                (
                                    asset.id, 0,
                                    .wrongHash(
                                        asset: asset.id, rollPath: video, recorded: asset.liveVideoHash ?? "",
                                        actual: actual)
                                ))
                        case .asRecorded: break
                        }
                    }
                    switch try compare(asset.rollPath, size: asset.size, hash: asset.hash) {
                    case .missing:
                        byAsset.append(
                            (asset.id, 1, .missingRollFile(asset: asset.id, rollPath: asset.rollPath)))
                    case .otherBytes(let actual):
                        byAsset.append(
                            (
                                asset.id, 1,
                                .wrongHash(
                                    asset: asset.id, rollPath: asset.rollPath, recorded: asset.hash,
                                    actual: actual)
                            ))
                    case .asRecorded: break
                    }
                } catch {
                    failure = error
                    return false
                }
                return true
            }
        }
        if let failure { throw failure }
        // The catalog's order: by asset, as `check` lists them.
        byAsset.sort { ($0.id, $0.order) < ($1.id, $1.order) }
        let orphans = walk.rollFiles.keys.filter { !seen.contains($0) }.sorted()
        return byAsset.map(\.difference) + orphans.map { .rollFileWithoutRow(rollPath: $0) }
    }
}
