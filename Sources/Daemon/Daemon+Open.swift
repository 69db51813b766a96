import PhotoFilerFiling
import PhotoFilerSystem

/// Why `watch` could not start on a library.
public enum DaemonOpenError: Error, Sendable, CustomStringConvertible {
    case lock(DaemonLockError)
    case library(LibraryError)

    public var description: String {
        switch self {
        case .lock(let error): return error.description
        case .library(let error): return error.description
        }
    }
}

extension Daemon {
    /// The daemon for the library at `root`: takes the one-daemon lock first (so a
    /// second daemon never touches the library), then opens or creates the library.
    public static func open(
        root: BytePath, configuration: Configuration, log: Logger,
        reloadConfiguration: @escaping () throws(ConfigurationError) -> Configuration
    ) throws(DaemonOpenError) -> Daemon {
        let lock: DaemonLock
        do {
            lock = try DaemonLock(library: LibraryLayout(root: root).root)
        } catch {
            throw .lock(error)
        }
        let library: PhotoLibrary
        do {
            library = try PhotoLibrary(root: root, log: log, rebuildingLostCatalog: false)
        } catch {
            throw .library(error)
        }
        return Daemon(
            library: library, configuration: configuration, lock: lock, log: log,
            reloadConfiguration: reloadConfiguration)
    }
}
