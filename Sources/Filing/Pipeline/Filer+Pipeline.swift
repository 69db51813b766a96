import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// The one filing pipeline. A single file is a group of one; `save`, the daemon,
/// `restore` and the content of a deleted asset coming back all take these steps,
/// each done for the whole group before the next (photofiler(1) "Never lose, never
/// duplicate"):
///
/// 1. inspect: each file is opened without following links, checked, read by a
///    helper and hashed (`FileInspector`, on any queue: it writes nothing; or
///    `stage`, here, for files that are copied), then planned: new, restored,
///    joining a known asset, the same content as an earlier file of the group, or
///    (keep mode) seen before;
/// 2. the bytes that enter the Roll are made durable (`GroupDurability`; the
///    inspection does it, a small group's while the helpers read it, and the
///    daemon inspects the next group while this one is filed);
/// 3. the roll links and the album links are made;
/// 4. every folder entry made is durable;
/// 5. one catalog transaction records every asset, restore and membership;
/// 6. only then are the sources removed (move mode).
///
/// A crash anywhere leaves links without a row (adopted by the start-up reconcile,
/// the source still in its inbox and found again as a duplicate), never a source
/// removed before its row is durable. A failure takes the group's links back and
/// syncs the folders it changed.
extension Filer {
    /// Files the requests as one group, inspecting them here first (`save`). The
    /// results are in the same order.
    public func file(_ requests: [FilingRequest]) -> [Result<FilingResult, FilingError>] {
        file(inspected: inspector.inspect(requests), requests: requests)
    }

    /// Steps 2–6 for a group whose inspection (`FileInspector.inspect`, on any queue)
    /// is done: `inspections[i]` is what inspecting `requests[i]` found. Every
    /// descriptor the inspections hold is closed here. The results are in the same order.
    /// `stop` is asked before each file copied here and between its reads: once it
    /// says so, the files not copied yet are left (`.stopped`), and those in hand are filed.
    public func file(
        inspected inspections: [Inspection], requests: [FilingRequest], stop: () -> Bool = { false }
    ) -> [Result<FilingResult, FilingError>] {
        var results = [Result<FilingResult, FilingError>?](repeating: nil, count: requests.count)
        var items: [PipelineItem] = []
        items.reserveCapacity(inspections.count)
        for (index, inspection) in inspections.enumerated() {
            switch inspection {
            case .failed(let error):
                results[index] = .failure(error)
            case .ready(let file):
                items.append(PipelineItem(index: index, file: file, stagedCopy: nil))
            case .leftToFiler:
                let stopped = FilingError.stopped(path: LibraryLayout.absolute(requests[index].source))
                do throws(FilingError) {
                    if stop() { throw stopped }
                    if let staged = try stage(requests[index], stop: stop) {
                        items.append(PipelineItem(index: index, file: staged.file, stagedCopy: staged.copy))
                    } else {
                        results[index] = .success(FilingResult(outcome: .alreadySeen, asset: nil, album: nil))
                    }
                } catch {
                    // A copy given up, or a helper ended, because photofiler is stopping.
                    results[index] = .failure(stop() ? stopped : error)
                }
            }
        }
        defer {
            for position in items.indices {
                items[position].fd?.close()
                if let copy = items[position].stagedCopy { removeStagedCopy(copy) }
            }
        }
        plan(&items)
        run(&items)
        for position in items.indices {
            results[items[position].index] = outcome(of: items[position], in: items)
        }
        return zip(requests, results).map { request, result in
            let source = LibraryLayout.absolute(request.source)
            switch result {
            case .none: return .failure(.vanished(path: source))
            case .failure(.catalog(let error)):
                return .failure(FilingError.from(error, library: layout, source: source))
            case .some(.success(let filed)): return .success(pairingLivePhoto(filed))
            case .some(let result): return result
            }
        }
    }

