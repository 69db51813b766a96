import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Deletion": a move is not a deletion. A roll file moved or renamed within
/// `Roll/` stays the same asset with the same albums, its new path recorded within
/// 2 s (and at start-up when the daemon was down); an album entry moved into another
/// album's folder leaves the first album and joins the second.
@Suite struct LibraryMoveTests {
    /// The asset object of `id` from `list --json`.
    static func asset(_ id: Int64, in contents: LibraryContents) -> [String: Any]? {
        (try? contents.assets())?.first { assetID($0) == id }
    }

    @Test(arguments: ["hard", "symbolic"])
    func movesWithinTheLibraryKeepTheAsset(link: String) throws {
        let scene = try DaemonScene()
        // A second month folder, watched from the start.
        let otherMonth = scene.library.appending("Roll/2023/11")
        try Sys.makeDirectories(otherMonth)
        let daemon = try scene.start(["--settle", "50", "--link", link], inboxes: ["QQ", "WeChat"])
        // WeChat's album folder exists once something is filed into it.
        try scene.dropByRename(
            Pictures.uniqueJPEG(9, tag: "move \(link)"), as: "w.jpg", into: scene.inbox("WeChat"))
        let contents = scene.contents
        #expect(waitUntil { (try? contents.assets().count) == 1 }, "\(daemon.log)")
        let picture = Pictures.uniqueJPEG(1, tag: "move \(link)")
        try scene.dropByRename(picture, as: "x.jpg", into: scene.inbox("QQ"))
        #expect(waitUntil { (try? contents.assets().count) == 2 }, "\(daemon.log)")
        let filed = try #require(try contents.assets().first { $0["originalName"] as? String == "x.jpg" })
        let id = try #require(assetID(filed))
        let original = BytePath(try #require(filed["path"] as? String))

        // Renamed in its folder, then moved to another month: same id, same album.
        let renamed = original.parent.appending("renamed.jpg")
        try Sys.rename(original, to: renamed)
        #expect(
            waitUntil { Self.asset(id, in: contents)?["path"] as? String == renamed.display },
            "the new path is recorded: \(daemon.log)")
        let moved = otherMonth.appending("renamed.jpg")
        try Sys.rename(renamed, to: moved)
        #expect(
            waitUntil { Self.asset(id, in: contents)?["path"] as? String == moved.display },
            "the new path is recorded: \(daemon.log)")
        #expect(Self.asset(id, in: contents)?["albums"] as? [String] == ["QQ"], "\(daemon.log)")
        #expect(contents.albumEntries("QQ").count == 1)
        #expect(contents.albumHashes("QQ") == [Pictures.sha256(picture)], "the entry leads to the bytes")

        // An album entry moved into another album's folder: QQ left, WeChat joined.
        let entry = try #require(contents.albumEntries("QQ").first)
        try Sys.rename(entry, to: contents.album("WeChat").appending(entry.lastComponent))
        #expect(
            waitUntil { Self.asset(id, in: contents)?["albums"] as? [String] == ["WeChat"] },
            "\(daemon.log)")
        #expect(!daemon.log.contains("marked deleted"), "\(daemon.log)")
        #expect(daemon.terminate() == 0)

        // Moved while the daemon is down: at start-up it is the same asset, moved.
        let whileDown = original.parent.appending("while-down.jpg")
        try Sys.rename(moved, to: whileDown)
        let again = try scene.start(["--settle", "50", "--link", link], inboxes: ["QQ", "WeChat"])
        #expect(
            waitUntil { Self.asset(id, in: contents)?["path"] as? String == whileDown.display },
            "\(again.log)")
        #expect(Self.asset(id, in: contents)?["albums"] as? [String] == ["WeChat"], "\(again.log)")
        #expect(try contents.assets().count == 2)
        #expect(again.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "catalog and disk agree: \(check.stdout)")
    }
}
