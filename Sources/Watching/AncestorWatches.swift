import PhotoFilerSystem

/// The folders above watch roots that are watched for their own move or removal
/// only (`InotifyWatcher.watchAncestors(of:)`), by descriptor and by path.
///
/// A root's own watch hears nothing when a folder above it is renamed (`mv apps
/// apps.old` leaves `apps/QQ`'s watch on the moved folder, under its old name), so
/// each folder on the way to a root is watched for `IN_MOVE_SELF` and
/// `IN_DELETE_SELF`. inotify keeps one watch per folder, so a descriptor here may
/// also be one of `WatchTable`'s (a root above another root, the folder-only
/// watch of a missing inbox's parent); the watcher never removes a shared one.
package struct AncestorWatches {
    /// The roots whose ancestors are watched, as last asked.
    package var roots: Set<BytePath> = []
    private var paths: [CInt: BytePath] = [:]
    private var descriptors: [BytePath: CInt] = [:]

    package func path(wd: CInt) -> BytePath? { paths[wd] }

    package func descriptor(path: BytePath) -> CInt? { descriptors[path] }

    /// The ancestor folders `roots` need: every folder above each, `/` excepted
    /// (it cannot be renamed), in order from the top.
    package var wanted: [BytePath] {
        var folders: Set<BytePath> = []
        for root in roots {
            var folder = root.parent
            while folder.bytes.count > 1, folder.bytes.first == UInt8(ascii: "/") {
                folders.insert(folder)
                folder = folder.parent
            }
        }
        return folders.sorted()
    }

    /// Every watched ancestor folder with its descriptor.
    package var all: [(wd: CInt, path: BytePath)] {
        paths.map { (wd: $0.key, path: $0.value) }
    }

    /// Records `path`'s watch; returns the descriptor it had before when that
    /// differs (the path leads to another folder now), for the caller to remove.
    package mutating func insert(wd: CInt, path: BytePath) -> CInt? {
        if let previous = paths.updateValue(path, forKey: wd), previous != path {
            descriptors.removeValue(forKey: previous)
        }
        guard let old = descriptors.updateValue(wd, forKey: path), old != wd else { return nil }
        paths.removeValue(forKey: old)
        return old
    }

    /// Forgets the watch `wd`; returns its path when it was an ancestor's.
    @discardableResult
    package mutating func remove(wd: CInt) -> BytePath? {
        guard let path = paths.removeValue(forKey: wd) else { return nil }
        if descriptors[path] == wd { descriptors.removeValue(forKey: path) }
        return path
    }

    package mutating func removeAll() {
        roots = []
        paths = [:]
        descriptors = [:]
    }
}
