import PhotoFilerFiling
import PhotoFilerSystem

/// Every regular file below `root`, however deep, sorted; symbolic links are not
/// followed and nothing within `excluding` is listed (the library inside an inbox).
public func regularFiles(under root: BytePath, excluding: BytePath? = nil) -> [BytePath] {
    var result: [BytePath] = []
    var pending = [root]
    while let folder = pending.popLast() {
        for entry in (try? Sys.listDirectory(folder)) ?? [] {
            let path = folder.appending(entry.name)
            if let excluding, path.isWithin(excluding) { continue }
            var kind = entry.kind
            if kind == .unknown { kind = (try? Sys.status(path))?.kind ?? .unknown }
            switch kind {
            case .directory: pending.append(path)
            case .regular: result.append(path)
            default: continue
            }
        }
    }
    return result.sorted()
}

/// SHA-256 of a file's bytes (not following a final symbolic link), lowercase hex.
public func sha256(of path: BytePath) throws -> String {
    let fd = try Sys.openForReading(path)
    defer { fd.close() }
    return try ContentHasher.hash(fd)
}
