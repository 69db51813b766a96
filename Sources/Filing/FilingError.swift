import Glibc
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Why one file was not filed. Each case names the file; `description` is one
/// sentence with the fix. In every case the source is left where it was.
public enum FilingError: Error, Sendable {
    /// A FIFO, device, socket or folder: never opened for reading, never filed.
    case notRegularFile(path: BytePath, kind: FileKind)
    /// Symbolic links in an inbox are never followed.
    case symbolicLink(path: BytePath)
    /// Gone before it could be opened (moved away or deleted meanwhile).
    case vanished(path: BytePath)
    /// The file lies inside the library itself.
    case insideLibrary(path: BytePath)
    /// Its size or mtime changed while it was being read: a writer still has it.
    case changedWhileFiling(path: BytePath)
    case media(MediaError)
    /// The disk (or quota) holding the library is full.
    case outOfSpace(path: BytePath, library: BytePath)
    /// Reading the source or writing the library was refused; `library` is the
    /// library's root when `path` lies in it (the fix is then the library's).
    case permissionDenied(path: BytePath, call: String, library: BytePath?)
    /// The album name is not a safe folder name.
    case badAlbumName(AlbumName.Problem)
    /// No asset has this id.
    case unknownAsset(id: AssetID)
    /// The asset is not (or no longer) a member of that album.
    case notInAlbum(id: AssetID, album: String)
    /// `restore` of an asset whose file was deleted outside photofiler with nothing
    /// of it left (its albums held symbolic links only).
    case deletedOutside(id: AssetID)
    /// No user or smart album has this name.
    case noSuchAlbum(String)
    /// `export --video` of an asset that is no Live Photo or motion photo.
    case notLivePhoto(id: AssetID)
    /// An output file (`thumb -o`, `export -o`) that is a file of the library, or has
    /// other names (which may be the library's): writing it could change what the library holds.
    case outputIsLibraryFile(path: BytePath)
    /// An output file that holds the bytes of asset `id` (the photo itself, outside
    /// the library): written over, the picture would be gone from there.
    case outputIsAssetCopy(path: BytePath, id: AssetID)
    /// A file the catalog lists is not in the library (removed while no daemon ran).
    case missingFromLibrary(path: BytePath)
    /// `info` or `thumb` given a path where no file is (`kind` nil), or a folder,
    /// device or socket: no asset can be found by it.
    case notAnAssetFile(path: BytePath, kind: FileKind?)
    /// The daemon was told to stop before this file of its group was read to the end:
    /// it stays in its inbox for the next start (SIGTERM exits within 5 s: photofiler(1) "The daemon").
    case stopped(path: BytePath)
    /// Its Roll or album folder is the empty folder where a disk of the library is not
    /// mounted now (`folder`): filing there would hide the disk's photos (`MountPoints`).
    case diskNotMounted(path: BytePath, folder: BytePath)
    /// Its Roll folder is on another disk than `.photofiler/` (a year moved onto a disk
    /// of its own): a file enters the Roll by a hard link from the library's disk.
    case rollFolderOnAnotherDisk(path: BytePath, folder: BytePath)
    case system(SystemError)
    case catalog(CatalogError)

    /// A resource the whole process ran out of: every file would fail the same way
    /// until it comes back, so the daemon keeps the file, says so once and retries.
    public enum Shortage: String, Sendable {
        case diskSpace, descriptors
    }

    public var shortage: Shortage? {
        switch self {
        case .outOfSpace: return .diskSpace
        case .system(let error) where error.errno == .tooManyOpenFiles || error.errno.rawValue == ENFILE:
            return .descriptors
        default: return nil
        }
    }
}

