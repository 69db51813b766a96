import PhotoFilerCatalog
import PhotoFilerSystem

/// Step 3's guard against filing into the empty folder where a disk is not mounted
/// (`MountPoints` says why).
extension Filer {
    /// Throws `diskNotMounted` when the Roll folder `folder` (relative) is at or below
    /// a folder where a disk is not mounted now.
    func refuseUnmountedDisk(rollFolder folder: BytePath, source: BytePath) throws(FilingError) {
        if let mount = try knownMountPoints().rollFolderNotMounted(above: folder, layout: layout) {
            throw .diskNotMounted(path: source, folder: layout.absolute(mount))
        }
    }

    /// The same for an album's folder, when the album has members (an album that has
    /// none is not held back by the reconcile either).
    func refuseUnmountedDisk(album: AlbumRecord, source: BytePath) throws(FilingError) {
        let folder = LibraryLayout.albumsFolderName.appending(album.folderName)
        guard try knownMountPoints().isAlbumFolderNotMounted(folder, layout: layout) else { return }
        var hasMembers = false
        try catalogCall { () throws(CatalogError) in
            try catalog.forEachActiveEntry(inAlbum: album.id) { _, _, _, _, _ in hasMembers = true }
        }
        if hasMembers { throw .diskNotMounted(path: source, folder: layout.absolute(folder)) }
    }

    /// The mount points of the last reconcile's stamps, read once and again after
    /// each reconcile (`Reconciler` forgets them when it stores new stamps).
    private func knownMountPoints() throws(FilingError) -> MountPoints {
        if let mountPoints { return mountPoints }
        let stamps = try catalogCall { () throws(CatalogError) in try catalog.folderStamps() }
        let loaded = MountPoints(stamps: stamps)
        mountPoints = loaded
        return loaded
    }
}