    /// `photofiler restore`: the asset's Recently Deleted file goes back into the Roll
    /// and every album it was in, through steps 3–6 (its bytes are durable already).
    package func restore(_ asset: AssetRecord, from trashFile: BytePath) throws(FilingError) {
        let request = FilingRequest(source: trashFile, album: nil, origin: nil, mode: .copy, link: .hard)
        var items = [
            PipelineItem(
                index: 0, request: request, source: trashFile, bytes: trashFile, fd: nil, bytesDurable: true,
                stagedCopy: nil, status: nil, hash: asset.hash, draft: nil, plan: .restore(asset))
        ]
        run(&items)
        if let failure = items[0].failure {
            if case .catalog(let error) = failure {
                throw FilingError.from(error, library: layout, source: trashFile)
            }
            throw failure
        }
    }

    // MARK: 1. The plan

    /// Decides each file's plan from the catalog and the group, and finds its album.
    /// The group's look-ups share one read transaction; the albums are found after
    /// it, since a new album is a write.
    private func plan(_ items: inout [PipelineItem]) {
        var firstByHash: [String: Int] = [:]
        do throws(FilingError) {
            try catalogCall { () throws(CatalogError) in
                try catalog.read { () throws(CatalogError) in
                    for position in items.indices {
                        try decide(&items, at: position, firstByHash: &firstByHash)
                    }
                }
            }
        } catch {
            for position in items.indices where items[position].isActive { items[position].failure = error }
            return
        }
        for position in items.indices where items[position].isActive && items[position].plan != .alreadySeen {
            do throws(FilingError) {
                items[position].album = try items[position].request.album.map { (name) throws(FilingError) in
                    try albums.album(named: name, now: now())
                }
                if items[position].plan == .new {
                    items[position].rollFolder = try folderOfStill(for: items[position].draft)
                }
            } catch {
                items[position].failure = error
            }
        }
    }

    /// One file's plan, from what the catalog knows of its content and source and
    /// from the files before it in the group.
    private func decide(_ items: inout [PipelineItem], at position: Int, firstByHash: inout [String: Int])
        throws(CatalogError)
    {
        // Field by field, not a copy of the whole item (see step 3's `link`).
        let hash = items[position].hash
        let mode = items[position].request.mode
        let last = mode == .keep ? try catalog.seenSourceHash(path: items[position].source) : nil
        let owners = try catalog.owners(ofContent: hash)
        let liveVideoOwner = owners.liveVideoOwner
        // A deleted Live Photo's video stands for its still in the group: the still
        // and the video dropped together bring the Live Photo back once.
        let content = FilingPlan.restorable(byItsVideo: liveVideoOwner)?.hash ?? hash
        let earlier = firstByHash[content].map { ($0, items[$0].plan) }
        let plan = FilingPlan.decide(
            hash: hash, mode: mode, lastFiledHashAtPath: last,
            liveVideoOwner: liveVideoOwner, existing: owners.asset, earlierInGroup: earlier)
        items[position].plan = plan
        if case .restore(let asset) = plan, asset.hash != hash, let still = asset.trashPath {
            // The video's bytes are its Recently Deleted copy's: the still goes back
            // from its own, already durable, and the dropped video is redundant.
            items[position].bytes = layout.absolute(still)
            items[position].bytesDurable = true
        }
        if plan != .alreadySeen, firstByHash[content] == nil { firstByHash[content] = position }
    }

    /// A Live Photo's video whose still is filed already goes into the still's folder,
    /// so pairing it moves nothing (no second roll name, even after a crash).
    private func folderOfStill(for draft: AssetDraft?) throws(FilingError) -> BytePath? {
        guard let draft, draft.info.mediaType == .video, let identifier = draft.info.live.contentIdentifier
        else { return nil }
        let still = try catalogCall { () throws(CatalogError) in
            try catalog.unpairedStill(contentIdentifier: identifier)
        }
        return still?.rollPath.parent
    }

    // MARK: 2–6

