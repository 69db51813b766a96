import Glibc
import PhotoFilerCore

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
    var json: Bool
    var verbose: Bool
    let log: Logger

    /// Opens the library SPEC's order names; prints the error and returns nil on failure.
    func openLibrary() -> PhotoLibrary? {
        let root = libraryFlag ?? LibraryDefaults.root()
        do {
            return try PhotoLibrary(root: root, log: log)
        } catch {
            fail(error.description)
            return nil
        }
    }

    func fail(_ message: String) {
        log.error(message)
    }
}

enum LibraryDefaults {
    /// `$PHOTOFILER_LIBRARY`, else `$XDG_PICTURES_DIR/PhotoFiler`, else `~/Pictures/PhotoFiler`.
    static func root() -> BytePath {
        if let value = getenv("PHOTOFILER_LIBRARY"), value.pointee != 0 { return BytePath(cString: value) }
        if let value = getenv("XDG_PICTURES_DIR"), value.pointee != 0 {
            return BytePath(cString: value).appending("PhotoFiler")
        }
        let home = getenv("HOME").map { BytePath(cString: $0) } ?? "/"
        return home.appending("Pictures/PhotoFiler")
    }
}

/// Parses an asset id operand.
func parseIDs(_ operands: [BytePath], command: String) throws(UsageError) -> [AssetID] {
    if operands.isEmpty { throw UsageError("Give at least one asset id; see 'photofiler \(command) --help'.") }
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
        return try AlbumName(validating: text.display)
    } catch {
        throw UsageError(error.description)
    }
}
