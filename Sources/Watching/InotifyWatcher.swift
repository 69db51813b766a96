import CInotifyTools
import Dispatch
import Glibc
import PhotoFilerSystem

/// Watches folder trees through libinotifytools and reports `WatchEvent`s in
/// batches, costing no CPU while nothing happens (a thread asleep in `poll` on the
/// library's fd, `InotifyDrainThread`, which has the queue read it; no timeout).
///
/// Thread safety: `@unchecked Sendable` is sound because every piece of mutable
/// state here, and every call into libinotifytools (whose state is global and
/// unlocked), happens on `queue`, a serial queue: public methods check it with
/// `dispatchPrecondition`, the drains and the handler run on it. Only one
/// watcher exists at a time (`InotifyLibrary.ownership`).
///
/// Driving it (the daemon):
/// 1. `InotifyWatcher.initializeEarly()` first thing in `main`, while the library's
///    fd is still below 1024 (it uses `select()`).
/// 2. `let watcher = try InotifyWatcher { batch in … }`: the handler runs on
///    `watcher.queue`.
/// 3. On that queue: `let folders = try watcher.watch(directory: inbox, excluding: [library])`,
///    then scan each returned folder (files already there produce no events), and
///    `watcher.watchAncestors(of: roots)` so that a folder above a root renamed or
///    removed makes it `.directoryGone` too.
/// 4. On `.directoryAppeared(f)` scan `f`; on `.overflow` rescan every root; on
///    `.directoryGone(root)` watch `root` again once it exists.
/// 5. A file looked at while `hasUnreadEvents` (a scan, a creation with content) is
///    not known quiet until a batch whose `reads` exceeds `completeReads` at the look.
/// 6. `watcher.stop()` on the queue when done.
public final class InotifyWatcher: @unchecked Sendable {
    /// The serial queue that owns the watcher and libinotifytools.
    public let queue: DispatchQueue

    /// Events asked of the kernel. No `IN_OPEN`/`IN_ACCESS` (noise); `IN_ATTRIB` for
    /// a `chmod` that lets a refused file or an unwatched folder be read (the kernel
    /// tells a parent's watch of `chmod`, `chown` and `touch`, not of a link count
    /// changed by a hard link, so filing adds no event); `IN_ONLYDIR`
    /// and `IN_DONT_FOLLOW` so a symbolic link is never followed into; and
    /// `IN_EXCL_UNLINK` so a file unlinked while open stops producing events.
    package static let mask: UInt32 = {
        let events =
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_MODIFY | IN_DELETE | IN_ATTRIB
        let selfEvents = IN_DELETE_SELF | IN_MOVE_SELF
        let flags = IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK
        return UInt32(truncatingIfNeeded: events | selfEvents | flags)
    }()

    /// Events asked of the kernel for a root that only needs its names watched
    /// (the library's Roll and its albums folder: entries added, removed, moved). Without the
    /// events a file reports about itself (IN_MODIFY, IN_CLOSE_WRITE), adding a watch
    /// does not make the kernel mark each of a folder's cached entries, which takes
    /// seconds for an album of a million entries after they were all looked up.
    /// `IN_ATTRIB` tells of a sub-folder (an album's, a month's) made readable.
    package static let namesMask: UInt32 = {
        let events = IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
        let selfEvents = IN_DELETE_SELF | IN_MOVE_SELF
        let flags = IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK
        return UInt32(truncatingIfNeeded: events | selfEvents | flags)
    }()

    /// `namesMask` for a leaf folder (an album's): without IN_CREATE and IN_ATTRIB,
    /// which a leaf needs for no sub-folder and which would report every link the
    /// daemon itself makes there and every `touch` of its files. Removals and moves still come.
    package static let leafMask: UInt32 = namesMask & ~UInt32(IN_CREATE | IN_ATTRIB)

    /// Events read per drain before yielding the queue; the rest
    /// are read by an `async` continuation (never left in the library's buffer).
    package static let drainLimit = 4096

