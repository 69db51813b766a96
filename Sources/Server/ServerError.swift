import PhotoFilerCatalog
import PhotoFilerSystem

/// Why the gallery could not start, with the fix.
public enum ServerError: Error, Sendable, CustomStringConvertible {
    case badAddress(String)
    case cannotListen(address: String, errno: Errno)
    case cannotWatch(SystemError)
    /// The catalog could not be read at start (its own message names the file and the fix).
    case catalog(CatalogError)

    public var description: String {
        switch self {
        case .badAddress(let text):
            return
                "'\(text)' is not an address to listen on; give ADDR:PORT with an IPv4 address, an IPv6 address in brackets or localhost, e.g. 127.0.0.1:8765 or [::1]:8765."
        case .cannotListen(let address, let errno):
            return
                "The gallery cannot listen on \(address) (\(errno.message)); pick another port with --listen ADDR:PORT, or stop what is using it."
        case .cannotWatch(let error):
            return
                "The gallery cannot watch the catalog for changes (\(error)); raise fs.inotify.max_user_instances."
        case .catalog(let error):
            return error.description
        }
    }
}
