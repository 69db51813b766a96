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
    /// The roll file could not be opened or a thumbnail could not be written.
    case system(SystemError)
    case catalog(CatalogError)

    public var description: String {
        switch self {
        case .undecodable(let path, let reason):
            return
                "'\(path.display)' cannot be decoded for a thumbnail (\(reason)); it stays filed, shown without one."
        case .unavailable(let path, let reason):
            return "'\(path.display)' gets its thumbnail later: \(reason)"
        case .system(let error):
            return
                "A thumbnail could not be made (\(error)); check that the library is readable and has room."
        case .catalog(let error):
            return error.description
        }
    }
}
