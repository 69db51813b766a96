import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler watch` across restarts, and the library changed by hand while it
/// runs or while it is down (photofiler(1) "The daemon" and "Deletion").
@Suite struct DaemonLibraryChangeTests {
    /// READY comes after the catch-up scan: files already in the inbox are
    /// counted as queued in the ready line and filed shortly after; files
    /// dropped while the daemon is down are filed at its next start.
    @Test func filesPresentAtStartAreQueuedBeforeReadyAndFiled() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        try Sys.makeDirectories(inbox.appending("sub"))
        var hashes: Set<String> = []
        for index in 0..<6 {
            let picture = Pictures.uniqueJPEG(index, tag: "before")
            hashes.insert(Pictures.sha256(picture))
            try writeFile(inbox.appending(index < 3 ? "b\(index).jpg" : "sub/b\(index).jpg"), picture)
        }
        var daemon = try scene.start(["--settle", "100"])
        #expect(
            daemon.logLines(containing: "Ready:").first?.contains("6 file(s) found at start-up are queued")
                == true, "\(daemon.log)")
        #expect(daemon.messages.contains("STATUS=0 filed, 6 pending"), "\(daemon.messages)")
        #expect(scene.waitForAlbum(count: 6), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty })
        #expect(daemon.terminate() == 0)

        for index in 6..<10 {
            let picture = Pictures.uniqueJPEG(index, tag: "while down")
            hashes.insert(Pictures.sha256(picture))
            try writeFile(inbox.appending("d\(index).jpg"), picture)
        }
        daemon = try scene.start(["--settle", "100"])
        #expect(scene.waitForAlbum(count: 10), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty })
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// While the daemon runs: a roll file removed by hand takes its album entry
    /// with it and the asset is marked deleted; an album entry removed by hand
    /// ends the membership and the Roll keeps the file. photofiler(1) says within 2 s;
    /// the wait is longer so a loaded machine does not fail it, and the time
    /// taken is printed.
    /// A roll file moved into a folder made an instant before (`mkdir -p Roll/2001/02
    /// && mv …`, before the folder's watch exists) is a move, not a removal.
    @Test func aRollFileMovedIntoANewFolderIsTheSameAsset() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "new folder"), as: "a.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        let asset = try #require(try scene.contents.assets().first)
        let rollFile = BytePath(try #require(asset["path"] as? String))
        let folder = scene.library.appending("Roll").appending("2001").appending("02")
        try Sys.makeDirectories(folder)
        try Sys.rename(rollFile, to: folder.appending("a.jpg"))
        #expect(
            waitUntil(timeout: 10) {
                (try? scene.contents.assets())?.first?["path"] as? String == folder.appending("a.jpg").display
            }, "\(daemon.log)")
        let moved = try #require(try scene.contents.assets().first)
        #expect(assetID(moved) == assetID(asset) && moved["albums"] as? [String] == ["QQ"], "\(daemon.log)")
        #expect(LibraryContents.files(below: scene.library.appending("Recently Deleted")).isEmpty)
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// An album folder removed by hand ends its memberships; the next file for the
    /// album makes the folder again, as its first did.
    @Test func anAlbumFolderRemovedByHandIsMadeAgainForTheNextFile() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        let inbox = scene.inbox()
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "album gone"), as: "first.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        TemporaryFolder.removeTree(scene.library.appending("Albums").appending("QQ"))
        #expect(daemon.waitForLog("asset 1 left the album QQ"), "\(daemon.log)")
        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "album gone"), as: "second.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// `rm -rf Albums` while running: every membership ends, and `Albums/` is made
    /// again and watched, so an entry removed from a later album is seen within 2 s.
    @Test func theAlbumsFolderRemovedWholeIsWatchedAgain() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "albums gone"), as: "a.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        let albums = scene.library.appending("Albums")
        TemporaryFolder.removeTree(albums)
        let ended = waitUntil {
            ((try? scene.contents.assets()) ?? []).allSatisfy { ($0["albums"] as? [String])?.isEmpty == true }
        }
        #expect(ended, "the membership ended: \(daemon.log)")
        #expect(waitUntil { (try? Sys.statusIfExists(albums)) != nil }, "made again: \(daemon.log)")

        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "albums gone"), as: "b.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        let entry = try #require(scene.contents.albumEntries("QQ").first)
        try Sys.unlink(entry)
        let left = waitUntil {
            ((try? scene.contents.assets()) ?? []).allSatisfy { ($0["albums"] as? [String])?.isEmpty == true }
        }
        #expect(left, "an entry removed from the album made again ends its membership: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    @Test func deletionsByHandWhileRunning() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        let inbox = scene.inbox()
        let pictures = (0..<3).map { Pictures.uniqueJPEG($0, tag: "delete") }
        for (index, picture) in pictures.enumerated() {
            try scene.dropByRename(picture, as: "d\(index).jpg", into: inbox)
        }
        #expect(scene.waitForAlbum(count: 3), "\(daemon.log)")
        let contents = scene.contents
        let assets = try contents.assets()
        func asset(_ index: Int) throws -> [String: Any] {
            try #require(assets.first { $0["hash"] as? String == Pictures.sha256(pictures[index]) })
        }
        let rollOfFirst = BytePath(try #require(try asset(0)["path"] as? String))
        let entryOfSecond = contents.album("QQ").appending("d1.jpg")

        // A roll file removed (file manager, rm): its album entry leaves.
        var started = Date()
        try Sys.unlink(rollOfFirst)
        #expect(
            waitUntil { (try? Sys.statusIfExists(contents.album("QQ").appending("d0.jpg"))) ?? nil == nil },
            "\(daemon.log)")
        let rollTook = Date().timeIntervalSince(started)
        #expect(waitUntil { (try? contents.assets().count) == 2 }, "the asset is still listed: \(daemon.log)")

        // An album entry removed: the membership ends, the Roll keeps the file.
        started = Date()
        try Sys.unlink(entryOfSecond)
        let secondID = "\(try asset(1)["id"] ?? "")"
        #expect(
            waitUntil {
                let row = (try? contents.assets())?.first { "\($0["id"] ?? "")" == secondID }
                return (row?["albums"] as? [String]) == []
            }, "the membership did not end: \(daemon.log)")
        let albumTook = Date().timeIntervalSince(started)
        #expect(contents.rollFiles().count == 2)
        #expect(Set(contents.rollHashes()) == [Pictures.sha256(pictures[1]), Pictures.sha256(pictures[2])])
        #expect(contents.albumHashes("QQ") == [Pictures.sha256(pictures[2])])
        print(
            "Deletions by hand noticed in: roll file \(String(format: "%.2f", rollTook)) s, album entry \(String(format: "%.2f", albumTook)) s (promised: 2 s)"
        )
        #expect(daemon.terminate() == 0)
    }

    /// While the daemon is down: a roll file and an album entry removed are
    /// reconciled at start-up, before READY. In keep mode the inbox copies stay;
    /// neither a restart nor a touch of them puts an album entry back.
    @Test func deletionsWhileDownAreReconciledAndNeverUndone() throws {
        let scene = try DaemonScene()
        var daemon = try scene.start(["--settle", "50", "--keep"])
        let inbox = scene.inbox()
        let contents = scene.contents
        let pictures = (0..<4).map { Pictures.uniqueJPEG($0, tag: "down") }
        let hashes = pictures.map(Pictures.sha256)
        for (index, picture) in pictures.enumerated() {
            try scene.dropByRename(picture, as: "k\(index).jpg", into: inbox)
        }
        #expect(scene.waitForAlbum(count: 4), "\(daemon.log)")
        let rows = try contents.assets()
        let rollOfFirst = BytePath(
            try #require(rows.first { $0["hash"] as? String == hashes[0] }?["path"] as? String))

        // While running: album entry k1 removed.
        try Sys.unlink(contents.album("QQ").appending("k1.jpg"))
        #expect(daemon.waitForLog("left the album QQ"), "\(daemon.log)")
        #expect(daemon.terminate() == 0)

        // While down: roll file of k0 and album entry k2 removed.
        try Sys.unlink(rollOfFirst)
        try Sys.unlink(contents.album("QQ").appending("k2.jpg"))
        daemon = try scene.start(["--settle", "50", "--keep", "--verbose"])
        func albumsByHash() throws -> [String: [String]] {
            var result: [String: [String]] = [:]
            for row in try contents.assets() {
                result[row["hash"] as? String ?? ""] = row["albums"] as? [String] ?? []
            }
            return result
        }
        let expected: [String: [String]] = [hashes[1]: [], hashes[2]: [], hashes[3]: ["QQ"]]
        // Reconciled before READY: no wait needed.
        #expect(try albumsByHash() == expected, "\(daemon.log)")
        #expect(Set(contents.albumEntries("QQ").map(\.lastComponent.display)) == ["k3.jpg"])

        // Touch the inbox copies of the assets still in the Roll (a write-open
        // and close with a new mtime): each is read again and recognised by its
        // bytes (photofiler(1): unchanged bytes at that path are never filed again), and
        // no album entry comes back. (k0's asset lost its bytes; what its inbox
        // copy should do once touched, restore it or not, the manual leaves open.)
        for index in 1..<4 {
            let touch = try Sys.open(inbox.appending("k\(index).jpg"), flags: O_WRONLY | O_CLOEXEC)
            var times = [
                timespec(tv_sec: time(nil) + 60, tv_nsec: 0), timespec(tv_sec: time(nil) + 60, tv_nsec: 0),
            ]
            #expect(futimens(touch.rawValue, &times) == 0)
            touch.close()
        }
        try scene.dropByRename(Pictures.uniqueJPEG(9, tag: "down"), as: "sentinel.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
        for index in 1..<4 {
            #expect(daemon.waitForLog("k\(index).jpg' was filed before with these bytes"), "\(daemon.log)")
        }
        var after = expected
        after[Pictures.sha256(Pictures.uniqueJPEG(9, tag: "down"))] = ["QQ"]
        #expect(try albumsByHash() == after, "\(daemon.log)")
        #expect(Set(contents.albumEntries("QQ").map(\.lastComponent.display)) == ["k3.jpg", "sentinel.jpg"])
        #expect(daemon.terminate() == 0)
    }
}
