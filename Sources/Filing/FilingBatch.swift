import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Files a group of settled files with the durability paid once per group.
///
/// The order of `Filer.file` holds for every file of the group, only each step is
/// done for the whole group before the next:
///
/// 1. each file is opened, checked, read and hashed (`FileInspector`: nothing
///    changes on disk, so the daemon does this on another queue, for the next group,
///    while this one is filed);
/// 2. every file's content is made durable (one `syncfs` for a group of 8 or more,
///    else an `fsync` per file);
/// 3. each is linked into the Roll and into its album;
/// 4. every new folder entry is made durable (`syncfs` again, or an `fsync` per
///    touched folder);
/// 5. one catalog transaction records every asset and membership;
/// 6. only then are the sources removed.
///
/// A crash anywhere leaves what `Filer.file` would: roll and album links without a
/// row (adopted by the start-up reconcile, the source still in its inbox and found
/// again as a duplicate), never a source removed before its row is durable.
///
/// Only plain move-mode filing of new content goes through the group; everything
/// else (keep and copy modes, another file system, content the catalog or the group
/// already holds) is filed afterwards, one at a time, by `Filer.file`.
extension Filer {
    /// From this many files on, a group's durability is one `syncfs` per step.
    package static let syncfsGroupSize = 8

    /// One file of the group being filed.
    private struct Inspected {
        var index: Int
        var file: InspectedFile
        var album: AlbumRecord?
        var rollPath: BytePath?
        var entry: BytePath?

        var request: FilingRequest { file.request }
        var source: BytePath { file.source }
        var fd: FileDescriptor { file.fd }
    }

