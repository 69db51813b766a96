import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem

/// What a reconcile saw of the Roll's folders, and how it saw each: read, or found
/// unchanged since its stamp (Schema.folderStamps) and so not read at all.
///
/// A folder's mtime and ctime change whenever an entry in it is added, removed or
/// renamed (and ctime also when its mtime is set back, as `touch -d` does), so a
/// folder with the same device, inode and times as its stamp holds the same names
/// as when the catalog last agreed with it. Its sub-folders are then the stamped
/// ones below it, and each is looked at in turn.
struct FolderWalk {
    enum Look: Equatable {
        /// Same identity and times as its trusted stamp: not read.
        case unchanged
        /// Read, entry by entry.
        case read
    }

    /// Relative folder path → how it was seen. A folder not here was not found, or is
    /// in `unreadable`.
    var folders: [BytePath: Look] = [:]
    /// Each folder walked, as it was before it was read: the stamps a reconcile
    /// stores once the catalog agrees with it.
    var stamps: [FolderStamp] = []
    /// The regular files of the folders that were read: relative path → size, inode.
    var rollFiles: [BytePath: Reconciler.RollFile] = [:]
    /// Folders and files that could not be read or looked at, with the reason:
    /// nothing below them is known, so nothing there is gone.
    var unreadable: [BytePath: LookFailure] = [:]

    /// How long after a folder's last change its times are not trusted: on a file
    /// system with coarse timestamps (1 s on ext4 with small inodes, 2 s on FAT) an
    /// entry added in the same tick as the stamp leaves the times as they were.
    static let coarseTimestampNanoseconds: Int64 = 3_000_000_000

    var readCount: Int { folders.values.count { $0 == .read } }

    /// True when `rollPath` is, or lies below, a place that could not be looked at.
    func couldNotLook(at rollPath: BytePath) -> Bool {
        guard !unreadable.isEmpty else { return false }
        var path = rollPath
        while path.components.count > 1 {
            if unreadable[path] != nil { return true }
            path = path.parent
        }
        return unreadable[path] != nil
    }

    /// Whether the folder at `relative` (status `status`, seen at `clock`) is unchanged
    /// since `stamp`, and the stamp to store for it.
    static func look(at relative: BytePath, status: FileStatus, stamp: FolderStamp?, clock: Int64)
        -> (unchanged: Bool, stamp: FolderStamp)
    {
        if let stamp, stamp.trusted, stamp.matches(status) { return (true, stamp) }
        let lastChange = max(status.modificationNanoseconds, status.changeNanoseconds)
        let settled = lastChange <= clock - coarseTimestampNanoseconds
        return (false, FolderStamp(path: relative, status: status, trusted: settled))
    }

    /// The wall clock in nanoseconds, as file times are kept (not the filer's clock,
    /// which tests replace: this is about the file system's own timestamps).
    static func clock() -> Int64 { Int64(Date().timeIntervalSince1970 * 1e9) }

