import PhotoFilerSystem
import PhotoFilerWatching

/// Lists what an inbox folder holds that could be filed: regular files whose names
/// are not temporary ones, and the sub-folders to descend into. The library is
/// never inbox content, even when it lies inside an inbox.
package struct InboxScanner {
    package let excluded: [BytePath]

    /// The candidate files of one folder (not its sub-folders'), and its sub-folders.
    /// A folder that cannot be listed gives nothing now, and nothing is ended because
    /// of it: the watcher reports it (`.failed`), and the next rescan looks again.
    package func scan(_ folder: BytePath) -> (files: [BytePath], folders: [BytePath]) {
        guard let entries = try? Sys.listDirectory(folder) else { return ([], []) }
        var files: [BytePath] = []
        var folders: [BytePath] = []
        for entry in entries {
            let path = folder.appending(entry.name)
            if excluded.contains(where: { path.isWithin($0) }) { continue }
            var kind = entry.kind
            // A file system without d_type: ask; one that cannot be looked at is skipped like other kinds.
            if kind == .unknown { kind = (try? Sys.status(path))?.kind ?? .unknown }
            switch kind {
            case .directory: if entry.name.bytes.first != UInt8(ascii: ".") { folders.append(path) }
            case .regular: if !TemporaryName.matches(path) { files.append(path) }
            default: continue
            }
        }
        return (files, folders)
    }

    /// Every candidate file below `root`, however deep.
    package func scanTree(_ root: BytePath) -> [BytePath] {
        var files: [BytePath] = []
        var pending = [root]
        while let folder = pending.popLast() {
            let found = scan(folder)
            files += found.files
            pending += found.folders
        }
        return files
    }
}
