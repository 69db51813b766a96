import PhotoFilerCatalog
import PhotoFilerSystem

/// The folders of the library that a disk of its own was mounted on at the last
/// reconcile, by their stamps: a Roll folder stamped on another device than the
/// folder above it, an album folder stamped on another device than the Roll.
///
/// For the filer. While such a disk is not mounted, its folder is the empty folder
/// below it, which the reconcile tells as "could not look" only while it stays empty
/// (`FolderWalk.roll`, `Reconciler.isDiskNotMounted`). A file filed into it would end
/// that: the next reconcile would read the folder as the disk's contents and end
/// every asset or membership on the disk (photofiler(1) "Deletion"). So nothing is filed
/// below such a folder while its disk is away.
struct MountPoints {
    /// Relative folder → the device it was stamped on.
    private var rollFolders: [BytePath: UInt64] = [:]
    private var albumFolders: [BytePath: UInt64] = [:]

    init(stamps: [FolderStamp]) {
        let devices = Dictionary(stamps.map { ($0.path, $0.device) }, uniquingKeysWith: { a, _ in a })
        let rollDevice = devices[LibraryLayout.rollFolderName]
        for stamp in stamps {
            if stamp.path.parent == LibraryLayout.albumsFolderName {
                if stamp.device != rollDevice { albumFolders[stamp.path] = stamp.device }
            } else if stamp.path.isWithin(LibraryLayout.rollFolderName),
                let above = devices[stamp.path.parent], above != stamp.device
            {
                rollFolders[stamp.path] = stamp.device
            }
        }
    }

    /// The Roll folder at or above `folder` (relative) where a disk is not mounted
    /// now: empty, and on the device of the folder above it, not on its stamp's.
    func rollFolderNotMounted(above folder: BytePath, layout: LibraryLayout) -> BytePath? {
        guard !rollFolders.isEmpty else { return nil }
        var candidate = folder
        while candidate.isWithin(LibraryLayout.rollFolderName), candidate != LibraryLayout.rollFolderName {
            if let device = rollFolders[candidate],
                Self.isNotMounted(
                    layout.absolute(candidate), stampedOn: device, above: layout.absolute(candidate.parent))
            {
                return candidate
            }
            candidate = candidate.parent
        }
        return nil
    }

    /// Whether the album folder `folder` (relative) is where a disk is not mounted
    /// now: empty, and on the device of `Albums/`, not on its stamp's. (The caller
    /// asks the catalog whether its album has members, as the reconcile does.)
    func isAlbumFolderNotMounted(_ folder: BytePath, layout: LibraryLayout) -> Bool {
        guard let device = albumFolders[folder] else { return false }
        return Self.isNotMounted(layout.absolute(folder), stampedOn: device, above: layout.albums)
    }

    /// Not proven when a look fails: the link that follows meets the same failure.
    private static func isNotMounted(_ path: BytePath, stampedOn device: UInt64, above: BytePath) -> Bool {
        do {
            guard let status = try Sys.statusIfExists(path), status.isDirectory, status.device != device,
                try Sys.status(above).device == status.device
            else { return false }
            return try Sys.listDirectory(path).isEmpty
        } catch {
            return false
        }
    }
}
