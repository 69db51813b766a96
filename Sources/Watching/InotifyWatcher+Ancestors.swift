import CInotifyTools
import Dispatch
import Glibc
import PhotoFilerSystem

/// Watching the folders above roots, so that a root whose parent is renamed or
/// removed is reported gone (its own watch would go on reporting the moved folder's
/// files under the root's old path). Runs on `queue`, as the rest of the watcher.
extension InotifyWatcher {
    /// What an ancestor is watched for: its own move or removal. `IN_MASK_ADD`, since
    /// the folder may be watched already for more (a root above a root): inotify keeps
    /// one mask a folder, and every other mask here holds these events too.
    static let ancestorMask = UInt32(
        truncatingIfNeeded: IN_MOVE_SELF | IN_DELETE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW | IN_MASK_ADD)

    /// Watches every folder above each of `roots` (`/` excepted) for its own move or
    /// removal; an ancestor of none of them any more stops being watched. One watched
    /// already is not asked for again: its own events say when its path leads
    /// elsewhere (the daemon calls this after every inbox it watches). When one
    /// moves or goes, each of `roots` that is no longer the folder watched at its path
    /// is reported `directoryGone` and stops being watched, as when it is removed
    /// itself. A folder that cannot be watched (not readable) is left: the caller's
    /// periodic rescan still finds the files of a root at its new path.
    public func watchAncestors(of roots: Set<BytePath>) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard isRunning else { return }
        ancestors.roots = roots
        let wanted = ancestors.wanted
        for (wd, path) in ancestors.all where !wanted.contains(path) {
            ancestors.remove(wd: wd)
            if table.folder(wd: wd) == nil { _ = inotify_rm_watch(fd, wd) }
        }
        for folder in wanted where ancestors.descriptor(path: folder) == nil { watchAncestor(folder) }
    }

    /// Whether `folder` is watched as the ancestor of a root.
    public func isWatchingAncestor(_ folder: BytePath) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return ancestors.descriptor(path: folder) != nil
    }

    /// An event of an ancestor itself: when it moved or went, the roots below it that
    /// are not at their paths any more are gone, and the ancestors are watched anew at
    /// their paths (a folder made in the moved one's place is watched in its turn).
    func ancestorEvent(wd: CInt, mask: UInt32, into events: inout [WatchEvent]) {
        let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)
        guard mask & gone != 0, ancestors.remove(wd: wd) != nil else { return }
        if table.folder(wd: wd) == nil { _ = inotify_rm_watch(fd, wd) }
        reportRootsNotAtTheirPaths(into: &events)
        watchAncestors(of: ancestors.roots.filter { roots[$0] != nil })
    }

    /// Each watched root (of those whose ancestors are watched) whose path now leads to
    /// another folder or to none is gone. One that cannot be looked at stays: not
    /// being able to look is not "gone".
    func reportRootsNotAtTheirPaths(into events: inout [WatchEvent]) {
        for root in ancestors.roots.sorted() where roots[root] != nil {
            guard let (_, watched) = table.entry(path: root) else { continue }
            do throws(SystemError) {
                let status = try Sys.statusIfExists(root)
                if let status, status.device == watched.device, status.inode == watched.inode { continue }
                folderGone(root, into: &events)
            } catch {
                continue
            }
        }
    }

    /// A watch the table dropped that was an ancestor's too: inotify removed it for
    /// both, so the ancestor is watched again.
    func rewatchAncestor(ifRemoved wd: CInt) {
        guard let path = ancestors.remove(wd: wd) else { return }
        watchAncestor(path)
    }

    private func watchAncestor(_ folder: BytePath) {
        let wd = folder.withCString { inotify_add_watch(fd, $0, Self.ancestorMask) }
        guard wd >= 0 else { return }
        if let old = ancestors.insert(wd: wd, path: folder), table.folder(wd: old) == nil {
            _ = inotify_rm_watch(fd, old)
        }
    }
}
