import Dispatch
import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem

/// Changes to the Roll and the albums made by hand (or by `photofiler rm` in
/// another process), as the library monitor asks: removals looked at, moves
/// recorded, the catalog reconciled; and the purge of Recently Deleted. Runs on `queue`.
extension Daemon {

    /// Performs the library monitor's actions.
    func perform(_ actions: [LibraryMonitor.Action]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .lookAtRemoval(let path): libraryPathRemoved(path)
            case .recordMove(let from, let to): libraryEntryMoved(from: from, to: to)
            case .reconcile(let reason): reconcileLibrary(reason: reason)
            }
        }
    }

    func libraryPathRemoved(_ path: BytePath) {
        let layout = library.layout
        guard let relative = layout.relative(path) else { return }
        do {
            // Only a path that is really not there is gone; one that cannot be looked at is not.
            if try Sys.statusIfExists(path) != nil { return }
        } catch {
            log.warning(
                "'\(path.display)' cannot be looked at (\(error.errno.message)); nothing is counted as removed until it can."
            )
            return
        }
        let parts = relative.components
        do {
            if parts.first == LibraryLayout.rollFolderName {
                guard let asset = try library.catalog.asset(rollPath: relative), !asset.isDeleted else {
                    try liveVideoRemoved(relative, path: path)
                    return
                }
                try library.lifecycle.rollFileRemoved(asset)
                log.info(
                    "The roll file '\(path.display)' was removed; asset \(asset.id) left every album and is marked deleted."
                )
            } else if parts.first == LibraryLayout.albumsFolderName, parts.count == 3 {
                guard let album = try library.catalog.album(folderName: parts[1])
                else { return }
                let memberships = try library.catalog.memberships(inAlbum: album.id)
                guard
                    let membership = memberships.first(where: {
                        ($0.entryName == parts[2] || $0.videoEntryName == parts[2]) && $0.isActive
                    }),
                    let asset = try library.catalog.asset(id: membership.assetID), !asset.isDeleted
                else { return }
                try library.lifecycle.albumEntryRemoved(membership)
                log.info(
                    "'\(path.display)' was removed; asset \(asset.id) left the album \(album.name) (the Roll keeps it)."
                )
            }
        } catch {
            log.error("\(error)")
        }
    }

    /// A Live Photo's video left the Roll on its own: the asset is a plain still again.
    private func liveVideoRemoved(_ relative: BytePath, path: BytePath) throws {
        guard let asset = try library.catalog.asset(liveVideoPath: relative), !asset.isDeleted else { return }
        switch try library.lifecycle.liveVideoRemoved(asset) {
        case .plainStill:
            log.info(
                "The Live Photo video '\(path.display)' was removed; asset \(asset.id) is a plain still now.")
        case .assetDeleted:
            log.info(
                "The roll files '\(library.layout.absolute(asset.rollPath).display)' and '\(path.display)' were removed; asset \(asset.id) left every album and is marked deleted."
            )
        }
    }

    /// Watches the Roll and `Albums/`, each made first when missing: a folder removed
    /// whole (`rm -rf Albums`) is the library's still, made again, empty, and watched,
    /// so an album entry removed later is seen as any other. The Roll's folders nest
    /// to any depth, so each must see a folder made in it; an album is one folder,
    /// which need not see the daemon's own links made.
    /// Watches `Roll/` and `Albums/`; `again` walks them anew, for folders whose
    /// path leads to another folder now (a disk mounted there).
    func watchLibraryFolders(again: Bool = false) throws {
        let layout = library.layout
        for (folder, leaves) in [(layout.roll, nil), (layout.albums, 1)]
        where again || !watcher.isWatching(folder) {
            try Sys.makeDirectories(folder)
            try watcher.watch(directory: folder, namesOnly: true, leavesAt: leaves)
        }
    }

    /// Makes the catalog match the Roll and albums (names and sizes; no hashing).
    package func reconcileLibrary(reason: String) {
        // The comparison builds tables as large as the library; give the memory back
        // to the system afterwards, or an idle daemon keeps its start-up peak resident.
        defer { Sys.returnFreeMemory() }
        do {
            try watchLibraryFolders()
            var reconciler = library.reconciler
            reconciler.stop = { [unowned self] in self.stopRequested.load(ordering: .relaxed) }
            let leftovers = try reconciler.removeTemporaryFiles()
            if leftovers > 0 {
                log.info("Removed \(leftovers) temporary file(s) left by an interrupted run.")
            }
            // Live Photo halves a crash left apart.
            try LivePhotoPairing(filer: library.filer).pairWaiting()
            // A lost catalog's rebuild differs in every file: one line says so after it.
            let rebuilding = library.lostCatalog != nil
            let summary = try reconciler.reconcileChangedFolders { difference in
                if !rebuilding { log.info("Reconciling (\(reason)): \(difference)") }
            }
            log.info(
                "Reconciled (\(reason)): read \(summary.foldersRead) of \(summary.foldersLookedAt) folder(s) of the Roll and albums, the others unchanged since the last reconcile."
            )
            try library.lostCatalogRebuilt()
            thumbnails?.add(try library.assetsWithNewContent(after: summary.mended).map(\.id))
        } catch FilingError.stopped {
            // SIGTERM: what was not adopted yet is adopted at the next start.
        } catch {
            log.error("\(error)")
            lastError = "\(error)"
        }
    }

    func purgeRecentlyDeleted() {
        do {
            let purged = try library.lifecycle.purgeExpired()
            if purged > 0 {
                log.info("Purged \(purged) asset(s) kept in Recently Deleted for more than 30 days.")
            }
            let leftovers = try library.lifecycle.removeLeftoverNames()
            if leftovers > 0 {
                log.info(
                    "Removed \(leftovers) name(s) that a restore or deletion cut short left in Recently Deleted."
                )
            }
        } catch {
            log.error("\(error)")
        }
    }

    /// Records a move that `LibraryMonitor.isMove` accepted.
    func libraryEntryMoved(from: BytePath, to: BytePath) {
        let layout = library.layout
        guard let fromRelative = layout.relative(from), let toRelative = layout.relative(to) else { return }
        let fromParts = fromRelative.components
        let toParts = toRelative.components
        do {
            if fromParts.first == LibraryLayout.rollFolderName {
                guard let asset = try library.catalog.asset(rollPath: fromRelative), !asset.isDeleted else {
                    // A Live Photo's video moved on its own: it stays the asset's video.
                    if let still = try library.catalog.asset(liveVideoPath: fromRelative), !still.isDeleted {
                        try library.lifecycle.liveVideoMoved(still, to: toRelative)
                        log.info(
                            "The Live Photo video '\(from.display)' was moved to '\(to.display)'; asset \(still.id) keeps it."
                        )
                    }
                    return
                }
                try library.lifecycle.rollFileMoved(asset, to: toRelative)
                log.info(
                    "The roll file '\(from.display)' was moved to '\(to.display)'; asset \(asset.id) keeps its albums."
                )
                return
            }
            guard let album = try library.catalog.album(folderName: fromParts[1]),
                let membership = try library.catalog.memberships(inAlbum: album.id).first(where: {
                    $0.entryName == fromParts[2] && $0.isActive
                })
            else { return }
            let destination = try library.catalog.album(folderName: toParts[1])
            try library.lifecycle.albumEntryMoved(membership, to: destination, entryName: toParts[2])
            if let destination, destination.id != album.id {
                log.info(
                    "'\(from.display)' was moved to '\(to.display)'; asset \(membership.assetID) left the album \(album.name) and joined \(destination.name)."
                )
            } else if destination == nil {
                log.info(
                    "'\(from.display)' was moved out of the album \(album.name) to a folder that is no album; asset \(membership.assetID) left it."
                )
            }
        } catch {
            log.error("\(error)")
        }
    }
}
