import Glibc
import PhotoFilerCatalog
import PhotoFilerSystem

/// The file a command writes with `-o` (`thumb`, `export --video`).
extension PhotoLibrary {
    /// Opens `path` for writing, emptied, unless it is a file of the library or has
    /// other names: nothing in the Roll or an album is ever overwritten (photofiler(1)
    /// "Never lose, never duplicate"), and a roll file's bytes are its album entries' and its hard links'
    /// too. Nor is a copy of an asset written over (`thumb PHOTO -o PHOTO`, a file an inbox keeps): the
    /// picture would be gone from where it was, and a kept inbox would file the thumbnail as a new asset.
    /// Where the path leads is what counts (a symbolic link to a roll file, a folder reached through a link
    /// into the library). A new file is made with `O_EXCL`, so a dangling link is not followed into the
    /// library. What is not a regular file (a pipe, `/dev/stdout`, `/dev/fd/N`) is written as it is: it holds
    /// no bytes to lose.
    public func openOutput(_ path: BytePath) throws(FilingError) -> FileDescriptor {
        let absolute = LibraryLayout.absolute(path)
        let found = try filer.systemCall(path) { () throws(SystemError) in
            try Sys.statusIfExists(absolute, followLinks: true)
        }
        if let found, !found.isRegularFile {
            return try filer.systemCall(path) { () throws(SystemError) in
                try Sys.open(absolute, flags: O_WRONLY | O_CLOEXEC)
            }
        }
        let library = try filer.systemCall(layout.root) { () throws(SystemError) in
            try Sys.realPath(layout.root)
        }
        guard found != nil else {
            let folder = try filer.systemCall(path) { () throws(SystemError) in
                try Sys.realPath(absolute.parent)
            }
            if folder.appending(absolute.lastComponent).isWithin(library) {
                throw .outputIsLibraryFile(path: path)
            }
            return try filer.systemCall(path) { () throws(SystemError) in
                try Sys.open(absolute, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
            }
        }
        let target = try filer.systemCall(path) { () throws(SystemError) in try Sys.realPath(absolute) }
        if target.isWithin(library) { throw .outputIsLibraryFile(path: path) }
        let fd = try filer.systemCall(path) { () throws(SystemError) in
            try Sys.open(absolute, flags: O_WRONLY | O_CLOEXEC)
        }
        do throws(FilingError) {
            let status = try filer.systemCall(path) { () throws(SystemError) in try fd.status() }
            if status.isRegularFile {
                guard status.linkCount == 1 else { throw .outputIsLibraryFile(path: path) }
                if let copied = try assetHeld(at: absolute, path: path) {
                    throw .outputIsAssetCopy(path: path, id: copied)
                }
                try filer.systemCall(path) { () throws(SystemError) in try fd.truncate(to: 0) }
            }
            return fd
        } catch {
            fd.close()
            throw error
        }
    }

    /// The asset whose bytes the file at `absolute` holds (a still, or a Live Photo's
    /// video), if any; a file photofiler may write but not read holds none it can know of.
    private func assetHeld(at absolute: BytePath, path: BytePath) throws(FilingError) -> AssetID? {
        let hash = try filer.systemCall(path) { () throws(SystemError) -> String? in
            let reader: FileDescriptor
            do throws(SystemError) {
                reader = try Sys.openForReading(absolute)
            } catch  where error.errno.isPermission {
                return nil
            }
            defer { reader.close() }
            return try ContentHasher.hash(reader)
        }
        guard let hash else { return nil }
        return try filer.catalogCall { () throws(CatalogError) in
            try catalog.owners(ofContent: hash).either?.id
        }
    }
}
