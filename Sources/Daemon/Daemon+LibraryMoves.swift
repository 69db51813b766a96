import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem

/// Files moved by hand inside the library, as the watcher pairs them by cookie
/// (SPEC "Deletion": a move is not a deletion). Runs on `queue`.
extension Daemon {
    /// True for the moves that keep an asset or a membership: a file moved within
    /// `Roll/`, or an album entry moved from one album folder into one (the same or
    /// another). Anything else (out of the Roll into an album, into Recently
    /// Deleted) stays the removal its first half announced.
    package func isLibraryMove(from: BytePath, to: BytePath) -> Bool {
        let layout = library.layout
        guard let fromParts = layout.relative(from)?.components, let toParts = layout.relative(to)?.components
        else { return false }
        if fromParts.first == LibraryLayout.rollFolderName, toParts.first == LibraryLayout.rollFolderName {
            return true
        }
        return fromParts.first == LibraryLayout.albumsFolderName && fromParts.count == 3
            && toParts.first == LibraryLayout.albumsFolderName && toParts.count == 3
    }

    /// Records a move that `isLibraryMove` accepted.
    package func libraryEntryMoved(from: BytePath, to: BytePath) {
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