    private func run(_ items: inout [PipelineItem]) {
        var folders = FolderSyncer()
        // Counted and read in place, not filtered into copies: an item is some 900
        // bytes, and copies of a group's items were the daemon's largest allocation
        // in a burst (heaptrack).
        let placing = items.count(where: \.isPlacingBytes)
        let durability = GroupDurability(filesPlacingBytes: placing)

        // 2. The bytes that enter the Roll durable (the app that wrote a source may
        //    never have called fsync), where the inspection has not done it already
        //    (a copy was synced as it was made).
        let unsynced = items.compactMap { $0.isPlacingBytes && !$0.bytesDurable ? $0.fd : nil }
        do throws(SystemError) {
            try GroupDurability.makeBytesDurable(unsynced, library: layout.root)
        } catch {
            let failure = FilingError.from(error, library: layout, source: error.path ?? layout.root)
            for position in items.indices where items[position].isPlacingBytes {
                items[position].failure = failure
            }
        }

        // 3–5. A group that restores an asset takes the catalog's write lock before its
        //    first link and keeps it to its commit: a deleted asset's file never stands
        //    in the Roll while the catalog still calls it deleted, so a daemon beside
        //    `restore` never takes it for a file put there by hand (photofiler(1)
        //    "Deletion").
        var linked: [Int] = []
        if items.contains(where: \.restores) {
            do {
                try catalog.write { () throws(CatalogError) in
                    try replanRestores(&items)
                    linked = linkAndSync(&items, folders: &folders, durability: durability)
                    for position in linked { try record(&items, at: position) }
                }
            } catch {
                undo(&items, folders: &folders, error: .catalog(error))
                return
            }
        } else {
            linked = linkAndSync(&items, folders: &folders, durability: durability)
            guard !linked.isEmpty else { return }
            do {
                try catalog.write { () throws(CatalogError) in
                    for position in linked { try record(&items, at: position) }
                }
            } catch {
                undo(&items, folders: &folders, error: .catalog(error))
                return
            }
        }

        // 6. Every file of the group is durable: the sources go, then what a restore left.
        for position in linked {
            if items[position].request.mode == .move, items[position].plan != .alreadySeen {
                items[position].sourceStayedChanged = !removeSource(items[position])
            }
            if case .restore(let asset) = items[position].plan {
                removeRecentlyDeletedFiles(of: asset, items[position])
            }
        }
    }

    /// Steps 3 and 4: the roll links and the album links, then every folder entry
    /// made durable. Returns the items linked; none when step 4 failed (their links
    /// are taken back).
    private func linkAndSync(
        _ items: inout [PipelineItem], folders: inout FolderSyncer, durability: GroupDurability
    ) -> [Int] {
        var memberships = PlannedMemberships()
        for position in items.indices where items[position].isActive && items[position].plan != .alreadySeen {
            do throws(FilingError) {
                try link(&items, at: position, memberships: &memberships, folders: &folders)
            } catch {
                takeBack(items[position], folders: &folders)
                items[position].failure = error
            }
        }
        let linked = items.indices.filter { items[$0].isActive }
        guard !linked.isEmpty else {
            _ = folders.syncAll()
            return []
        }
        do throws(SystemError) {
            switch durability {
            case .wholeFileSystem: try Sys.syncFileSystem(containing: layout.root)
            case .perFile: if let failure = folders.syncAll() { throw failure }
            }
        } catch {
            undo(
                &items, folders: &folders,
                error: FilingError.from(error, library: layout, source: error.path ?? layout.root))
            return []
        }
        return linked
    }

    /// A restore planned before the write lock was taken, looked at again under it:
    /// an asset that another process restored meanwhile is joined, not put back twice.
    private func replanRestores(_ items: inout [PipelineItem]) throws(CatalogError) {
        for position in items.indices where items[position].isActive {
            guard case .restore(let planned) = items[position].plan,
                let current = try catalog.asset(id: planned.id), !current.isDeleted
            else { continue }
            items[position].plan = .join(current)
        }
    }