    /// Steps 2–6 for a group whose step 1 (`FileInspector.inspect`, on any queue) is
    /// done: `inspections[i]` is what inspecting `requests[i]` found. Every descriptor
    /// the inspections hold is closed here. The results are in the same order.
    public func file(inspected inspections: [Inspection], requests: [FilingRequest])
        -> [Result<FilingResult, FilingError>]
    {
        var results = [Result<FilingResult, FilingError>?](repeating: nil, count: requests.count)
        var group: [Inspected] = []
        var oneByOne: [Int] = []
        var hashes: Set<String> = []
        for (index, inspection) in inspections.enumerated() {
            switch inspection {
            case .failed(let error):
                results[index] = .failure(error)
            case .oneByOne:
                oneByOne.append(index)
            case .ready(let file):
                do throws(FilingError) {
                    // Known content (a duplicate, a restore), or the same content twice in
                    // one group: the one-file path knows those, after the group.
                    let known = try catalogCall { () throws(CatalogError) -> AssetRecord? in
                        if let asset = try catalog.asset(hash: file.hash) { return asset }
                        return try catalog.asset(liveVideoHash: file.hash)
                    }
                    guard known == nil, hashes.insert(file.hash).inserted else {
                        file.fd.close()
                        oneByOne.append(index)
                        continue
                    }
                    let album = try file.request.album.map { (name) throws(FilingError) in
                        try albums.album(named: name, now: now())
                    }
                    group.append(Inspected(index: index, file: file, album: album))
                } catch {
                    file.fd.close()
                    results[index] = .failure(error)
                }
            }
        }
        defer { for item in group { item.fd.close() } }
        fileGroup(&group, results: &results)
        for index in oneByOne {
            results[index] = Result { () throws(FilingError) in try file(requests[index]) }
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

    /// Steps 2–6 for the inspected files.
    private func fileGroup(_ group: inout [Inspected], results: inout [Result<FilingResult, FilingError>?]) {
        var folders = FolderSyncer()
        var placed: [Int] = []  // positions in `group` whose links are made

        // 2. Every file's content durable. A large group pays one `syncfs` (all of it lies
        //    on the library's file system), which costs far less than an `fsync` per file;
        //    a small one syncs its own files, so that a single drop never waits for other
        //    programs' writes to the same disk.
        let wholeFileSystem = group.count >= Self.syncfsGroupSize
        do throws(SystemError) {
            if wholeFileSystem {
                try Sys.syncFileSystem(containing: layout.root)
            } else {
                for item in group { try item.fd.sync() }
            }
        } catch {
            let failure = FilingError.from(error, library: layout, source: error.path ?? layout.root)
            for item in group { results[item.index] = .failure(failure) }
            return
        }

        // 3. The roll link and the album link.
        for position in group.indices {
            let item = group[position]
            do throws(FilingError) {
                let created = CaptureDates.resolve(
                    embedded: item.file.info.embeddedDate, fileName: item.source.lastComponent,
                    modificationSeconds: item.file.status.modificationNanoseconds / 1_000_000_000)
                let (rollPath, rollFolder) = try linkIntoRoll(
                    item.source, name: item.source.lastComponent, created: created, source: item.source)
                folders.touch(rollFolder)
                group[position].rollPath = rollPath
                if let album = item.album {
                    do throws(FilingError) {
                        group[position].entry = try systemCall(item.source) { () throws(SystemError) in
                            try albums.link(rollPath: rollPath, into: album, kind: item.request.link)
                        }
                        folders.touch(layout.albumFolder(album))
                    } catch {
                        try? Sys.unlink(layout.absolute(rollPath))
                        throw error
                    }
                }
                placed.append(position)
                let asset = AssetRecord(
                    id: 0, rollPath: rollPath, hash: item.file.hash, info: item.file.info, created: created,
                    addedAt: now(),
                    size: item.file.size, originalName: item.source.lastComponent,
                    sourceInbox: item.request.origin
                )
                results[item.index] = .success(FilingResult(outcome: .filed, asset: asset, album: item.album))
            } catch {
                results[item.index] = .failure(error)
            }
        }
        guard !placed.isEmpty else { return }

        // 4. Every new folder entry durable: one more `syncfs` for a large group, else one
        //    `fsync` per touched folder.
        do throws(SystemError) {
            if wholeFileSystem {
                try Sys.syncFileSystem(containing: layout.root)
            } else if let failure = folders.syncAll() {
                throw failure
            }
        } catch {
            undo(
                placed, in: group, results: &results,
                error: FilingError.from(error, library: layout, source: error.path ?? layout.root))
            return
        }

        // 5. One transaction for the group.
        do {
            try catalog.write { () throws(CatalogError) in
                for position in placed {
                    let item = group[position]
                    guard case .success(var result)? = results[item.index], var asset = result.asset else {
                        continue
                    }
                    asset.id = try catalog.insertAsset(asset)
                    if let album = item.album, let entry = item.entry {
                        try catalog.addMembership(
                            asset: asset.id, album: album.id, entryName: entry, at: asset.addedAt)
                    }
                    result.asset = asset
                    results[item.index] = .success(result)
                }
            }
        } catch {
            undo(placed, in: group, results: &results, error: .catalog(error))
            return
        }

        // 6. Every file of the group is durable: remove the sources.
        for position in placed { removeSource(group[position].source) }
    }

    /// The group could not be made durable: take its links back (best effort; the
    /// start-up reconcile adopts whatever is left) and fail each of its files.
    private func undo(
        _ placed: [Int], in group: [Inspected], results: inout [Result<FilingResult, FilingError>?],
        error: FilingError
    ) {
        for position in placed {
            let item = group[position]
            if let album = item.album, let entry = item.entry { try? albums.unlinkEntry(entry, in: album) }
            if let rollPath = item.rollPath { try? Sys.unlink(layout.absolute(rollPath)) }
            results[item.index] = .failure(error)
        }
    }
}

/// The folders a group touched, each opened once and synced once.
package struct FolderSyncer {
    private var order: [BytePath] = []
    private var seen: Set<BytePath> = []

    package mutating func touch(_ folder: BytePath) {
        if seen.insert(folder).inserted { order.append(folder) }
    }

    /// Syncs every touched folder; the first failure, if any.
    package mutating func syncAll() -> SystemError? {
        for folder in order {
            do {
                try Sys.syncDirectory(folder)
            } catch {
                return error
            }
        }
        order.removeAll()
        seen.removeAll()
        return nil
    }
}
