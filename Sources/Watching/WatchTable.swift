import PhotoFilerSystem

/// The watcher's own map of watch descriptors to folders.
///
/// libinotifytools keeps one too, but after `IN_IGNORED` its entry goes stale and
/// a lookup of a re-created folder's name can return the dead descriptor (GUIDE),
/// so this table is the only one trusted. A child index lets a moved-away subtree
/// be dropped in O(subtree) rather than by scanning every watch.
package struct WatchTable {
    package struct Folder: Hashable {
        package var path: BytePath
        /// The watch root this folder was reached from (its exclusions apply).
        package var root: BytePath
        package var device: UInt64
        package var inode: UInt64
    }

    private var folders: [CInt: Folder] = [:]
    private var descriptors: [BytePath: CInt] = [:]
    private var children: [BytePath: Set<BytePath>] = [:]

    package var count: Int { folders.count }
    /// Every watched folder, in no order.
    package var watchedFolders: Dictionary<CInt, Folder>.Values { folders.values }

    package func folder(wd: CInt) -> Folder? { folders[wd] }

    package func entry(path: BytePath) -> (wd: CInt, folder: Folder)? {
        guard let wd = descriptors[path], let folder = folders[wd] else { return nil }
        return (wd, folder)
    }

    /// Records a watch; an older mapping of the same descriptor or path is replaced.
    package mutating func insert(wd: CInt, folder: Folder) {
        if let old = folders[wd], old.path != folder.path { unlink(path: old.path) }
        if let oldWD = descriptors[folder.path], oldWD != wd { folders.removeValue(forKey: oldWD) }
        folders[wd] = folder
        descriptors[folder.path] = wd
        children[folder.path.parent, default: []].insert(folder.path)
    }

    /// Forgets `path` and every watched folder below it; returns their descriptors.
    package mutating func removeSubtree(_ path: BytePath) -> [CInt] {
        guard descriptors[path] != nil else { return [] }
        var removed: [CInt] = []
        var stack = [path]
        while let current = stack.popLast() {
            if let wd = descriptors.removeValue(forKey: current) {
                folders.removeValue(forKey: wd)
                removed.append(wd)
            }
            if let below = children.removeValue(forKey: current) { stack.append(contentsOf: below) }
        }
        detachFromParent(path)
        return removed
    }

    /// Forgets `path` alone: the folders below it stay (they are other roots'); its descriptor.
    package mutating func remove(_ path: BytePath) -> CInt? {
        guard let wd = descriptors.removeValue(forKey: path) else { return nil }
        folders.removeValue(forKey: wd)
        detachFromParent(path)
        return wd
    }

    private mutating func unlink(path: BytePath) {
        descriptors.removeValue(forKey: path)
        detachFromParent(path)
    }

    private mutating func detachFromParent(_ path: BytePath) {
        let parent = path.parent
        children[parent]?.remove(path)
        if children[parent]?.isEmpty == true { children.removeValue(forKey: parent) }
    }
}