    /// Step 3 for one file. A file with the content of an earlier one of the group
    /// takes that one's asset (or its failure).
    private func link(
        _ items: inout [PipelineItem], at position: Int, memberships: inout PlannedMemberships,
        folders: inout FolderSyncer
    ) throws(FilingError) {
        guard case .sameAsEarlier(let earlier) = items[position].plan else {
            try link(&items[position], memberships: &memberships, folders: &folders)
            return
        }
        if let failure = items[earlier].failure { throw failure }
        guard let asset = items[earlier].asset else { return }
        items[position].asset = asset
        try linkIntoItsAlbum(asset, item: &items[position], memberships: &memberships, folders: &folders)
    }

    /// Step 3 for a file whose plan does not depend on another of the group. The
    /// item is worked on in place: a copy of it retains every path and string it
    /// holds, and such copies were a fifth of the daemon's retains in a burst
    /// (`perf record`).
    private func link(
        _ item: inout PipelineItem, memberships: inout PlannedMemberships, folders: inout FolderSyncer
    ) throws(FilingError) {
        switch item.plan {
        case .alreadySeen, .sameAsEarlier:
            return
        case .new:
            guard let draft = item.draft else { return }
            let folder = item.rollFolder ?? layout.rollFolder(for: draft.created)
            let rollPath = try linkIntoRoll(
                item.bytes, preferred: item.source.lastComponent, folder: folder, source: item.source,
                folders: &folders)
            item.rollPath = rollPath
            try checkLinkedBytes(of: item, at: rollPath)
            let asset = draft.record(rollPath: rollPath, addedAt: now())
            item.asset = asset
            try linkIntoItsAlbum(asset, item: &item, memberships: &memberships, folders: &folders)
        case .restore(var asset):
            let rollPath = try linkIntoRoll(
                item.bytes, preferred: asset.rollPath.lastComponent,
                folder: layout.rollFolder(for: asset.created),
                source: item.source, folders: &folders)
            item.rollPath = rollPath
            try checkLinkedBytes(of: item, at: rollPath)
            asset.rollPath = rollPath
            asset.deletedAt = nil
            asset.trashPath = nil
            if var video = asset.liveVideo, let trash = video.trashPath {
                let trashFile = layout.absolute(trash)
                let videoPath = try linkIntoRoll(
                    trashFile, preferred: video.rollPath?.lastComponent ?? trash.lastComponent,
                    folder: rollPath.parent, source: trashFile, folders: &folders)
                video.rollPath = videoPath
                video.trashPath = nil
                asset.liveVideo = video
                item.restoredVideo = (layout.absolute(videoPath), trashFile)
            }
            item.asset = asset
            var albums = try albumsToRestore(of: asset.id)
            if let album = item.album, !albums.contains(where: { $0.album == album }) {
                albums.append((album, item.request.link))
            }
            for (album, kind) in albums where memberships.claim(hash: asset.hash, album: album.id) {
                try linkResources(of: asset, into: album, kind: kind, item: &item, folders: &folders)
            }
        case .join(let asset):
            item.asset = asset
            guard let album = item.album else { return }
            let membership = try catalogCall { () throws(CatalogError) in
                try catalog.membership(asset: asset.id, album: album.id)
            }
            if let membership, membership.isActive {
                if membership.videoEntryName == nil, memberships.claim(hash: asset.hash, album: album.id) {
                    try linkMissingVideo(of: asset, into: album, item: &item, folders: &folders)
                }
                return
            }
            // Taken out of the album by the user: keep mode never puts it back.
            if membership != nil, item.request.mode == .keep { return }
            try linkIntoItsAlbum(asset, item: &item, memberships: &memberships, folders: &folders)
        }
    }

    /// Links the asset into the album the file's request names, once a group.
    private func linkIntoItsAlbum(
        _ asset: AssetRecord, item: inout PipelineItem, memberships: inout PlannedMemberships,
        folders: inout FolderSyncer
    ) throws(FilingError) {
        if let album = item.album, memberships.claim(hash: asset.hash, album: album.id) {
            try linkResources(of: asset, into: album, item: &item, folders: &folders)
        }
    }

