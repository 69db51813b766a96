import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem

/// Albums on disk: finds or creates an album (by its stored id once known) and
/// links roll files into it. Shared by filing, restore and repair so that there
/// is one way an album entry is made.
package final class AlbumLinker {
    private let layout: LibraryLayout
    private let catalog: Catalog
    private let log: Logger
    /// Albums already looked up this run, by NFC name.
    private var albumsByName: [String: AlbumRecord] = [:]

    package init(layout: LibraryLayout, catalog: Catalog, log: Logger) {
        self.layout = layout
        self.catalog = catalog
        self.log = log
    }

    /// The album called `name`, created (folder and row) on first use, never twice.
    package func album(named name: AlbumName, now: Double) throws(FilingError) -> AlbumRecord {
        if let known = albumsByName[name.value] { return known }
        do {
            // Looked up first without the write lock: the album usually exists.
            let album =
                try catalog.album(named: name.value)
                ?? catalog.albumCreatingIfMissing(name: name.value, folderName: name.folderName, at: now)
            if try Sys.makeDirectories(layout.albumFolder(album)) {
                try Sys.syncDirectory(layout.albums)
            }
            albumsByName[name.value] = album
            return album
        } catch let error as SystemError {
            throw FilingError.from(error, library: layout, source: layout.albums)
        } catch let error as CatalogError {
            throw .catalog(error)
        } catch {
            throw .system(SystemError(.ioError, call: "album", path: layout.albums))
        }
    }

    /// Forgets cached albums (after a repair or when another process may have changed them).
    package func forgetCachedAlbums() { albumsByName.removeAll() }

    /// Links the roll file at `rollPath` (relative) into `album`; returns the entry's
    /// name. An entry that already links this roll file under a candidate name (made
    /// by an attempt a crash cut short) is that name: one entry per asset. A hard link that fails across file
    /// systems (EXDEV) falls back to a relative symbolic link, with one log line. The album folder is not
    /// synced here: the caller syncs it (once for a batch).
    package func link(rollPath: BytePath, into album: AlbumRecord, kind: LinkKind) throws(SystemError)
        -> BytePath
    {
        do {
            return try makeEntry(rollPath: rollPath, into: album, kind: kind)
        } catch  where error.errno == .noSuchFile {
            // The album's folder was removed while this process ran (a file manager):
            // the album is made again on its next use, as on its first.
            let folder = layout.albumFolder(album)
            guard try Sys.statusIfExists(folder) == nil else { throw error }
            if try Sys.makeDirectories(folder) { try Sys.syncDirectory(layout.albums) }
            log.info(
                "The album folder '\(folder.display)' was removed; it is made again for what is filed into it."
            )
            return try makeEntry(rollPath: rollPath, into: album, kind: kind)
        }
    }

    private func makeEntry(rollPath: BytePath, into album: AlbumRecord, kind: LinkKind) throws(SystemError)
        -> BytePath
    {
        let folder = layout.albumFolder(album)
        let target = layout.absolute(rollPath)
        let preferred = rollPath.lastComponent
        if kind == .hard {
            do {
                return try NameAllocator.hardLink(target, into: folder, preferred: preferred)
            } catch
                where error.errno == .crossDevice || error.errno == .notPermitted
                || error.errno == .tooManyLinks
            {
                log.info(
                    "The album folder '\(folder.display)' cannot hold a hard link to '\(target.display)' (\(error.errno.message)); a symbolic link is used instead."
                )
            }
        }
        let relativeTarget = target.relative(from: folder)
        return try NameAllocator.symbolicLink(to: relativeTarget, into: folder, preferred: preferred)
    }

    /// Removes an album entry if it is still there (missing is fine: it is what we want).
    package func unlinkEntry(_ entryName: BytePath, in album: AlbumRecord) throws(SystemError) {
        try Sys.unlinkIfPresent(layout.albumFolder(album).appending(entryName))
    }
}

extension AlbumLinker {
    /// Points the symbolic-link entry `entryName` of `album` at the roll file now at
    /// `rollPath`: the new link is made in `.photofiler/tmp` and renamed over the
    /// old one, so the entry is never missing and nothing temporary is in the album.
    func repoint(_ entryName: BytePath, in album: AlbumRecord, to rollPath: BytePath) throws(SystemError) {
        let folder = layout.albumFolder(album)
        let target = layout.absolute(rollPath).relative(from: folder)
        // One at a time per process (the filer's queue), so the process id makes it unique.
        let staged = layout.temporary.appending("repoint-\(getpid()).lnk")
        try Sys.unlinkIfPresent(staged)
        try Sys.symbolicLink(target: target, at: staged)
        try Sys.rename(staged, to: folder.appending(entryName))
        try Sys.syncDirectory(folder)
    }
}
