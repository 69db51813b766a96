import Glibc

@testable import PhotoFilerCore

/// A fresh folder under /tmp for one test, removed with everything in it when the
/// test lets go of it (or earlier, by `remove()`).
final class TemporaryFolder {
    let path: BytePath

    init() throws {
        var template = Array("/tmp/photofiler-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw SystemError(.noSuchFile, call: "mkdtemp", path: nil) }
        path = BytePath(cString: made)
    }

    deinit { remove() }

    /// A path inside the folder.
    func file(_ name: String) -> BytePath { path.appending(name) }

    /// A catalog at `catalog.sqlite` in this folder.
    func catalog() throws -> Catalog { try Catalog(path: file("catalog.sqlite")) }

    func remove() { Self.removeTree(path) }

    static func removeTree(_ path: BytePath) {
        guard let status = try? Sys.status(path) else { return }
        if status.isDirectory {
            for entry in (try? Sys.listDirectory(path)) ?? [] { removeTree(path.appending(entry.name)) }
            try? Sys.removeDirectory(path)
        } else {
            try? Sys.unlink(path)
        }
    }
}