    /// A roll file linked from the source itself must be the file that was read: an
    /// app may have saved its name again since the inspection (a rename over it:
    /// another inode) or rewritten it in place (the same inode, another size or time).
    /// Either way the bytes are not the hashed ones: the filing fails and the new
    /// file is filed in its turn (its write or rename was an event).
    private func checkLinkedBytes(of item: PipelineItem, at rollPath: BytePath) throws(FilingError) {
        guard item.linksSource, let inspected = item.status else { return }
        let linked = try systemCall(item.source) { () throws(SystemError) in
            try Sys.status(layout.absolute(rollPath))
        }
        guard linked.isUnchanged(since: inspected) else { throw .changedWhileFiling(path: item.source) }
    }

    /// Step 5 for one file (inside the group's transaction).
    private func record(_ items: inout [PipelineItem], at position: Int) throws(CatalogError) {
        // Filed earlier in this transaction: its id is known now.
        let earlierID = items[position].plan.earlierPosition.flatMap { items[$0].asset?.id }
        try record(&items[position], earlierID: earlierID)
    }

    /// Step 5 for one file, given the id of the earlier file of the group whose
    /// content it has (worked on in place, as in step 3).
    private func record(_ item: inout PipelineItem, earlierID: AssetID?) throws(CatalogError) {
        if item.plan == .alreadySeen {
            if let status = item.status {
                try catalog.touchSource(
                    path: item.source, size: status.size,
                    modificationNanoseconds: status.modificationNanoseconds)
            }
            return
        }
        guard var asset = item.asset else { return }
        switch item.plan {
        case .new:
            asset.id = try catalog.insertAsset(asset)
        case .restore:
            try catalog.markRestored(asset.id, rollPath: asset.rollPath)
            if let videoPath = asset.liveVideo?.rollPath {
                try catalog.setLiveVideoLocation(of: asset.id, rollPath: videoPath, trashPath: nil)
            }
        case .sameAsEarlier:
            asset.id = earlierID ?? asset.id
        case .join, .alreadySeen:
            break
        }
        item.asset = asset
        let at = now()
        for entry in item.entries {
            if let still = entry.still {
                if item.plan == .new {
                    try catalog.addMembership(ofNew: asset, album: entry.album.id, entryName: still)
                } else {
                    try catalog.addMembership(
                        asset: asset.id, album: entry.album.id, entryName: still, at: at)
                }
            }
            if let video = entry.video {
                try catalog.setVideoEntry(video, asset: asset.id, album: entry.album.id)
            }
        }
        if item.request.mode == .keep, let status = item.status {
            try catalog.recordSource(
                path: item.source, size: status.size, modificationNanoseconds: status.modificationNanoseconds,
                asset: asset.id, hash: item.hash)
        }
    }

    /// What filing one item did, once the group is done.
    private func outcome(of item: PipelineItem, in items: [PipelineItem]) -> Result<FilingResult, FilingError>
    {
        planOutcome(of: item, in: items).map { result in
            var result = result
            result.sourceStayedChanged = item.sourceStayedChanged
            return result
        }
    }

    private func planOutcome(of item: PipelineItem, in items: [PipelineItem]) -> Result<
        FilingResult, FilingError
    > {
        if let failure = item.failure { return .failure(failure) }
        switch item.plan {
        case .alreadySeen:
            return .success(FilingResult(outcome: .alreadySeen, asset: nil, album: nil))
        case .new:
            return .success(FilingResult(outcome: .filed, asset: item.asset, album: item.album))
        case .restore(let asset):
            return Result { () throws(FilingError) in
                let refreshed = try catalogCall { () throws(CatalogError) in try catalog.asset(id: asset.id) }
                return FilingResult(outcome: .restored, asset: refreshed ?? item.asset, album: item.album)
            }
        case .join, .sameAsEarlier:
            return .success(
                FilingResult(
                    outcome: .duplicate(joinedAlbum: item.entries.contains { $0.still != nil }),
                    asset: item.asset,
                    album: item.album))
        }
    }
}
