import PhotoFilerSystem

/// A part of the filing layer that works in one library: its system calls' errors
/// become `FilingError`s that name the library's paths, in one place.
package protocol LibraryScoped {
    var layout: LibraryLayout { get }
}

extension LibraryScoped {
    /// Runs `body`, mapping its `SystemError` to the `FilingError` about `source`.
    package func systemCall<R>(_ source: BytePath, _ body: () throws(SystemError) -> R) throws(FilingError)
        -> R
    {
        do {
            return try body()
        } catch {
            throw FilingError.from(error, library: layout, source: source)
        }
    }

    /// The status of `path` (not following a last symbolic link), nil when nothing is
    /// there: what could not be looked at throws, it is not "gone".
    package func statusIfExists(_ path: BytePath) throws(FilingError) -> FileStatus? {
        try systemCall(path) { () throws(SystemError) in try Sys.statusIfExists(path) }
    }
}
