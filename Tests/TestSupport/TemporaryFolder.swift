import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerSystem

/// A fresh folder under /tmp for one test, removed with everything in it when the
/// test lets go of it (or earlier, by `remove()`).
public final class TemporaryFolder {
    public let path: BytePath

    public init() throws {
        var template = Array("/tmp/photofiler-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw SystemError(.noSuchFile, call: "mkdtemp", path: nil) }
        path = BytePath(cString: made)
    }

    deinit { remove() }

    /// A path inside the folder.
    public func file(_ name: String) -> BytePath { path.appending(name) }

    /// Writes `text` to `file` (replacing it).
    public func write(_ text: String, to file: BytePath) throws {
        try writeFile(file, Array(text.utf8))
    }

    /// A catalog at `catalog.sqlite` in this folder.
    public func catalog() throws -> Catalog { try Catalog(path: file("catalog.sqlite")) }

    public func remove() { Self.removeTree(path) }

    public static func removeTree(_ path: BytePath) {
        guard let status = try? Sys.status(path) else { return }
        if status.isDirectory {
            for entry in (try? Sys.listDirectory(path)) ?? [] { removeTree(path.appending(entry.name)) }
            try? Sys.removeDirectory(path)
        } else {
            try? Sys.unlink(path)
        }
    }
}

/// Reads a whole file as bytes.
public func readFile(_ path: BytePath) throws -> [UInt8] {
    let fd = try Sys.openForReading(path)
    defer { fd.close() }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
        if count == 0 { return result }
        result.append(contentsOf: buffer[..<count])
    }
}

/// Writes a whole file (replacing it), closes it: one IN_CLOSE_WRITE.
public func writeFile(_ path: BytePath, _ bytes: [UInt8] = Array("photo".utf8)) throws {
    _ = try? Sys.unlinkIfPresent(path)
    let fd = try Sys.createExclusive(path)
    defer { fd.close() }
    try bytes.withUnsafeBytes { try fd.writeAll($0) }
}

/// Copies a file's bytes to a new path (the copy gets a fresh inode and mtime).
public func copyFile(_ source: BytePath, to destination: BytePath) throws {
    try writeFile(destination, try readFile(source))
}

/// Waits until `condition` holds, checking every 10 ms, for up to `timeout` seconds.
/// A wait-for-condition, not a sleep: it returns as soon as the condition holds.
@discardableResult
public func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
