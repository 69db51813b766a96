import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Never lose, never duplicate": an album is created once even when several
/// processes file into it at the same moment; a new library's layout, schema and
/// migration are made once, and a busy catalog is waited for, never fatal.
@Suite struct ConcurrentCreationTests {
    /// Six `save --album Party` started at once on a new album, a few rounds (the
    /// race lost one saver in one run out of two): every saver exits 0, there is one
    /// album folder, and every file is a member.
    @Test func sixSaversOfANewAlbumAllSucceedWithOneAlbum() throws {
        for round in 0..<4 {
            let library = try TestLibrary()
            let files = try (0..<6).map { index in
                try library.input(
                    bytes: Pictures.uniqueJPEG(index, tag: "party \(round)"), name: BytePath("p\(index).jpg"))
            }
            let savers = try files.map { file in
                try Spawned(
                    arguments: [
                        BytePath("save"), BytePath("--album"), BytePath("Party"), BytePath("--library"),
                        library.root, file,
                    ], environment: [:])
            }
            for saver in savers {
                let status = try #require(saver.wait(timeout: 60), "save returned")
                #expect(status == 0, "round \(round): \(saver.stderrText())")
            }
            let folders = try Sys.listDirectory(library.root.appending("Albums")).map(\.name)
            #expect(folders == [BytePath("Party")], "round \(round): \(folders)")
            #expect(try library.entries(ofAlbum: "Party").count == 6, "round \(round)")
            let albums = try library.albums()
            #expect((albums["Party"]?["count"] as? NSNumber)?.intValue == 6, "round \(round): \(albums)")
        }
    }

    /// A daemon and several `list`s started at the same instant on a library that
    /// does not exist yet: each creates (or finds) the layout and the schema, and
    /// none fails with "database is locked".
    @Test func newLibraryOpenedByManyProcessesAtOnce() throws {
        for round in 0..<6 {
            let scene = try DaemonScene()
            let listers = try (0..<6).map { _ in
                try Spawned(
                    arguments: [BytePath("list"), BytePath("--library"), scene.library], environment: [:])
            }
            let daemon = try scene.start(["--settle", "50"], waitForReady: false)
            let moreListers = try (0..<2).map { _ in
                try Spawned(
                    arguments: [BytePath("albums"), BytePath("--library"), scene.library], environment: [:])
            }
            for lister in listers + moreListers {
                let status = try #require(lister.wait(timeout: 60), "list returned")
                #expect(status == 0, "round \(round): \(lister.stderrText())")
            }
            #expect(
                daemon.waitForMessage(timeout: 30) { $0.contains("READY=1") },
                "round \(round): \(daemon.log)")
            #expect(daemon.terminate() == 0, "round \(round): \(daemon.log)")
            #expect(!daemon.log.contains("locked"), "round \(round): \(daemon.log)")
        }
    }
}
