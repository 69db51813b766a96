import PhotoFilerCatalog
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerSystem

/// One subcommand: parses its own options (validate before run), then runs.
protocol Command {
    static var name: String { get }
    /// The usage line and what it does, shown by `--help`.
    static var help: String { get }
    init(_ arguments: inout Arguments) throws(UsageError)
    /// Exit status: 0 success, 1 a failure of the work.
    func run(_ context: Context) -> Int32
}

/// What every command shares: the library, the output mode, the log.
struct Context {
    var libraryFlag: BytePath?
    /// The config file's settings (`--config FILE`, else the default file when it exists).
    var configuration: Configuration?
    var json: Bool
    var verbose: Bool
    let log: Logger

    /// The library, in the order photofiler(1) names: `--library`, `$PHOTOFILER_LIBRARY`, the config
    /// file, `$XDG_PICTURES_DIR/PhotoFiler`; prints the error and returns nil when
    /// the last could not be read.
    func libraryRoot() -> BytePath? {
        do {
            return try LibraryLocation.resolve(flag: libraryFlag, config: configuration).path
        } catch {
            fail(
                "Could not read '\(error.path?.display ?? "user-dirs.dirs")' to find the pictures folder "
                    + "(\(error.errno.message)); fix it, or give the library with --library DIR.")
            return nil
        }
    }

    /// Opens the library; prints the error and returns nil on failure.
    func openLibrary() -> PhotoLibrary? {
        guard let root = libraryRoot() else { return nil }
        do {
            return try PhotoLibrary(root: root, log: log)
        } catch {
            fail(error.description)
            return nil
        }
    }

    /// Runs `body` for each id, reporting each failure and going on with the rest;
    /// exit status 1 when any failed.
    func forEachAsset(_ ids: [AssetID], _ body: (PhotoLibrary, AssetID) throws(FilingError) -> Void) -> Int32
    {
        guard let library = openLibrary() else { return 1 }
        var status: Int32 = 0
        for id in ids {
            do {
                try body(library, id)
            } catch {
                fail(error.description)
                status = 1
            }
        }
        return status
    }

    func fail(_ message: String) {
        log.error(message)
    }
}

/// Parses an asset id operand.
func parseIDs(_ operands: [BytePath], command: String) throws(UsageError) -> [AssetID] {
    if operands.isEmpty {
        throw UsageError("Give at least one asset id; see 'photofiler \(command) --help'.")
    }
    var ids: [AssetID] = []
    for operand in operands {
        guard let id = AssetID(operand.display), id > 0 else {
            throw UsageError("'\(operand.display)' is not an asset id; 'photofiler list' shows the ids.")
        }
        ids.append(id)
    }
    return ids
}

func parseAlbumName(_ text: BytePath?) throws(UsageError) -> AlbumName? {
    guard let text else { return nil }
    do {
        return try AlbumName(validatingBytes: text.bytes)
    } catch {
        throw UsageError(error.description)
    }
}
