import Glibc

@testable import PhotoFilerCore

/// A fresh folder under /tmp, removed when the value goes away.
final class TemporaryFolder {
    let path: BytePath

    init() throws {
        var template = Array("/tmp/photofiler-daemon-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemError(Errno(rawValue: errno), call: "mkdtemp", path: nil)
        }
        path = BytePath(cString: made)
    }

    func write(_ text: String, to file: BytePath) throws {
        let fd = try Sys.open(file, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
        defer { fd.close() }
        try Array(text.utf8).withUnsafeBytes { bytes in try fd.writeAll(bytes) }
    }

    deinit {
        Self.remove(path)
    }

    private static func remove(_ path: BytePath) {
        if let entries = try? Sys.listDirectory(path) {
            for entry in entries {
                let child = path.appending(entry.name)
                if (try? Sys.status(child))?.isDirectory == true {
                    remove(child)
                } else {
                    try? Sys.unlink(child)
                }
            }
        }
        try? Sys.removeDirectory(path)
    }
}
