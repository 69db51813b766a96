import Dispatch
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// The library's watches: names only (no per-file events), and folders whose
/// link count says they have no sub-folder are not read for them.
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
}
