import Dispatch
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// The library's watches: names only (no per-file events), leaves (album
/// folders) that report no creation, and folders whose link count says they
/// have no sub-folder are not read for them.
@Suite struct NamesOnlyWatchTests {
    @Test func namesOnlyReportsEntriesButNotWrites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try withWatcher { watcher, log in
            _ = try watcher.queue.sync { try watcher.watch(directory: folder.path, namesOnly: true) }
            let file = folder.path.appending("a.jpg")
            try writeFile(file)
            let moved = folder.path.appending("b.jpg")
            try Sys.rename(file, to: moved)
            try Sys.unlink(moved)
            #expect(log.wait(for: .removed(moved)))
            #expect(log.all.contains(.created(file)))
            #expect(log.all.contains(.renamed(from: file, to: moved)))
            #expect(!log.all.contains(.closedWrite(file)) && !log.all.contains(.modified(file)), "\(log.all)")
        }
    }

    @Test func subfoldersOfANamesOnlyRootAreWatchedTheSameWay() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Sys.makeDirectories(folder.path.appending("2024/05"))
        try withWatcher { watcher, log in
            let watched = try watcher.queue.sync {
                try watcher.watch(directory: folder.path, namesOnly: true)
            }
            #expect(
                Set(watched) == [
                    folder.path, folder.path.appending("2024"), folder.path.appending("2024/05"),
                ])
            let later = folder.path.appending("2024/06")
            try Sys.makeDirectory(later)
            #expect(log.wait(for: .directoryAppeared(later)))
            let file = later.appending("c.jpg")
            try writeFile(file)
            try Sys.unlink(file)
            #expect(log.wait(for: .removed(file)))
            #expect(!log.all.contains(.closedWrite(file)))
        }
    }

    /// A folder with many files and no sub-folder (link count 2) next to one with a
    /// sub-folder: every folder is still found.
    @Test func leafFoldersAreWatchedAndTheirSiblingsSubfoldersFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let leaf = folder.path.appending("leaf")
        let branch = folder.path.appending("branch/inner")
        try Sys.makeDirectories(leaf)
        try Sys.makeDirectories(branch)
        for index in 0..<50 { try writeFile(leaf.appending("f\(index).jpg")) }
        #expect(try Sys.status(leaf).linkCount == 2)
        try withWatcher { watcher, log in
            let watched = try watcher.watchSync(folder.path)
            #expect(Set(watched) == [folder.path, leaf, folder.path.appending("branch"), branch])
            let file = leaf.appending("new.jpg")
            try writeFile(file)
            #expect(log.wait(for: .closedWrite(file)))
        }
    }

    /// The albums' watch: a new album folder is watched, an entry made in it is not
    /// reported (the daemon makes thousands), one removed or moved between albums
    /// is, and what lies below an album folder is not watched.
    @Test func leafFoldersReportRemovalsAndMovesButNotCreations() throws {
        let albums = try TemporaryFolder()
        defer { albums.remove() }
        let qq = albums.path.appending("QQ")
        try Sys.makeDirectories(qq.appending("below"))
        try withWatcher { watcher, log in
            let watched = try watcher.queue.sync {
                try watcher.watch(directory: albums.path, namesOnly: true, leavesAt: 1)
            }
            #expect(Set(watched) == [albums.path, qq])
            let weibo = albums.path.appending("Weibo")
            try Sys.makeDirectory(weibo)
            #expect(log.wait(for: .directoryAppeared(weibo)))

            let entry = qq.appending("a.jpg")
            try writeFile(entry)
            let moved = weibo.appending("a.jpg")
            try Sys.rename(entry, to: moved)
            #expect(log.wait(for: .renamed(from: entry, to: moved)))
            try Sys.makeDirectory(weibo.appending("made-below"))
            try writeFile(qq.appending("below/b.jpg"))
            try Sys.unlink(qq.appending("below/b.jpg"))
            try Sys.unlink(moved)
            #expect(log.wait(for: .removed(moved)))
            let events = log.all
            #expect(!events.contains(.created(entry)), "\(events)")
            #expect(!events.contains { $0.path?.isWithin(qq.appending("below")) == true }, "\(events)")
            #expect(!events.contains(.directoryAppeared(weibo.appending("made-below"))), "\(events)")
            #expect(watcher.queue.sync { watcher.watchedFolderCount } == 3)
        }
    }
}
