import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Deletion": a roll file deleted in a file manager can be restored for 30
/// days where its bytes still exist (an album's hard link); where nothing is left
/// (symbolic links only) it is not listed in Recently Deleted and `restore` says so
/// in one sentence. `photofiler rm` and `restore` are safe beside a running daemon.
@Suite struct DeletionUndoTests {
    static func recentlyDeletedCount(_ scene: DaemonScene) throws -> Int? {
        let result = try Binary.run("albums", "--json", "--library", scene.library.display)
        let albums = try result.json() as? [[String: Any]]
        let smart = albums?.first { $0["name"] as? String == "Recently Deleted" }
        return (smart?["count"] as? NSNumber)?.intValue
    }

    @Test(arguments: ["hard", "symbolic"])
    func rollFileDeletedInAFileManager(link: String) throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50", "--link", link])
        let picture = Pictures.uniqueJPEG(1, tag: "undo \(link)")
        try scene.dropByRename(picture, as: "s.jpg", into: scene.inbox())
        let contents = scene.contents
        #expect(waitUntil { (try? contents.assets().count) == 1 }, "\(daemon.log)")
        let filed = try #require(try contents.assets().first)
        let id = try #require(assetID(filed))
        try Sys.unlink(BytePath(try #require(filed["path"] as? String)))
        #expect(waitUntil { (try? contents.assets().count) == 0 }, "\(daemon.log)")
        #expect(contents.albumEntries("QQ").isEmpty, "the album entry left")
        #expect(
            try Self.recentlyDeletedCount(scene) == (link == "hard" ? 1 : 0), "listed only when restorable")

        let restore = try Binary.run("restore", "\(id)", "--library", scene.library.display)
        if link == "hard" {
            #expect(try Self.recentlyDeletedCount(scene) == 0, "restored, so no longer listed")
            #expect(restore.status == 0, "\(restore.stderr)")
            let back = try contents.assets()
            #expect(back.map(assetID) == [id])
            #expect(back.first?["albums"] as? [String] == ["QQ"])
            #expect(contents.albumHashes("QQ") == [Pictures.sha256(picture)])
            #expect(contents.rollHashes() == [Pictures.sha256(picture)])
        } else {
            #expect(try Self.recentlyDeletedCount(scene) == 0, "nothing to restore is not listed")
            #expect(restore.status == 1)
            #expect(restore.stderr.split(separator: "\n").count == 1, "\(restore.stderr)")
            #expect(restore.stderr.contains("deleted outside photofiler"), "\(restore.stderr)")
        }
        #expect(daemon.terminate() == 0)
    }

    /// `rm` held by the catalog's lock (the daemon committing a large group) for a
    /// while before it can record the deletion: the daemon must not take the album
    /// entries' removal for a user's, so `restore` brings the album back.
    @Test func removeBesideARunningDaemonWhileTheCatalogIsBusy() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        try scene.dropByRename(Pictures.uniqueJPEG(2, tag: "rm busy"), as: "b.jpg", into: scene.inbox())
        let contents = scene.contents
        #expect(waitUntil { (try? contents.assets().count) == 1 }, "\(daemon.log)")
        let id = try #require(try contents.assets().first.flatMap(assetID))

        let holder = try Catalog(path: scene.library.appending(".photofiler/catalog.sqlite"))
        var remover: Spawned?
        try holder.transaction {
            remover = try Spawned(
                arguments: ["rm", "\(id)", "--library", scene.library.display].map { BytePath($0) },
                environment: [:])
            // Held for as long as the daemon's own check takes to act (well past its
            // 250 ms), or until rm gives up waiting (it must not).
            #expect(remover?.wait(timeout: 1.5) == nil, "rm waits for the catalog")
        }
        #expect(remover?.wait(timeout: 30) == 0, "\(remover?.stderrText() ?? "")")
        #expect(waitUntil { contents.albumEntries("QQ").isEmpty })
        let restore = try Binary.run("restore", "\(id)", "--library", scene.library.display)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try contents.assets().first?["albums"] as? [String] == ["QQ"], "\(daemon.log)")
        #expect(contents.albumEntries("QQ").count == 1, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }
}
