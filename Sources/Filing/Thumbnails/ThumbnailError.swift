import PhotoFilerCatalog
import PhotoFilerSystem

/// Why an asset has no thumbnail. Each case names the file; `description` is one sentence.
public enum ThumbnailError: Error, Sendable, CustomStringConvertible {
    /// The decoders could not make a picture of it (a damaged file, a format
    /// libvips, libheif or libavcodec does not read, a RAW without a usable preview).
    case undecodable(path: BytePath, reason: String)
    /// No sandboxed helper could be had for it (photofiler is stopping, or
    /// photofiler-helper is missing): not the file's fault, so it is tried again.
    case unavailable(path: BytePath, reason: String)
    /// A thumbnail, its failure marker, a desktop cache entry or a folder of them could
    /// not be looked at (no permission, a failing disk): it is not taken as missing,
    /// so nothing is made again for it until `folder` is fixed.
    case couldNotLook(path: BytePath, folder: BytePath, reason: Errno)
    /// The roll file could not be opened or a thumbnail could not be written.
    case system(SystemError)
    case catalog(CatalogError)

    /// What a failed look at a file gives (the fix is in its folder), or at a folder (in itself).
    static func couldNotLook(_ error: SystemError, isFolder: Bool = false) -> ThumbnailError {
        let path = error.path ?? BytePath(".")
        return .couldNotLook(path: path, folder: isFolder ? path : path.parent, reason: error.errno)
    }

    public var description: String {
        switch self {
        case .undecodable(let path, let reason):
            return
                "'\(path.display)' cannot be decoded for a thumbnail (\(reason)); it stays filed, shown without one."
        case .unavailable(let path, let reason):
            return "'\(path.display)' gets its thumbnail later: \(reason)."
        case .couldNotLook(let path, let folder, let reason):
            let fix =
                reason.isPermission
                ? "fix the permissions of '\(folder.display)'" : "check the disk holding '\(folder.display)'"
            return
                "'\(path.display)' cannot be looked at (\(reason.message.lowercased())), so its thumbnails are not made again; \(fix)."
        case .system(let error):
            return
                "A thumbnail could not be made (\(error)); check that the library is readable and has room."
        case .catalog(let error):
            return error.description
        }
    }
}
