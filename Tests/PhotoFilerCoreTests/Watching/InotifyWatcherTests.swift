import Dispatch
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// Against real folders. Serialized: libinotifytools allows one watcher per process.
@Suite(.serialized) struct InotifyWatcherTests {
    @Test func fileWrittenAndClosedIsClosedWrite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            #expect(try watcher.watchSync(folder.path) == [folder.path])
            let file = folder.path.appending("a.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
            #expect(log.all.contains(.created(file)))
            #expect(log.all.contains(.modified(file)))
        }
    }

    /// A look made on the watcher's queue after an event happened sees it unread;
    /// the batch that carries it counts a complete read past the look.
    @Test func eventsNotYetReadAreSeenAndTheirBatchCountsARead() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let file = folder.path.appending("a.jpg")
            // Written on the watcher's queue, so no drain runs between the write and the look.
            let (unread, readsAtLook) = try watcher.queue.sync {
                try writeFile(file)
                return (watcher.hasUnreadEvents, watcher.completeReads)
            }
            #expect(unread)
            #expect(log.wait(for: .closedWrite(file)))
            #expect(log.reads > readsAtLook)
            #expect(watcher.queue.sync { !watcher.hasUnreadEvents })
        }
    }

    /// Events that come while the watcher's queue is busy (the daemon filing a group
    /// there, its own links and removals making two events a file) wake nothing: the
    /// reading thread, woken by the first, waits for the drain it handed over, and that
    /// one drain reads them all.
    @Test func eventsWhileTheQueueIsBusyAreOneHandOverAndOneDrain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let (handedOver, readsBefore) = (watcher.queue.sync { watcher.drainsHandedOver }, log.reads)
            let busy = DispatchSemaphore(value: 0)
            watcher.queue.async { busy.wait() }
            let files = (0..<200).map { folder.path.appending("IMG_\($0).jpg") }
            for file in files { try writeFile(file) }
            busy.signal()
            #expect(log.wait(for: .closedWrite(files[files.count - 1])))
            #expect(watcher.queue.sync { watcher.drainsHandedOver } - handedOver == 1)
            #expect(log.reads - readsBefore == 1)
            #expect(Set(log.all.filter { if case .closedWrite = $0 { true } else { false } }).count == 200)
        }
    }

    /// A `chmod` comes as an attribute change (a refused file is tried again for
    /// it); the links filing makes of an inbox file elsewhere change its link count
    /// and bring no event, so watching attributes costs a burst nothing.
    @Test func aChmodIsAnAttributeChangeAndALinkElsewhereIsNothing() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        defer { folder.remove(); outside.remove() }
        let file = folder.path.appending("a.jpg")
        try writeFile(file)
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let link = outside.path.appending("a.jpg")
            try Sys.link(file, to: link)
            try Sys.unlink(link)
            let marker = folder.path.appending("marker")
            try writeFile(marker)
            #expect(log.wait(for: .closedWrite(marker)))
            #expect(!log.all.contains(.attributesChanged(file)), "\(log.all)")

            _ = file.withCString { chmod($0, 0o600) }
            #expect(log.wait(for: .attributesChanged(file)))
        }
    }

    @Test func renameInIsMovedIn() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        defer { folder.remove(); outside.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let source = outside.path.appending("b.jpg")
            try writeFile(source)
            let target = folder.path.appending("b.jpg")
            try Sys.rename(source, to: target)
            #expect(log.wait(for: .movedIn(target)))
            try Sys.rename(target, to: source)
            #expect(log.wait(for: .movedOut(target)))
        }
    }

    @Test func existingSubfoldersAreWatchedAndReturned() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let deep = folder.path.appending("x/y")
        try Sys.makeDirectories(deep)
        try withWatcher { watcher, log in
            let watched = try watcher.watchSync(folder.path)
            #expect(Set(watched) == [folder.path, folder.path.appending("x"), deep])
            #expect(try watcher.watchSync(folder.path).isEmpty, "a second walk adds nothing")
            let file = deep.appending("c.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
        }
    }

    @Test func newSubfolderIsWatchedAndReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let sub = folder.path.appending("sub")
            try Sys.makeDirectory(sub)
            #expect(log.wait(for: .directoryAppeared(sub)))
            let file = sub.appending("d.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 2)
        }
    }

    @Test func treeMovedInReportsEveryFolder() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        defer { folder.remove(); outside.remove() }
        let tree = outside.path.appending("t")
        try Sys.makeDirectories(tree.appending("u/v"))
        try writeFile(tree.appending("u/v/old.jpg"))
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let moved = folder.path.appending("t")
            try Sys.rename(tree, to: moved)
            let expected: [WatchEvent] = [
                .directoryAppeared(moved), .directoryAppeared(moved.appending("u")),
                .directoryAppeared(moved.appending("u/v")),
            ]
            #expect(log.wait { events in expected.allSatisfy(events.contains) })
        }
    }

    @Test func removedFolderIsDirectoryGone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let sub = folder.path.appending("sub")
            try Sys.makeDirectory(sub)
            #expect(log.wait(for: .directoryAppeared(sub)))
            try Sys.removeDirectory(sub)
            #expect(log.wait(for: .directoryGone(sub)))
            let sentinel = folder.path.appending("sentinel.jpg")
            try writeFile(sentinel)
            #expect(log.wait(for: .closedWrite(sentinel)))
            #expect(log.all.filter { $0 == .directoryGone(sub) }.count == 1, "reported once")
        }
    }

    @Test func folderMovedAwayStopsReporting() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        defer { folder.remove(); outside.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let sub = folder.path.appending("sub")
            try Sys.makeDirectory(sub)
            #expect(log.wait(for: .directoryAppeared(sub)))
            let away = outside.path.appending("sub")
            try Sys.rename(sub, to: away)
            #expect(log.wait(for: .directoryGone(sub)))
            try writeFile(away.appending("late.jpg"))
            let sentinel = folder.path.appending("sentinel.jpg")
            try writeFile(sentinel)
            #expect(log.wait(for: .closedWrite(sentinel)))
            #expect(!log.all.contains { $0.path?.lastComponent == "late.jpg" })
        }
    }

    @Test func nonUTF8NameKeepsItsBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            let name = BytePath(bytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
            let file = folder.path.appending(name)
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
            #expect(!file.isValidUTF8)
        }
    }

    @Test func excludedPrefixIsNeverWatchedNorReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let library = folder.path.appending("PhotoFiler")
        try Sys.makeDirectories(library.appending("Roll"))
        let later = folder.path.appending("Later")
        try withWatcher { watcher, log in
            let watched = try watcher.watchSync(folder.path, excluding: [library, later])
            #expect(watched == [folder.path])
            try writeFile(library.appending("x.jpg"))
            try writeFile(library.appending("Roll/y.jpg"))
            try Sys.makeDirectory(later)
            try Sys.makeDirectory(later.appending("inner"))
            try writeFile(later.appending("z.jpg"))
            let sentinel = folder.path.appending("sentinel.jpg")
            try writeFile(sentinel)
            #expect(log.wait(for: .closedWrite(sentinel)))
            let leaked = log.all.filter { event in
                guard let path = event.path else { return false }
                return path.isWithin(library) || path.isWithin(later)
            }
            #expect(leaked.isEmpty)
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 1)
        }
    }

    /// Nested roots (`~/Sync` and `~/Sync/Camera`, two inboxes) share the inner
    /// folder's watch: unwatching either leaves the other watching all of its own.
    @Test(arguments: ["the outer root", "the inner root"])
    func unwatchingOneOfNestedRootsKeepsTheOthersWatches(removed: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outer = folder.path
        let inner = outer.appending("Camera")
        try Sys.makeDirectory(inner)
        try withWatcher { watcher, log in
            try watcher.watchSync(outer)
            try watcher.watchSync(inner)
            try watcher.queue.sync {
                try watcher.unwatch(directory: removed == "the outer root" ? outer : inner)
            }
            let kept = removed == "the outer root" ? inner : outer
            let file = inner.appending("still-seen.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)), "\(kept.display) still sees its Camera folder")
        }
    }

    /// The folder-only watch on the way to a missing inbox goes once the inbox is
    /// there (it would else outlive a disk mounted on it); the inbox's own watch stays,
    /// and a way still needed for another missing inbox is kept.
    @Test func theWayToAnInboxFoundIsNoLongerWatched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let parent = folder.path.appending("exports")
        let (found, stillMissing) = (parent.appending("QQ"), parent.appending("WeChat"))
        try Sys.makeDirectory(parent)
        try withWatcher { watcher, log in
            try watcher.queue.sync { try watcher.watchFolderOnly(parent) }
            try Sys.makeDirectory(found)
            #expect(log.wait(for: .directoryAppeared(found)))
            try watcher.watchSync(found)
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 2)
            watcher.queue.sync { watcher.dropFolderOnlyWatches(keepingWaysTo: [stillMissing]) }
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 2, "WeChat's way is kept")
            watcher.queue.sync { watcher.dropFolderOnlyWatches(keepingWaysTo: []) }
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 1)
            #expect(watcher.queue.sync { watcher.isWatching(found) && !watcher.isWatching(parent) })
            let file = found.appending("still-seen.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)), "the inbox keeps its watch")
        }
    }

    /// A root whose parent is renamed (`mv apps apps.old`) is gone from its path: its
    /// own watch hears nothing of that, the watch of the folder above does. What is
    /// put in the moved folder is no longer reported; the root made again at its path
    /// is watched anew, with the folders above it.
    @Test func aRootWhoseParentIsRenamedIsGone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let apps = folder.path.appending("apps")
        let root = apps.appending("QQ")
        try Sys.makeDirectories(root)
        try withWatcher { watcher, log in
            try watcher.watchSync(root)
            watcher.queue.sync { watcher.watchAncestors(of: [root]) }
            #expect(
                watcher.queue.sync {
                    watcher.isWatchingAncestor(apps) && watcher.isWatchingAncestor(folder.path)
                })
            let moved = folder.path.appending("apps.old")
            try Sys.rename(apps, to: moved)
            #expect(log.wait(for: .directoryGone(root)), "\(log.all)")
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 0)
            // The folders above a root gone are of no use until it is watched again.
            #expect(
                watcher.queue.sync {
                    !watcher.isWatchingAncestor(apps) && !watcher.isWatchingAncestor(folder.path)
                })
            try writeFile(moved.appending("QQ").appending("old.jpg"))
            try Sys.makeDirectories(root)
            try watcher.watchSync(root)
            watcher.queue.sync { watcher.watchAncestors(of: [root]) }
            #expect(watcher.queue.sync { watcher.isWatchingAncestor(apps) })
            let file = root.appending("new.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
            #expect(!log.all.contains(.closedWrite(root.appending("old.jpg"))), "\(log.all)")
        }
    }

    /// A folder that is a root's and the ancestor of another root (`~/Sync` and
    /// `~/Sync/Camera`) has one watch: dropped as an ancestor, the root keeps it;
    /// dropped as a root, the ancestor is watched again, and its rename still tells.
    @Test func aWatchSharedByARootAndAnAncestorOutlivesEitherRole() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outer = folder.path.appending("Sync")
        let inner = outer.appending("Camera")
        try Sys.makeDirectories(inner)
        try withWatcher { watcher, log in
            try watcher.watchSync(outer)
            try watcher.watchSync(inner)
            watcher.queue.sync { watcher.watchAncestors(of: [outer, inner]) }
            watcher.queue.sync { watcher.watchAncestors(of: [outer]) }
            let seen = outer.appending("still-seen.jpg")
            try writeFile(seen)
            #expect(log.wait(for: .closedWrite(seen)), "the root keeps its watch")

            watcher.queue.sync { watcher.watchAncestors(of: [inner]) }
            try watcher.queue.sync { try watcher.unwatch(directory: outer) }
            #expect(watcher.queue.sync { watcher.isWatchingAncestor(outer) && !watcher.isWatching(outer) })
            try Sys.rename(outer, to: folder.path.appending("Sync.old"))
            #expect(log.wait(for: .directoryGone(inner)), "\(log.all)")
        }
    }

    @Test func rootDeletedAndRecreatedCanBeWatchedAgain() throws {
        let parent = try TemporaryFolder()
        defer { parent.remove() }
        let root = parent.path.appending("inbox")
        try Sys.makeDirectory(root)
        try withWatcher { watcher, log in
            try watcher.watchSync(root)
            try Sys.removeDirectory(root)
            #expect(log.wait(for: .directoryGone(root)))
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 0)
            try Sys.makeDirectory(root)
            #expect(try watcher.watchSync(root) == [root])
            let file = root.appending("again.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
        }
    }

    @Test func missingRootThrowsWithItsPath() throws {
        let parent = try TemporaryFolder()
        defer { parent.remove() }
        let missing = parent.path.appending("nope")
        try withWatcher { watcher, _ in
            #expect {
                try watcher.watchSync(missing)
            } throws: { error in
                guard case .cannotWatch(let system) = error as? WatchError else { return false }
                return system.path == missing && system.errno == .noSuchFile
            }
        }
    }

    @Test func descriptorIsCloseOnExec() throws {
        try withWatcher { watcher, _ in
            #expect(fcntl(watcher.fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(watcher.fd < FD_SETSIZE)
        }
    }

    /// The daemon's way: watcher events into the filing queue, its one timer armed
    /// to the queue's deadline; the settled file goes out to be inspected once.
    @Test func aSettledFileGoesOutOnceThroughTheFilingQueueAndItsTimer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let due = EventLog()
        let queue = DispatchQueue(label: "test.watch")
        final class Shell: @unchecked Sendable {
            // Safe: touched on `queue` only (the watcher's handler and the timer's run there).
            var filing = FilingQueue(settle: 50_000_000, groupSize: 8)
        }
        let shell = Shell()
        let request: @Sendable (BytePath) -> FilingRequest? = { path in
            FilingRequest(source: path, album: nil, origin: nil, mode: .keep, link: .hard)
        }
        let timer = DeadlineTimer(queue: queue) {
            for case .inspect(let group) in shell.filing.handle(
                .tick, at: DeadlineTimer.now, request: request)
            {
                due.append(group.map { WatchEvent.closedWrite($0.source) })
            }
        }
        let watcher = try InotifyWatcher(queue: queue) { batch in
            _ = shell.filing.handle(.watched(batch.events), at: DeadlineTimer.now, request: request)
            timer.arm(at: shell.filing.nextDeadline)
        }
        defer { queue.sync { watcher.stop() } }
        try watcher.watchSync(folder.path)
        let file = folder.path.appending("e.jpg")
        try writeFile(file)
        #expect(due.wait(for: .closedWrite(file)))
        #expect(due.all == [.closedWrite(file)])
        #expect(queue.sync { shell.filing.waitingCount } == 0)
    }

    /// A disk unmounted from a folder below a watched root (a year of the Roll on a
    /// disk of its own): the folder it was mounted on is watched in its place, so a
    /// folder made in it is seen, and the disk's return is a change of that folder
    /// (`anyFolderReplaced`), whichever of the mount table and inotify is heard first.
    @Test(.enabled(if: geteuid() == 0, "needs root: mounts a tmpfs"))
    func theFolderADiskWasUnmountedFromIsWatchedInItsPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let year = folder.path.appending("2022")
        try Sys.makeDirectories(year)
        let mountTmpfs = { year.withCString { mount("photofiler-test", $0, "tmpfs", 0, "size=1m") } }
        try #require(mountTmpfs() == 0, "mount: \(errno)")
        var mounted = true
        defer { if mounted { _ = year.withCString { umount2($0, Int32(MNT_DETACH)) } } }
        try Sys.makeDirectories(year.appending("05"))
        try withWatcher { watcher, log in
            try watcher.watchSync(folder.path)
            #expect(watcher.queue.sync { watcher.isWatching(year.appending("05")) })
            try #require(year.withCString { umount2($0, 0) } == 0, "umount: \(errno)")
            mounted = false
            #expect(log.wait(for: .directoryGone(year)))
            let later = year.appending("06")
            try Sys.makeDirectories(later)
            #expect(log.wait(for: .directoryAppeared(later)), "the mount point is watched: \(log.all)")
            #expect(watcher.queue.sync { !watcher.anyFolderReplaced() })
            try #require(mountTmpfs() == 0, "mount: \(errno)")
            mounted = true
            #expect(watcher.queue.sync { watcher.anyFolderReplaced() }, "the disk's return is seen")
        }
    }
}

@Suite struct WatchErrorTests {
    @Test func limitMessageNamesTheSysctl() {
        let text = WatchError.watchLimitReached(path: "/home/me/Downloads/QQ").description
        #expect(text.contains("fs.inotify.max_user_watches"))
        #expect(text.contains("sudo sysctl fs.inotify.max_user_watches=524288"))
        #expect(text.contains("/etc/sysctl.d/"))
        #expect(text.contains("/home/me/Downloads/QQ"))
    }
}