    /// Walks `Roll/`: folders whose trusted stamp still matches are not read, their
    /// stamped sub-folders are looked at instead; the others are read entry by entry
    /// (each entry looked up relative to its folder's descriptor), dot folders left
    /// out (`LibraryLayout.isForeignName`). A folder or file
    /// that cannot be looked at (permissions, an I/O error, a disk not mounted yet) is
    /// noted, not skipped in silence: what is in it is unknown, not missing (photofiler(1) "Deletion").
    /// So is a folder stamped as a mount (on another device than the folder above it)
    /// that is now empty on the device of the folder above it (`notMounted`: a library
    /// moved whole to another disk moves its folders' devices alike), and a stamped
    /// folder that is now a symbolic link (`symbolicLink`). The stamp of a folder not
    /// looked at is kept, so the next walk knows it too.
    ///
    /// With `readEvery` (`check`) every folder is read; the stamps then only tell
    /// which folders were there, and on which device.
    ///
    /// With `statFiles` false (`check`, which opens and `fstat`s every roll file
    /// anyway), once one entry of a folder was looked up, an entry that `readdir`
    /// says is a regular file is not: its size is unknown (-1) and its inode is
    /// `readdir`'s until hashing sets the one `fstat` gives.
    static func roll(
        layout: LibraryLayout, stamps previous: [BytePath: FolderStamp], clock: () -> Int64,
        readEvery: Bool = false, statFiles: Bool = true
    ) -> FolderWalk {
        var walk = FolderWalk()
        var stampedChildren: [BytePath: [BytePath]] = [:]
        for path in previous.keys where path.isWithin(LibraryLayout.rollFolderName) {
            stampedChildren[path.parent, default: []].append(path)
        }
        var pending: [BytePath] = [LibraryLayout.rollFolderName]
        while let folder = pending.popLast() {
            let absolute = layout.absolute(folder)
            let found: FileStatus?
            do {
                found = try Sys.statusIfExists(absolute)
            } catch {
                walk.couldNotLook(at: folder, .system(error.errno), stamp: previous[folder])
                continue
            }
            guard let status = found else { continue }
            guard status.isDirectory else {
                walk.noteLinkInPlace(of: folder, status: status, stamp: previous[folder])
                continue
            }
            let seen = look(
                at: folder, status: status, stamp: readEvery ? nil : previous[folder], clock: clock())
            if seen.unchanged {
                walk.folders[folder] = .unchanged
                walk.stamps.append(seen.stamp)
                pending += stampedChildren[folder] ?? []
                continue
            }
            do {
                let directory = try Sys.openDirectory(absolute)
                defer { directory.close() }
                var searchable = false
                var isEmpty = true
                try Sys.forEachEntry(in: directory, path: absolute) { entry throws(SystemError) in
                    isEmpty = false
                    let relative = folder.appending(entry.name)
                    if searchable, entry.kind == .regular {
                        walk.rollFiles[relative] = Reconciler.RollFile(size: -1, inode: entry.inode)
                        return true
                    }
                    let child: FileStatus?
                    do throws(SystemError) {
                        child = try Sys.statusIfExists(entry.name, in: directory)
                    } catch {
                        walk.couldNotLook(at: relative, .system(error.errno), stamp: previous[relative])
                        return true
                    }
                    guard let child else { return true }
                    // One entry looked at proves the folder searchable (a folder that can be
                    // listed but not searched fails every look-up): `readdir` is trusted on.
                    searchable = !statFiles
                    if child.isDirectory {
                        if !LibraryLayout.isForeignName(entry.name) { pending.append(relative) }
                    } else if child.isRegularFile {
                        walk.rollFiles[relative] = Reconciler.RollFile(size: child.size, inode: child.inode)
                    } else {
                        walk.noteLinkInPlace(of: relative, status: child, stamp: previous[relative])
                    }
                    return true
                }
                if isEmpty, let stamp = previous[folder], let above = previous[folder.parent],
                    stamp.device != above.device, status.device != stamp.device,
                    try Sys.statusIfExists(layout.absolute(folder.parent))?.device == status.device
                {
                    walk.couldNotLook(at: folder, .notMounted, stamp: stamp)
                    continue
                }
            } catch  where error.errno == .noSuchFile {
                continue
            } catch {
                walk.couldNotLook(at: folder, .system(error.errno), stamp: previous[folder])
                continue
            }
            walk.folders[folder] = .read
            walk.stamps.append(seen.stamp)
        }
        return walk
    }

    /// A symbolic link where the last walk stamped a folder: the folder was moved
    /// elsewhere and linked back, and what it held is not gone. (A link that never
    /// was a folder here is no roll file, and is left out as before.)
    private mutating func noteLinkInPlace(of path: BytePath, status: FileStatus, stamp: FolderStamp?) {
        guard status.isSymbolicLink, let stamp else { return }
        couldNotLook(at: path, .symbolicLink, stamp: stamp)
    }

    /// Notes `path` as not looked at; its last stamp is kept (the reconcile stores it
    /// untrusted), so the next walk still knows the folder was there, and on which device.
    private mutating func couldNotLook(at path: BytePath, _ reason: LookFailure, stamp: FolderStamp?) {
        unreadable[path] = reason
        if let stamp { stamps.append(stamp) }
    }
}
