import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// A start-up reads only the Roll's and albums' folders changed since the last
/// reconcile (photofiler(1) "The daemon": a roll or album change made while it was down is
/// reconciled at start-up), and reads none when nothing changed.
@Suite struct DaemonFolderStampTests {
    /// The numbers of the start-up's "Reconciled (start-up): read N of M folder(s)" line.
    static func foldersRead(_ daemon: DaemonProcess) -> (read: Int, of: Int)? {
        guard let line = daemon.logLines(containing: "Reconciled (start-up): read").first,
            let range = line.range(of: "read ")
        else { return nil }
        let words = line[range.upperBound...].split(separator: " ")
        guard words.count > 2, let read = Int(words[0]), let of = Int(words[2]) else { return nil }
        return (read, of)
    }

    /// Waits until every folder of the Roll and the albums last changed more than a
    /// coarse timestamp tick ago (3 s): only then may a reconcile trust their times.
    static func waitUntilFoldersSettle(_ library: BytePath) -> Bool {
        func newestChange(_ folder: BytePath) -> Int64 {
            guard let status = try? Sys.status(folder), status.isDirectory else { return 0 }
            var newest = max(status.modificationNanoseconds, status.changeNanoseconds)
            for entry in (try? Sys.listDirectory(folder)) ?? [] where entry.kind == .directory {
                newest = max(newest, newestChange(folder.appending(entry.name)))
            }
            return newest
        }
        let newest = max(newestChange(library.appending("Roll")), newestChange(library.appending("Albums")))
        return waitUntil(timeout: 20) { Int64(Date().timeIntervalSince1970 * 1e9) - newest > 3_200_000_000 }
    }

    @Test func changesWhileDownAreReconciledAndUnchangedFoldersAreNotRead() throws {
        let scene = try DaemonScene()
        let inboxes = ["QQ", "WeChat", "Weibo"]
        var daemon = try scene.start(["--settle", "0"], inboxes: inboxes)
        let pictures = inboxes.indices.map { Pictures.uniqueJPEG($0, tag: "stamps") }
        for (picture, inbox) in zip(pictures, inboxes) {
            try scene.dropByRename(picture, as: "\(inbox).jpg", into: scene.inbox(inbox))
        }
        for inbox in inboxes { #expect(scene.waitForAlbum(inbox, count: 1), "\(daemon.log)") }
        #expect(daemon.terminate() == 0)

        // Folders settled: this start reads them all (their stamps were too fresh to
        // trust) and stamps them; the next one, with nothing changed, reads none.
        #expect(Self.waitUntilFoldersSettle(scene.library))
        daemon = try scene.start(["--settle", "0"], inboxes: inboxes)
        #expect(daemon.terminate() == 0)
        daemon = try scene.start(["--settle", "0"], inboxes: inboxes)
        let quiet = try #require(Self.foldersRead(daemon), "\(daemon.log)")
        #expect(quiet.read == 0 && quiet.of >= 5, "\(daemon.log)")
        #expect(daemon.terminate() == 0)

        // While down: QQ's roll file removed, Weibo's roll file linked into WeChat's
        // album, and Weibo's album folder renamed.
        let contents = scene.contents
        let assets = try contents.assets()
        func asset(_ index: Int) throws -> [String: Any] {
            try #require(assets.first { $0["hash"] as? String == Pictures.sha256(pictures[index]) })
        }
        let qqRoll = BytePath(try #require(try asset(0)["path"] as? String))
        let weiboRoll = BytePath(try #require(try asset(2)["path"] as? String))
        try Sys.unlink(qqRoll)
        try Sys.link(weiboRoll, to: contents.album("WeChat").appending("from-weibo.jpg"))
        try Sys.rename(contents.album("Weibo"), to: contents.album("Trip"))

        daemon = try scene.start(["--settle", "0"], inboxes: inboxes)
        let changed = try #require(Self.foldersRead(daemon), "\(daemon.log)")
        #expect(changed.read >= 1 && changed.read < changed.of, "\(daemon.log)")
        let after = try contents.assets()
        #expect(after.count == 2, "the asset whose roll file went is deleted: \(after)")
        let weibo = try #require(after.first { $0["hash"] as? String == Pictures.sha256(pictures[2]) })
        #expect(Set(weibo["albums"] as? [String] ?? []) == ["WeChat", "Trip"], "\(weibo)")
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }
}
