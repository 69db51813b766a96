import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Deletion": what could not be looked at is not gone. A roll folder that
/// cannot be read for a while is reported, and no asset or membership is ended
/// because of it: not by `check --repair`, not by the daemon's start-up repair.
///
/// Root reads everything, so as root the binary runs as `nobody` (`setpriv`),
/// as the permission tests do.
@Suite(.enabled(if: PermissionTests.canCheck, PermissionTests.skipReason))
struct UnreadableFolderTests {
    @Test func unreadableRollFolderEndsNothing() throws {
        let folder = try PermissionTests.reachableFolder()
        let library = folder.file("library")
        try PermissionTests.saveIntoQQ(1, tag: "unreadable", as: "u.jpg", in: folder, library: library)
        let rollFile = try #require(try TestLibrary.files(under: library.appending("Roll")).first)
        let month = rollFile.parent
        try PermissionTests.prepare(folder.path, folderMode: 0o755)
        // Listable but not searchable: its names are read, its files cannot be looked at.
        _ = month.withCString { chmod($0, 0o444) }
        defer { _ = month.withCString { chmod($0, 0o755) } }

        let check = try Binary.run(
            ["check", "--repair", "--library", library.display].map { BytePath($0) },
            launcher: PermissionTests.launcher)
        #expect(check.status == 1, "reported: \(check.stdout) \(check.stderr)")
        #expect(check.stdout.contains("could not look at"), "\(check.stdout)")
        #expect(!check.stdout.contains("missing roll file"), "\(check.stdout)")

        let inbox = folder.file("inbox")
        try Sys.makeDirectory(inbox)
        try PermissionTests.prepare(inbox, folderMode: 0o755)
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)"],
            launcher: PermissionTests.launcher.map(\.display))
        #expect(daemon.log.contains("could not look at"), "reported at start-up: \(daemon.log)")
        #expect(daemon.terminate() == 0)

        _ = month.withCString { chmod($0, 0o755) }
        let contents = LibraryContents(library: library)
        let assets = try contents.assets()
        #expect(assets.count == 1, "the asset is not deleted")
        #expect(assets.first?["albums"] as? [String] == ["QQ"], "\(assets)")
        #expect(contents.albumEntries("QQ").count == 1, "the album link stays")
        #expect((try? Sys.status(rollFile)) != nil)
    }

    /// An album folder that cannot be read at start-up cannot be watched; once a
    /// `chmod` lets it be, it is watched, and an entry removed from it ends its
    /// membership while the daemon runs (within 2 s: photofiler(1) "Deletion"), as in any other album.
    @Test func anAlbumFolderMadeReadableIsWatched() throws {
        let folder = try PermissionTests.reachableFolder()
        let library = folder.file("library")
        for index in 1...2 {
            try PermissionTests.saveIntoQQ(
                index, tag: "album made readable", as: "u\(index).jpg", in: folder, library: library)
        }
        let album = library.appending("Albums").appending("QQ")
        let inbox = folder.file("inbox")
        try Sys.makeDirectory(inbox)
        try PermissionTests.prepare(folder.path, folderMode: 0o755)
        _ = album.withCString { chmod($0, 0o000) }
        defer { _ = album.withCString { chmod($0, 0o755) } }

        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)"],
            launcher: PermissionTests.launcher.map(\.display))
        // The watcher reports folders it could not watch on its queue's next turn: after READY.
        #expect(
            daemon.waitForLog(album.display, timeout: 10), "the album it cannot watch is named: \(daemon.log)"
        )
        let inode = try Sys.status(album).inode
        #expect(!Self.isWatched(inode, by: daemon.pid))
        _ = album.withCString { chmod($0, 0o755) }
        #expect(waitUntil { Self.isWatched(inode, by: daemon.pid) }, "watched once readable: \(daemon.log)")

        let contents = LibraryContents(library: library)
        let entries = contents.albumEntries("QQ")
        try #require(entries.count == 2)
        try Sys.unlink(entries[0])
        let ended = waitUntil {
            let rows = (try? contents.assets()) ?? []
            return rows.count == 2 && rows.contains { ($0["albums"] as? [String])?.isEmpty == true }
        }
        #expect(ended, "a membership ended while the daemon runs: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// An inbox that cannot be read at start-up cannot be watched; the error says
    /// what to fix, and once it is fixed a reload (SIGHUP) watches it and files
    /// what comes, without a restart.
    @Test func anInboxMadeReadableIsWatchedAfterAReload() throws {
        let folder = try PermissionTests.reachableFolder()
        let library = folder.file("library")
        let inbox = folder.file("inbox")
        try Sys.makeDirectory(inbox)
        let picture = folder.file("p.jpg")
        try writeFile(picture, Pictures.uniqueJPEG(1, tag: "inbox made readable"))
        try PermissionTests.prepare(folder.path, folderMode: 0o755)
        _ = inbox.withCString { chmod($0, 0o000) }
        defer { _ = inbox.withCString { chmod($0, 0o755) } }

        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)"],
            launcher: PermissionTests.launcher.map(\.display))
        #expect(
            daemon.waitForLog("Cannot watch '\(inbox.display)'", timeout: 10),
            "the inbox is named: \(daemon.log)")
        _ = inbox.withCString { chmod($0, 0o755) }
        kill(daemon.pid, SIGHUP)
        #expect(daemon.waitForLog("The inbox '\(inbox.display)' is watched now."), "\(daemon.log)")

        try Sys.rename(picture, to: inbox.appending("p.jpg"))
        let filed = waitUntil { (try? TestLibrary.files(under: library.appending("Roll")))?.count == 1 }
        #expect(filed, "filed once watched: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// Whether the process has an inotify watch on the folder of this inode (its
    /// `/proc/PID/fdinfo` lists each watch with the inode in hexadecimal).
    static func isWatched(_ inode: UInt64, by pid: pid_t) -> Bool {
        let folder = BytePath("/proc/\(pid)/fdinfo")
        let entries = (try? Sys.listDirectory(folder)) ?? []
        let needle = " ino:\(String(inode, radix: 16)) "
        return entries.contains { entry in
            guard let text = try? readFile(folder.appending(entry.name)) else { return false }
            return String(decoding: text, as: UTF8.self).contains(needle)
        }
    }
}
