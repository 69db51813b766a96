import Dispatch
import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem

/// Changes to the Roll and the albums made by hand (or by `photofiler rm` in
/// another process), reconciling, purging and rescans. Runs on `queue`.
extension Daemon {

    package func scheduleLibraryCheck() {
        guard !libraryCheckScheduled else { return }
        libraryCheckScheduled = true
        queue.asyncAfter(deadline: .now() + Self.libraryEventDelay) { [self] in
            libraryCheckScheduled = false
            let removals = libraryRemovals
            libraryRemovals = []
            for path in removals.sorted() { libraryPathRemoved(path) }
        }
    }

    package func libraryPathRemoved(_ path: BytePath) {
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
        try library.lifecycle.liveVideoRemoved(asset)
        log.info(
            "The Live Photo video '\(path.display)' was removed; asset \(asset.id) is a plain still now.")
    }

    package func scheduleReconcile() {
        guard !reconcileScheduled else { return }
        reconcileScheduled = true
        queue.asyncAfter(deadline: .now() + Self.libraryEventDelay) { [self] in
            reconcileScheduled = false
            reconcileLibrary(reason: "library change")
        }
    }

    /// Makes the catalog match the Roll and albums (names and sizes; no hashing).
    package func reconcileLibrary(reason: String) {
        // The comparison builds tables as large as the library; give the memory back
        // to the system afterwards, or an idle daemon keeps its start-up peak resident.
        defer { Sys.returnFreeMemory() }
        do {
            let reconciler = library.reconciler
            let leftovers = try reconciler.removeTemporaryFiles()
            if leftovers > 0 {
                log.info("Removed \(leftovers) temporary file(s) left by an interrupted run.")
            }
            // Live Photo halves a crash left apart.
            try LivePhotoPairing(filer: library.filer).pairWaiting()
            let summary = try reconciler.reconcileChangedFolders { difference in
                log.info("Reconciling (\(reason)): \(difference)")
            }
            log.info(
                "Reconciled (\(reason)): read \(summary.foldersRead) of \(summary.foldersLookedAt) folder(s) of the Roll and albums, the others unchanged since the last reconcile."
            )
        } catch {
            log.error("\(error)")
            lastError = "\(error)"
        }
    }

    package func purgeRecentlyDeleted() {
        do {
            let purged = try library.lifecycle.purgeExpired()
            if purged > 0 {
                log.info("Purged \(purged) asset(s) kept in Recently Deleted for more than 30 days.")
            }
        } catch {
            log.error("\(error)")
        }
    }

    package func rescanInboxes(reason: String) {
        var count = 0
        for root in inboxes.keys.sorted() {
            if missingInboxes.contains(root) {
                if (try? Sys.statusIfExists(root)) ?? nil != nil { count += watchInbox(root) }
                continue
            }
            // A sync engine set up on the folder since it was last looked at.
            if let inbox = inboxes[root] { detectSyncEngine(inbox) }
            let files = InboxScanner(excluded: [library.layout.root]).scanTree(root)
            count += files.count
            debounce.found(files)
        }
        log.debug("Rescan (\(reason)): \(count) file(s) queued.")
    }
}