    /// libinotifytools' fd (internal for tests).
    package let fd: CInt
    private let handler: @Sendable (WatchBatch) -> Void
    private var reader: InotifyDrainThread?
    /// How many drains have read the queue empty (`WatchBatch.reads`).
    public private(set) var completeReads: UInt64 = 0
    /// A drain stopped at `drainLimit` and its continuation is queued.
    private var continuing = false
    var table = WatchTable()
    /// Halves of renames waiting for their other half.
    private var renames = RenamePairing()
    /// Each watch root and the path prefixes never watched below it.
    var roots: [BytePath: [BytePath]] = [:]
    /// Roots watched with `namesMask`.
    private var namesOnlyRoots: Set<BytePath> = []
    /// Names-only roots whose folders that many levels down are leaves.
    private var leafDepths: [BytePath: Int] = [:]
    /// Folders watched on their own, not their sub-folders (the parent of a
    /// missing inbox, to see it made again without watching its siblings).
    private var shallowRoots: Set<BytePath> = []
    /// The folders above roots, watched for their own move or removal (`watchAncestors`).
    var ancestors = AncestorWatches()

    /// Whether `stop()` has not been called.
    var isRunning: Bool { reader != nil }

    /// Initialises libinotifytools now. Call it first thing at start-up: the
    /// library waits with `select()`, which cannot take an fd of 1024 or more, so
    /// its fd must be opened before the process opens many others.
    public static func initializeEarly() throws(WatchError) {
        _ = try InotifyLibrary.initialize()
    }

    /// Starts reading events. Waits up to 5 s for a previous watcher to finish
    /// stopping, since libinotifytools allows one user per process.
    public init(
        queue: DispatchQueue = DispatchQueue(label: "photofiler.watcher"),
        handler: @escaping @Sendable (WatchBatch) -> Void
    ) throws(WatchError) {
        guard InotifyLibrary.ownership.wait(timeout: .now() + .seconds(5)) == .success else {
            throw .alreadyRunning
        }
        do {
            fd = try InotifyLibrary.initialize()
        } catch {
            InotifyLibrary.ownership.signal()
            throw error
        }
        self.queue = queue
        self.handler = handler
        do {
            // The fd stays open until the thread polls it no more.
            reader = try InotifyDrainThread(
                events: FileDescriptor(rawValue: fd), queue: queue,
                drain: { @Sendable [weak self] in self?.drain() }, finished: InotifyLibrary.release)
        } catch {
            InotifyLibrary.release()
            throw .setupFailed(error)
        }
    }

    deinit {
        reader?.stop()
    }