extension FilingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notRegularFile(let path, let kind):
            return
                "'\(path.display)' is \(kind.article), not a regular file; it is left alone, as photofiler files only regular files."
        case .symbolicLink(let path):
            return
                "'\(path.display)' is a symbolic link, which photofiler never follows; it is left alone: file the picture it points to instead."
        case .vanished(let path):
            return
                "'\(path.display)' does not exist (moved or deleted before it could be filed); check the path."
        case .insideLibrary(let path):
            return
                "'\(path.display)' is inside the library itself; only files from outside the library can be filed."
        case .changedWhileFiling(let path):
            return
                "'\(path.display)' changed while it was being filed; it is left in place and filed once its writer is done."
        case .media(let error):
            return error.description
        case .outOfSpace(let path, let library):
            return
                "The disk holding the library '\(library.display)' is full, so '\(path.display)' stays where it is; free some space and it is filed."
        case .permissionDenied(let path, let call, let library?):
            return
                "Permission denied (\(call)) on '\(path.display)'; give photofiler read and write access to the folders of the library '\(library.display)'."
        case .permissionDenied(let path, let call, nil):
            return
                "Permission denied (\(call)) on '\(path.display)'; give photofiler read access to it (and write access to its folder, for a file it moves out of an inbox)."
        case .badAlbumName(let problem):
            return problem.description
        case .unknownAsset(let id):
            return "No asset has the id \(id); 'photofiler list' shows the ids."
        case .notInAlbum(let id, let album):
            return "Asset \(id) is not in the album '\(album)'; 'photofiler info \(id)' lists its albums."
        case .deletedOutside(let id):
            return
                "Asset \(id) cannot be restored: its file was deleted outside photofiler and no copy of it is left; drop the photo into an inbox again if you still have it."
        case .noSuchAlbum(let name):
            return "There is no album named '\(name)'; 'photofiler albums' lists them."
        case .notLivePhoto(let id):
            return
                "Asset \(id) is not a Live Photo and has no video to export; 'photofiler list --media live' lists those that have one."
        case .outputIsLibraryFile(let path):
            return
                "'\(path.display)' is in the library, or has other names (hard links) that may be the library's files, and photofiler never writes there; give -o a new file outside the library."
        case .outputIsAssetCopy(let path, let id):
            return
                "'\(path.display)' is a copy of asset \(id), and photofiler never writes over a photo or video; give -o a new file."
        case .notAnAssetFile(let path, nil):
            return
                "'\(path.display)' is neither an asset id nor a file that exists; give an id or a path that 'photofiler list' shows."
        case .notAnAssetFile(let path, let kind?):
            return
                "'\(path.display)' is \(kind.article), not a photo or video file; give an asset's id, or the path of its roll file or of an album entry ('photofiler list' shows them)."
        case .missingFromLibrary(let path):
            return
                "'\(path.display)' is missing from the library; 'photofiler check' lists what differs and 'photofiler check --repair' makes the catalog match the disk."
        case .stopped(let path):
            return
                "photofiler stopped before '\(path.display)' was filed; it stays in its inbox and is filed at the next start."
        case .diskNotMounted(let path, let folder):
            return
                "'\(path.display)' is left where it is: it belongs in '\(folder.display)', the empty folder where a disk of the library was mounted, and filing it there would hide that disk's photos; mount the disk again, then file it again (the daemon tries it again once the disk is mounted)."
        case .rollFolderOnAnotherDisk(let path, let folder):
            return
                "'\(path.display)' is left where it is: it belongs in '\(folder.display)', which is on another disk than the library's '.photofiler' folder, and photofiler puts a file into the Roll by a hard link from the library's disk so that no half-copied file is ever seen there; move that folder back onto the library's disk, or copy the photo into it by hand."
        case .system(let error):
            return "A file operation failed: \(error); check the path and try again."
        case .catalog(let error):
            return error.description
        }
    }
}

extension FilingError {
    /// Maps a catalog failure: SQLITE_FULL is the disk under the catalog being full,
    /// the same case (and the same retry in the daemon) as a full disk under the Roll.
    package static func from(_ error: CatalogError, library: LibraryLayout, source: BytePath) -> FilingError {
        if error.isDiskFull {
            return .outOfSpace(path: source, library: library.root)
        }
        return .catalog(error)
    }

    /// Maps a system call failure to the case a person can act on.
    package static func from(_ error: SystemError, library: LibraryLayout, source: BytePath) -> FilingError {
        if error.errno.isOutOfSpace { return .outOfSpace(path: source, library: library.root) }
        if error.errno.isPermission {
            let path = error.path ?? source
            let absolute = LibraryLayout.absolute(path)
            return .permissionDenied(
                path: path, call: error.call, library: absolute.isWithin(library.root) ? library.root : nil)
        }
        // A read given up because photofiler is stopping (`ContentCopier`'s `stop`).
        if error.errno == .cancelled { return .stopped(path: source) }
        return .system(error)
    }
}
