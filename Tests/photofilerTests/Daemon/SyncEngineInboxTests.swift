import Foundation
import Glibc
import PhotoFilerDaemon
import PhotoFilerSystem
import TestSupport
import Testing

/// Phones synced through Syncthing or the Nextcloud client: the engine owns the
/// inbox, so its files stay in place (keep mode) unless the config says
/// `keep = false`, and the engine's temporary names are never candidates.
@Suite struct SyncEngineInboxTests {
    /// The phone's own mtime, which the engines set after the rename: 2023-12-01 12:34:56 UTC.
    static let phoneTime: time_t = 1_701_434_096

    /// Writes as a sync engine does: the bytes under its temporary name (in two
    /// writes, then closed), a rename to the final name, then `utimensat` giving
    /// the file the phone's mtime, after the rename.
    static func engineWrite(_ bytes: [UInt8], as name: String, temporary: String, into folder: BytePath)
        throws
    {
        let staged = folder.appending(temporary)
        let writer = try OpenWriter(staged)
        try writer.write(bytes[..<(bytes.count / 2)])
        try writer.write(bytes[(bytes.count / 2)...])
        writer.close()
        let final = folder.appending(name)
        try Sys.rename(staged, to: final)
        var times = [
            timespec(tv_sec: phoneTime, tv_nsec: 0), timespec(tv_sec: phoneTime, tv_nsec: 0),
        ]
        let result = final.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
        try #require(result == 0, "utimensat: errno \(errno)")
    }

    /// Each engine's marker in the inbox and the temporary names it writes through.
    struct Engine: Sendable, CustomTestStringConvertible {
        var name: String
        var markers: [(path: String, isFolder: Bool)]
        var temporaryNames: [String]
        var testDescription: String { name }
    }

    static let engines = [
        Engine(
            name: "Syncthing", markers: [(".stfolder", true), (".stignore", false)],
            temporaryNames: [".syncthing.IMG_0001.jpg.tmp", "~syncthing~IMG_0002.jpg.tmp"]),
        Engine(
            name: "the Nextcloud client",
            markers: [(".sync_5f3e2a1b9c0d.db", false), (".sync_5f3e2a1b9c0d.db-wal", false)],
            temporaryNames: [".IMG_0001.jpg.~4a1f", "IMG_0002.jpg.~9c0e"]),
    ]

    /// Another transfer's temporary name of the same shape (IMG_0001 → IMG_9001).
    static func leftBehind(_ temporary: String) -> String {
        temporary.replacingOccurrences(of: "IMG_000", with: "IMG_900")
    }

    static func makeMarkers(_ engine: Engine, in inbox: BytePath) throws {
        try Sys.makeDirectories(inbox)
        for marker in engine.markers {
            if marker.isFolder {
                try Sys.makeDirectory(inbox.appending(marker.path))
            } else {
                try writeFile(inbox.appending(marker.path), Array("journal".utf8))
            }
        }
    }

    @Test(arguments: engines)
    func anInboxAnEngineOwnsKeepsItsFilesAndNeverFilesTemporaryNames(engine: Engine) throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        try Self.makeMarkers(engine, in: inbox)
        let daemon = try scene.start(["--settle", "100"])
        #expect(daemon.logLines(containing: "synced by \(engine.name)").count == 1, "\(daemon.log)")
        #expect(daemon.logLines(containing: "keep mode").count == 1, "\(daemon.log)")

        // Transfers the engine left half done: whole pictures under its temporary
        // names, closed, never renamed. Written first, they would settle first.
        for (index, temporary) in engine.temporaryNames.enumerated() {
            try writeFile(
                inbox.appending(Self.leftBehind(temporary)), Pictures.uniqueJPEG(index, tag: "left"))
        }
        var hashes: Set<String> = []
        for (index, temporary) in engine.temporaryNames.enumerated() {
            let picture = Pictures.uniqueJPEG(index, tag: engine.name)
            hashes.insert(Pictures.sha256(picture))
            try Self.engineWrite(picture, as: "IMG_000\(index + 1).jpg", temporary: temporary, into: inbox)
        }
        #expect(scene.waitForAlbum(count: hashes.count), "\(daemon.log)")
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        // Left in place, with the phone's mtime the engine gave them.
        for index in engine.temporaryNames.indices {
            let kept = try Sys.status(inbox.appending("IMG_000\(index + 1).jpg"))
            #expect(kept.modificationNanoseconds / 1_000_000_000 == Int64(Self.phoneTime))
        }
        for temporary in engine.temporaryNames {
            #expect(try Sys.statusIfExists(inbox.appending(Self.leftBehind(temporary))) != nil)
        }
        let names = try scene.contents.assets().compactMap { $0["originalName"] as? String }
        #expect(Set(names) == ["IMG_0001.jpg", "IMG_0002.jpg"])
        #expect(daemon.terminate() == 0)

        // A restart (a full catch-up scan of the kept files) files nothing again.
        let again = try scene.start(["--settle", "100"])
        try scene.dropByRename(Pictures.uniqueJPEG(9, tag: engine.name), as: "sentinel.jpg", into: inbox)
        hashes.insert(Pictures.sha256(Pictures.uniqueJPEG(9, tag: engine.name)))
        #expect(scene.waitForAlbum(count: hashes.count), "\(again.log)")
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        #expect(again.terminate() == 0)
    }

    @Test func keepFalseInTheConfigMovesFilesOutOfASyncedInbox() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        try Self.makeMarkers(Self.engines[0], in: inbox)
        let config = scene.folder.file("photofiler.conf")
        try scene.folder.write("[inbox QQ]\npath = \(inbox.display)\nkeep = false\n", to: config)
        let daemon = try scene.start(["--settle", "100", "--config", config.display], inboxes: [])
        #expect(daemon.logLines(containing: "synced by Syncthing").count == 1, "\(daemon.log)")
        #expect(daemon.logLines(containing: "keep = false").count == 1, "\(daemon.log)")
        let picture = Pictures.uniqueJPEG(0, tag: "moved")
        try Self.engineWrite(
            picture, as: "IMG_0001.jpg", temporary: ".syncthing.IMG_0001.jpg.tmp", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(waitUntil { (try? Sys.statusIfExists(inbox.appending("IMG_0001.jpg"))) ?? nil == nil })
        try scene.contents.expectFiledOnce([Pictures.sha256(picture)], album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// Syncthing keeps old versions in `.stversions/`: never new pictures.
    @Test func filesInAHiddenFolderOfAnInboxAreNeverFiled() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        try Self.makeMarkers(Self.engines[0], in: inbox)
        try Sys.makeDirectories(inbox.appending(".stversions"))
        try writeFile(
            inbox.appending(".stversions/old~20231201-123456.jpg"), Pictures.uniqueJPEG(0, tag: "old"))
        let daemon = try scene.start(["--settle", "100"])
        try scene.dropByRename(
            Pictures.uniqueJPEG(1, tag: "old"), as: "later~20231202.jpg", into: inbox.appending(".stversions")
        )
        let sentinel = Pictures.uniqueJPEG(2, tag: "old")
        try scene.dropByRename(sentinel, as: "sentinel.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        try scene.contents.expectFiledOnce([Pictures.sha256(sentinel)], album: "QQ")
        #expect(daemon.terminate() == 0)
    }
}