    /// Whether something happened that no batch has carried yet: the kernel holds
    /// events, or a drain stopped at `drainLimit`. A file looked at after its batch
    /// (a creation read late) may have events queued before the look; they arrive
    /// in a batch whose `reads` is above `completeReads` now.
    public var hasUnreadEvents: Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return continuing || FileDescriptor(rawValue: fd).hasInput
    }

    /// How many times the reading thread woke for events and handed a drain to the
    /// queue (for tests: events that come while one is queued wake it no more).
    package var drainsHandedOver: UInt64 {
        dispatchPrecondition(condition: .onQueue(queue))
        return reader?.handOvers.load(ordering: .relaxed) ?? 0
    }

    /// Number of folders watched now.
    public var watchedFolderCount: Int {
        dispatchPrecondition(condition: .onQueue(queue))
        return table.count
    }

    /// Whether `folder` has a watch now (a root removed whole has none).
    public func isWatching(_ folder: BytePath) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return table.entry(path: folder) != nil
    }

    /// Watches `directory` and every folder below it, except those within an
    /// `excluding` prefix (the library when it lies inside an inbox), which are
    /// never watched nor reported. Watching a root again re-walks it.
    ///
    /// - Returns: the folders newly watched; the caller scans each of them, since
    ///   files put there before the watch existed produce no events.
    /// - Throws: when the root itself cannot be watched, or
    ///   `.watchLimitReached` (the watches made so far are kept). Failures on
    ///   sub-folders (permissions) arrive later as `.failed` events.
    /// With `namesOnly`, only entries added, removed and moved are reported (no
    /// `closedWrite` or `modified`), which makes watching large folders cheap.
    /// With `leavesAt` too, the folders that many levels below `directory` are
    /// leaves (the albums' folders): only what leaves them or moves in them is
    /// reported, not what is made there, and their sub-folders are not watched.
    @discardableResult
    public func watch(
        directory: BytePath, excluding: [BytePath] = [], namesOnly: Bool = false, leavesAt depth: Int? = nil
    ) throws(WatchError) -> [BytePath] {
        dispatchPrecondition(condition: .onQueue(queue))
        guard reader != nil else { throw .stopped }
        roots[directory] = excluding
        if namesOnly { namesOnlyRoots.insert(directory) } else { namesOnlyRoots.remove(directory) }
        leafDepths[directory] = namesOnly ? depth : nil
        var newly: [BytePath] = []
        var failures: [WatchEvent] = []
        do {
            try walk(
                from: directory, root: directory, newly: &newly, failures: &failures, rootMustExist: true)
        } catch {
            if table.entry(path: directory) == nil { roots.removeValue(forKey: directory) }
            throw error
        }
        if !failures.isEmpty {
            let report = failures
            queue.async { [weak self] in
                guard let self else { return }
                handler(WatchBatch(events: report, reads: completeReads))
            }
        }
        return newly
    }

    /// Watches `folder` alone (not its sub-folders): a new sub-folder in it is
    /// reported as `directoryAppeared` but not watched. For noticing that a
    /// removed inbox is made again without watching all of its parent. A folder
    /// watched already is watched anew when its path leads to another folder now
    /// (a disk mounted on it): the old watch hears nothing of the disk.
    public func watchFolderOnly(_ folder: BytePath) throws(WatchError) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard reader != nil else { throw .stopped }
        do throws(SystemError) {
            let status = try Sys.status(folder, followLinks: true)
            if let (oldWD, old) = table.entry(path: folder) {
                if old.device == status.device, old.inode == status.inode { return }
                removeWatches([oldWD])
            }
            let wd = try addWatch(folder)
            table.insert(
                wd: wd, folder: .init(path: folder, root: folder, device: status.device, inode: status.inode))
            shallowRoots.insert(folder)
        } catch {
            if error.errno == .noSpace { throw .watchLimitReached(path: folder) }
            throw .cannotWatch(error)
        }
    }

    /// Stops each folder-only watch (`watchFolderOnly`) that lies on the way to none
    /// of `missing`: once an inbox is there again the watch on the way to it is of no
    /// use, and one left on a folder a disk has been mounted on since would make every
    /// change of the mount table look like a replaced folder (`anyFolderReplaced`). A
    /// folder that a root has walked into meanwhile keeps its watch: it is that root's.
    public func dropFolderOnlyWatches(keepingWaysTo missing: Set<BytePath>) {
        dispatchPrecondition(condition: .onQueue(queue))
        for folder in shallowRoots.sorted() where !missing.contains(where: { $0.isWithin(folder) }) {
            shallowRoots.remove(folder)
            guard roots[folder] == nil, let (_, watched) = table.entry(path: folder), watched.root == folder,
                let wd = table.remove(folder)
            else { continue }
            removeWatches([wd])
        }
    }

    /// Stops watching `directory` and everything below it. Nested roots (`~/Sync`
    /// and `~/Sync/Camera`) share their folders' watches, which go with the subtree:
    /// every other root that overlaps it is walked again, so it keeps its own.
    public func unwatch(directory: BytePath) throws(WatchError) {
        dispatchPrecondition(condition: .onQueue(queue))
        roots.removeValue(forKey: directory)
        namesOnlyRoots.remove(directory)
        leafDepths.removeValue(forKey: directory)
        shallowRoots.remove(directory)
        removeWatches(table.removeSubtree(directory))
        for root in roots.keys.sorted() where root.isWithin(directory) || directory.isWithin(root) {
            _ = try watch(
                directory: root, excluding: roots[root] ?? [], namesOnly: namesOnlyRoots.contains(root),
                leavesAt: leafDepths[root])
        }
    }

    /// Whether the path of a watched folder leads to another folder now, or to none: a
    /// disk mounted on it or above it (its watch sits on the folder the disk covers),
    /// or unmounted. A `stat` of each watched folder; `watch` again walks a root anew.
    public func anyFolderReplaced() -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        return table.watchedFolders.contains { folder in
            do {
                guard let status = try Sys.statusIfExists(folder.path) else { return true }
                return status.device != folder.device || status.inode != folder.inode
            } catch {
                return true  // could not look: a look at the whole tree says what it is
            }
        }
    }

    /// Ends the reading thread; libinotifytools is cleaned up (`inotifytools_cleanup`)
    /// once that thread has let go of its fd. A new watcher may be made afterwards.
    public func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        reader?.stop()
        reader = nil
        table = WatchTable()
        roots = [:]
        ancestors.removeAll()
    }

    // MARK: Reading events

    /// Reads every event the library and the kernel hold, without blocking
    /// (`next_events(0, 1)`: timeout 0 is a non-blocking `select`, and one event
    /// per call since larger counts busy-wait). Must run to nil, or events stay
    /// stranded in the library's buffer until the next kernel event. A drain that
    /// read anything hands over a batch, even one whose events all translate to
    /// nothing, since its `reads` may be what a looked-at file waits for.
    private func drain() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard reader != nil else { return }
        var events: [WatchEvent] = []
        var read = 0
        while read < Self.drainLimit, let pointer = inotifytools_next_events(0, 1) {
            read += 1
            // The pointer is valid only until the next library call: copy now.
            translate(RawInotifyEvent(copying: pointer), into: &events)
        }
        continuing = read == Self.drainLimit
        if continuing {
            queue.async { [weak self] in self?.drain() }
        } else {
            completeReads += 1
        }
        if read > 0 { handler(WatchBatch(events: events, reads: completeReads)) }
    }

    private func translate(_ raw: RawInotifyEvent, into events: inout [WatchEvent]) {
        let mask = raw.mask
        if raw.wd == -1 || mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // An ancestor's move may be among the events lost.
            reportRootsNotAtTheirPaths(into: &events)
            rewalkRoots(into: &events)
            events.append(.overflow)
            return
        }
        // First, while the descriptor is still known as an ancestor's: the folder's
        // own watch, when it has one, may be removed by what follows.
        if raw.name.isEmpty { ancestorEvent(wd: raw.wd, mask: mask, into: &events) }
        guard let folder = table.folder(wd: raw.wd) else { return }  // a watch already dropped
        if raw.name.isEmpty {
            let gone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) | UInt32(IN_IGNORED)
            if mask & gone != 0 { folderGone(folder.path, into: &events) }
            // A disk unmounted from a folder below a root: the folder it was mounted on
            // is there again, and watched in its place, so that the disk's return is a
            // change of that folder (`anyFolderReplaced`). A root's own is its owner's.
            if mask & UInt32(IN_UNMOUNT) != 0, folder.path != folder.root, roots[folder.root] != nil {
                watchBelow(folder.path, root: folder.root, into: &events)
            }
            return
        }
        let path = folder.path.appending(BytePath(bytes: raw.name))
        if isExcluded(path, root: folder.root) { return }
        if mask & UInt32(IN_ISDIR) != 0 {
            if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { folderGone(path, into: &events) }
            if isLeaf(folder.path, root: folder.root) { return }  // what is below a leaf is not watched
            let added = mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0
            let shallow = shallowRoots.contains(folder.root)
            // A sub-folder that could not be watched (no permission) may be now: `chmod` says so.
            let unblocked = mask & UInt32(IN_ATTRIB) != 0 && !shallow && table.entry(path: path) == nil
            if added, shallow {
                events.append(.directoryAppeared(path))
            } else if added || unblocked {
                watchBelow(path, root: folder.root, into: &events)
            }
            return
        }
        if mask & UInt32(IN_CREATE) != 0 { events.append(.created(path)) }
        if mask & UInt32(IN_MODIFY) != 0 { events.append(.modified(path)) }
        if mask & UInt32(IN_CLOSE_WRITE) != 0 { events.append(.closedWrite(path)) }
        if mask & UInt32(IN_ATTRIB) != 0 { events.append(.attributesChanged(path)) }
        let now = DispatchTime.now().uptimeNanoseconds
        if mask & UInt32(IN_MOVED_FROM) != 0 {
            events.append(.movedOut(path))
            renames.movedFrom(path, cookie: raw.cookie, at: now)
        }
        if mask & UInt32(IN_MOVED_TO) != 0 {
            events.append(.movedIn(path))
            if let from = renames.movedTo(cookie: raw.cookie, at: now) {
                events.append(.renamed(from: from, to: path))
            }
        }
        if mask & UInt32(IN_DELETE) != 0 { events.append(.removed(path)) }
    }

    /// A folder left (deleted, moved, unmounted): reported once, whichever of the
    /// parent's event and the folder's own comes first, and its subtree's
    /// watches removed (a subtree moved elsewhere would otherwise keep reporting
    /// under its old path).
    func folderGone(_ path: BytePath, into events: inout [WatchEvent]) {
        let removed = table.removeSubtree(path)
        guard !removed.isEmpty else { return }
        removeWatches(removed)
        for root in roots.keys where root.isWithin(path) { roots.removeValue(forKey: root) }
        events.append(.directoryGone(path))
    }

    /// After an overflow, creations may have been lost: watch what is missing.
    private func rewalkRoots(into events: inout [WatchEvent]) {
        for root in roots.keys.sorted() { watchBelow(root, root: root, recheck: true, into: &events) }
    }

    /// Watches `top` and what is below it, reporting each folder newly watched and
    /// each that could not be: a watch limit reached on the way is an event
    /// (`.failed`), told to the user, not a folder silently left unwatched.
    private func watchBelow(
        _ top: BytePath, root: BytePath, recheck: Bool = false, into events: inout [WatchEvent]
    ) {
        var newly: [BytePath] = []
        do {
            try walk(
                from: top, root: root, newly: &newly, failures: &events, rootMustExist: false,
                recheck: recheck)
        } catch {
            events.append(.failed(error))
        }
        events.append(contentsOf: newly.map(WatchEvent.directoryAppeared))
    }

    // MARK: Adding watches

    /// Watches `top` and its sub-folders (depth first, no symbolic links, no
    /// excluded prefixes). Watch first, list second: a file created in between
    /// gives an event and is also seen by the caller's scan, never neither.
    private func walk(
        from top: BytePath, root: BytePath, newly: inout [BytePath], failures: inout [WatchEvent],
        rootMustExist: Bool, recheck: Bool = false
    ) throws(WatchError) {
        var stack = [top]
        while let folder = stack.popLast() {
            if isExcluded(folder, root: root) { continue }
            let isTop = folder == top
            do throws(SystemError) {
                let status = try Sys.status(folder)
                guard status.isDirectory else {
                    if isTop && rootMustExist {
                        throw SystemError(.notDirectory, call: "inotify_add_watch", path: folder)
                    }
                    continue
                }
                if let known = table.entry(path: folder), known.folder.inode == status.inode,
                    known.folder.device == status.device
                {
                    // Already watched: no second watch through libinotifytools (it
                    // would leak an entry). After an overflow the entry may be stale
                    // (a folder re-made with a reused inode number), so ask the
                    // kernel, which returns the live watch or makes a new one.
                    if recheck {
                        let wd = folder.withCString {
                            inotify_add_watch(fd, $0, mask(for: folder, root: root))
                        }
                        guard wd >= 0 else {
                            throw SystemError(.current, call: "inotify_add_watch", path: folder)
                        }
                        if wd != known.wd {
                            table.insert(wd: wd, folder: known.folder)
                            newly.append(folder)
                        }
                    }
                } else {
                    let wd = try addWatch(folder, mask: mask(for: folder, root: root))
                    table.insert(
                        wd: wd,
                        folder: .init(path: folder, root: root, device: status.device, inode: status.inode))
                    newly.append(folder)
                }
                if isLeaf(folder, root: root) { continue }  // its sub-folders are not watched
                // One entry at a time: a folder of a million links is read for its
                // sub-folders without a million-element array, and not at all when
                // its link count says it has none.
                let directory = try Sys.openDirectory(folder)
                defer { directory.close() }
                if try Self.hasNoSubfolders(directory) { continue }
                try Sys.forEachEntry(in: directory, path: folder) { entry in
                    switch entry.kind {
                    case .directory: stack.append(folder.appending(entry.name))
                    case .unknown:
                        // A file system without d_type: ask. A child that cannot be looked at is
                        // reported, and its siblings are still walked.
                        let child = folder.appending(entry.name)
                        do throws(SystemError) {
                            if try Sys.statusIfExists(child)?.isDirectory == true { stack.append(child) }
                        } catch {
                            failures.append(.failed(.cannotWatch(error)))
                        }
                    default: break
                    }
                    return true
                }
            } catch {
                if error.errno == .noSpace && error.call == "inotify_add_watch" {
                    throw .watchLimitReached(path: folder)
                }
                if isTop && rootMustExist { throw .cannotWatch(error) }
                // Gone or replaced meanwhile: its parent's events will say so.
                if error.errno == .noSuchFile || error.errno == .notDirectory { continue }
                failures.append(.failed(.cannotWatch(error)))
            }
        }
    }

    /// File systems whose folders count their sub-folders in their link count (2 +
    /// one per sub-folder): ext2/3/4, XFS, tmpfs. Others (btrfs always says 1; NFS,
    /// CIFS and FUSE give no such promise) are read to find them.
    private static let subfolderCountingFileSystems: Set<Int64> = [0xEF53, 0x5846_5342, 0x0102_1994]

    /// True when the open folder has no sub-folder. Asked after its watch is added:
    /// a sub-folder made later comes as an event, one made before shows in the count.
    private static func hasNoSubfolders(_ folder: FileDescriptor) throws(SystemError) -> Bool {
        guard try folder.status().linkCount == 2 else { return false }
        return subfolderCountingFileSystems.contains(try Sys.fileSystemType(of: folder))
    }

    /// Adds the watch through libinotifytools, then asks the kernel for its
    /// descriptor: adding a watch on an inode already watched returns the
    /// existing descriptor and changes nothing with the same mask, whereas the
    /// library's name lookup can return a dead descriptor for a re-created folder.
    private func addWatch(_ folder: BytePath, mask: UInt32 = InotifyWatcher.mask) throws(SystemError) -> CInt
    {
        let added = folder.withCString { inotifytools_watch_file($0, CInt(bitPattern: mask)) }
        guard added != 0 else {
            throw SystemError(Errno(rawValue: inotifytools_error()), call: "inotify_add_watch", path: folder)
        }
        let wd = folder.withCString { inotify_add_watch(fd, $0, mask) }
        guard wd >= 0 else { throw SystemError(.current, call: "inotify_add_watch", path: folder) }
        return wd
    }

    /// Removes kernel watches directly: `inotifytools_remove_watch_by_wd` prints to
    /// stderr when the folder (and so the watch) is already gone. An ancestor's watch
    /// that was the same one is made again.
    private func removeWatches(_ descriptors: [CInt]) {
        for wd in descriptors {
            _ = inotify_rm_watch(fd, wd)
            rewatchAncestor(ifRemoved: wd)
        }
    }

    private func mask(for folder: BytePath, root: BytePath) -> UInt32 {
        guard namesOnlyRoots.contains(root) else { return Self.mask }
        return isLeaf(folder, root: root) ? Self.leafMask : Self.namesMask
    }

    /// Whether `folder` lies at its root's leaf depth (never below: leaves are not descended).
    private func isLeaf(_ folder: BytePath, root: BytePath) -> Bool {
        guard let depth = leafDepths[root] else { return false }
        return folder.components.count - root.components.count == depth
    }

    private func isExcluded(_ path: BytePath, root: BytePath) -> Bool {
        guard let excluded = roots[root], !excluded.isEmpty else { return false }
        return excluded.contains { path.isWithin($0) }
    }
}

/// An inotify event copied out of libinotifytools' static buffer.
package struct RawInotifyEvent {
    package var wd: CInt
    package var mask: UInt32
    package var cookie: UInt32
    /// The name's bytes, NUL padding cut off; empty for an event on the folder itself.
    package var name: [UInt8]

    package init(copying pointer: UnsafeMutablePointer<inotify_event>) {
        wd = pointer.pointee.wd
        mask = pointer.pointee.mask
        cookie = pointer.pointee.cookie
        let length = Int(pointer.pointee.len)
        // `name` is a flexible array member Swift does not import: it follows the header.
        let start = UnsafeRawPointer(pointer) + MemoryLayout<inotify_event>.size
        let bytes = UnsafeRawBufferPointer(start: start, count: length)
        name = Array(bytes.prefix { $0 != 0 })
    }
}
