import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler watch` against the ways apps put files into a folder: each file
/// is filed once into the Roll and linked in the album, its inbox copy removed
/// (move mode), and nothing partial ever reaches the Roll.
@Suite struct DaemonArrivalTests {
    @Test func renameMoveCopyAndHardLinkAreEachFiledOnce() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "200"])
        let inbox = scene.inbox()
        let pictures = (0..<4).map { Pictures.uniqueJPEG($0, tag: "arrival") }

        // An app's atomic save: a hidden temporary file in the inbox, renamed.
        try writeFile(inbox.appending(".saving-a.jpg"), pictures[0])
        try Sys.rename(inbox.appending(".saving-a.jpg"), to: inbox.appending("a.jpg"))
        // `mv` from another folder of the same file system.
        try scene.dropByRename(pictures[1], as: "b.jpg", into: inbox)
        // `cp`: create, write in chunks, close.
        let copy = try OpenWriter(inbox.appending("c.jpg"))
        var offset = 0
        while offset < pictures[2].count {
            try copy.write(pictures[2][offset..<min(offset + 1000, pictures[2].count)])
            offset += 1000
        }
        copy.close()
        // A hard link made into the inbox, then the original removed at once.
        let original = scene.staging.appending("d-original.jpg")
        try writeFile(original, pictures[3])
        try Sys.link(original, to: inbox.appending("d.jpg"))
        try Sys.unlink(original)

        #expect(scene.waitForAlbum(count: 4), "\(daemon.log)")
        #expect(
            waitUntil { LibraryContents.files(below: inbox).isEmpty }, "the inbox copies stay: \(daemon.log)")
        try scene.contents.expectFiledOnce(Set(pictures.map(Pictures.sha256)), album: "QQ")
        let names = Set(scene.contents.albumEntries("QQ").map(\.lastComponent.display))
        #expect(names == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        #expect(daemon.terminate() == 0)
    }

    /// A writer that holds the file open and pauses five times longer than the
    /// settle time is never filed early; it is filed once, whole, after its close.
    @Test(arguments: [0, 200])
    func aPausedWriterIsNeverFiledEarly(settle: Int) throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "\(settle)"])
        let picture = Pictures.uniqueJPEG(settle, tag: "slow")
        let half = picture.count / 2
        let path = scene.inbox().appending("slow.jpg")

        let writer = try OpenWriter(path)
        try writer.write(picture[..<half])
        // The pause is the scenario itself (longer than the settle time), and
        // the Roll is looked at all through it: no file ever appears there.
        let pauseEnd = Date().addingTimeInterval(1)
        var looks = 0
        var seenInRoll: [BytePath] = []
        while Date() < pauseEnd {
            seenInRoll += scene.contents.rollFiles()
            looks += 1
            usleep(5_000)
        }
        #expect(seenInRoll.isEmpty, "filed while its writer held it open: \(seenInRoll)")
        #expect(looks > 20)
        // Even when the daemon reads the creation only after the first write (a loaded
        // machine), it waits for that write's event before it may look: not a word.
        #expect(
            daemon.logLines(containing: "slow.jpg").isEmpty, "looked at while being written: \(daemon.log)")
        try writer.write(picture[half...])
        writer.close()

        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(waitUntil { (try? Sys.statusIfExists(path)) ?? nil == nil })
        try scene.contents.expectFiledOnce([Pictures.sha256(picture)], album: "QQ")
        #expect(daemon.logLines(containing: "slow.jpg").count == 1, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// A hard link into the inbox to a file another process is still writing
    /// elsewhere: its writes bring no event in the inbox, so only the kernel can say
    /// it is held (a read lease). It is not looked at while held, and is filed whole
    /// once quiet (here the app renames it when done).
    @Test func aHardLinkToAFileStillBeingWrittenIsNotLookedAt() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "0"])
        let inbox = scene.inbox()
        let picture = Pictures.uniqueJPEG(0, tag: "held")
        let outside = scene.staging.appending("held.jpg")
        let writer = try OpenWriter(outside)
        try writer.write(picture[..<(picture.count / 2)])
        try Sys.link(outside, to: inbox.appending("held.jpg"))
        // Events are handled in order: once the sentinel dropped after it is filed,
        // the link's creation has been looked at.
        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "held"), as: "sentinel.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(daemon.logLines(containing: "held.jpg").isEmpty, "looked at while held: \(daemon.log)")
        #expect(scene.contents.albumEntries("QQ").map(\.lastComponent.display) == ["sentinel.jpg"])

        try writer.write(picture[(picture.count / 2)...])
        writer.close()
        try Sys.rename(inbox.appending("held.jpg"), to: inbox.appending("done.jpg"))
        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
        try scene.contents.expectFiledOnce(
            [Pictures.sha256(Pictures.uniqueJPEG(1, tag: "held")), Pictures.sha256(picture)], album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// A file an app is still writing when the daemon starts: the start-up scan
    /// finds it with content and no event to say it is done, and leaves it to the
    /// close that comes.
    @Test func aFileStillBeingWrittenAtStartUpWaitsForItsClose() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        try Sys.makeDirectories(inbox)
        let picture = Pictures.uniqueJPEG(0, tag: "start-up")
        let writer = try OpenWriter(inbox.appending("slow.jpg"))
        try writer.write(picture[..<(picture.count / 2)])
        let daemon = try scene.start(["--settle", "0"])
        // Filed in order after the scan: once the sentinel is filed, the scan's look is done.
        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "start-up"), as: "sentinel.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(daemon.logLines(containing: "slow.jpg").isEmpty, "looked at while held: \(daemon.log)")

        try writer.write(picture[(picture.count / 2)...])
        writer.close()
        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
        try scene.contents.expectFiledOnce(
            [Pictures.sha256(Pictures.uniqueJPEG(1, tag: "start-up")), Pictures.sha256(picture)], album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// A browser download: a zero-byte placeholder under the final name, the
    /// bytes written to `NAME.part`, then renamed over the placeholder.
    @Test func aDownloadIsFiledOnceAndTemporaryNamesNever() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let inbox = scene.inbox()
        let download = Pictures.uniqueJPEG(0, tag: "download")

        try writeFile(inbox.appending("photo.jpg"), [])
        let part = try OpenWriter(inbox.appending("photo.jpg.part"))
        try part.write(download[..<1000])
        try part.write(download[1000...])
        part.close()
        try Sys.rename(inbox.appending("photo.jpg.part"), to: inbox.appending("photo.jpg"))

        // A placeholder that stays empty (the app never wrote it) is not filed either.
        try writeFile(inbox.appending("placeholder.jpg"), [])
        let temporaryNames = [
            "x.part", "x.crdownload", "x.tmp", ".hidden.jpg", "~x.jpg", "x.download", "X.PART",
        ]
        for (index, name) in temporaryNames.enumerated() {
            try writeFile(inbox.appending(name), Pictures.uniqueJPEG(index, tag: "temporary"))
        }
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "sentinel"), as: "sentinel.jpg", into: inbox)

        // Events are handled in order and settled files filed in order: once the
        // sentinel dropped last is filed, a temporary file would have been too.
        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
        #expect(waitUntil { (try? Sys.statusIfExists(inbox.appending("sentinel.jpg"))) ?? nil == nil })
        try scene.contents.expectFiledOnce(
            [Pictures.sha256(download), Pictures.sha256(Pictures.uniqueJPEG(0, tag: "sentinel"))], album: "QQ"
        )
        let left = Set(LibraryContents.files(below: inbox).map(\.lastComponent.display))
        #expect(left == Set(temporaryNames + ["placeholder.jpg"]), "temporary files must stay in the inbox")
        #expect(daemon.logLines(containing: "error").isEmpty, "a placeholder is not an error: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// In keep mode the inbox copy stays; touching it (a write-open and close,
    /// new mtime) and changing its mode does not file it a second time.
    /// What `touch` and `chmod` do to a file: an open for writing (`IN_CLOSE_WRITE` on
    /// close), new times and a new mode; its bytes stay as they were.
    static func touchAndChmod(_ path: BytePath) throws {
        let touch = try Sys.open(path, flags: O_WRONLY | O_CLOEXEC)
        defer { touch.close() }
        var times = [
            timespec(tv_sec: time(nil) + 60, tv_nsec: 0), timespec(tv_sec: time(nil) + 60, tv_nsec: 0),
        ]
        #expect(futimens(touch.rawValue, &times) == 0)
        #expect(path.withCString { chmod($0, 0o600) } == 0)
    }

    @Test func aKeptFileTouchedAfterFilingIsNotFiledTwice() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100", "--keep", "--verbose"])
        let inbox = scene.inbox()
        let picture = Pictures.uniqueJPEG(0, tag: "kept")
        let path = inbox.appending("kept.jpg")
        try scene.dropByRename(picture, as: "kept.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")

        try Self.touchAndChmod(path)
        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "kept"), as: "after.jpg", into: inbox)

        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
        #expect(daemon.waitForLog("'\(path.display)' was filed before with these bytes"), "\(daemon.log)")
        try scene.contents.expectFiledOnce(
            [Pictures.sha256(picture), Pictures.sha256(Pictures.uniqueJPEG(1, tag: "kept"))], album: "QQ")
        #expect(try readFile(path) == picture, "keep mode leaves the inbox file as it was")
        #expect(daemon.terminate() == 0)
    }

    /// A refused file is reported once: a `touch` or a `chmod` changes its times, not
    /// its bytes. A change of its size is a new file, tried and reported again.
    @Test func aRefusedFileIsReportedOnceWhateverItsTimesDo() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let inbox = scene.inbox()
        let path = inbox.appending("readme.txt")
        try scene.dropByRename(Array("just text\n".utf8), as: "readme.txt", into: inbox)
        let refusal = "'\(path.display)' is not a photo or video"
        func reports() -> Int { daemon.log.components(separatedBy: refusal).count - 1 }
        #expect(daemon.waitForLog(refusal), "\(daemon.log)")

        try Self.touchAndChmod(path)
        // Filed after the touched file was looked at again (it arrived first).
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "after-refusal"), as: "after.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(reports() == 1, "\(daemon.log)")

        try appendFile(path, Array("more text\n".utf8)[...])
        #expect(waitUntil(timeout: 20) { reports() == 2 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// "Reported once" holds across a restart: the catch-up scan finds the refused
    /// file again and says nothing; a file changed while the daemon was down is
    /// tried and reported again.
    @Test func aRefusedFileIsReportedOnceAcrossRestarts() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        let first = try scene.start(["--settle", "50"])
        try scene.dropByRename(Array("just text\n".utf8), as: "readme.txt", into: inbox)
        try scene.dropByRename(Array("other text\n".utf8), as: "notes.txt", into: inbox)
        let readme = "'\(inbox.appending("readme.txt").display)' is not a photo or video"
        let notes = "'\(inbox.appending("notes.txt").display)' is not a photo or video"
        #expect(first.waitForLog(readme) && first.waitForLog(notes), "\(first.log)")
        #expect(first.terminate() == 0)

        try appendFile(inbox.appending("notes.txt"), Array("changed while down\n".utf8)[...])
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "after-restart"), as: "after.jpg", into: inbox)
        let second = try scene.start(["--settle", "50"])
        #expect(scene.waitForAlbum(count: 1), "\(second.log)")
        #expect(second.waitForLog(notes), "the changed file is tried again: \(second.log)")
        #expect(!second.log.contains(readme), "\(second.log)")
        #expect(second.terminate() == 0)
    }

    /// Two apps (or one app twice) rename different files over one name within
    /// the settle time: one asset, with the content that stayed.
    @Test func twoFilesRenamedOverOneNameMakeOneAsset() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "300"])
        let inbox = scene.inbox()
        let first = Pictures.uniqueJPEG(1, tag: "over")
        let second = Pictures.uniqueJPEG(2, tag: "over")
        try writeFile(scene.staging.appending("first.jpg"), first)
        try writeFile(scene.staging.appending("second.jpg"), second)
        try Sys.rename(scene.staging.appending("first.jpg"), to: inbox.appending("same.jpg"))
        try Sys.rename(scene.staging.appending("second.jpg"), to: inbox.appending("same.jpg"))
        try scene.dropByRename(Pictures.uniqueJPEG(3, tag: "over"), as: "sentinel.jpg", into: inbox)

        #expect(scene.waitForAlbum(count: 2), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty }, "\(daemon.log)")
        try scene.contents.expectFiledOnce(
            [Pictures.sha256(second), Pictures.sha256(Pictures.uniqueJPEG(3, tag: "over"))], album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// Files written right after `mkdir`, before the new folder's watch can
    /// exist, are filed; so are files in a whole new tree.
    @Test func filesInNewSubfoldersAreFiled() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let inbox = scene.inbox()
        var hashes: Set<String> = []
        var index = 0
        func write(_ folder: BytePath, count: Int) throws {
            for _ in 0..<count {
                let picture = Pictures.uniqueJPEG(index, tag: "subfolder")
                try writeFile(folder.appending("p\(index).jpg"), picture)
                hashes.insert(Pictures.sha256(picture))
                index += 1
            }
        }
        let sub = inbox.appending("new")
        try Sys.makeDirectory(sub)
        try write(sub, count: 20)
        let deepest = inbox.appending("a/b/c")
        try Sys.makeDirectories(deepest)
        try write(inbox.appending("a"), count: 2)
        try write(inbox.appending("a/b"), count: 2)
        try write(deepest, count: 2)

        #expect(scene.waitForAlbum(count: 26), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty }, "\(daemon.log)")
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// `rm -rf inbox; mkdir inbox` then a file, at once and three times over: the
    /// new folder is watched and its file filed.
    @Test func aRemovedAndRemadeInboxIsWatchedAgain() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        let inbox = scene.inbox()
        var hashes: Set<String> = []
        for round in 0..<3 {
            TemporaryFolder.removeTree(inbox)
            try Sys.makeDirectory(inbox)
            let picture = Pictures.uniqueJPEG(round, tag: "remade")
            try writeFile(inbox.appending("r\(round).jpg"), picture)
            hashes.insert(Pictures.sha256(picture))
            #expect(scene.waitForAlbum(count: round + 1), "round \(round): \(daemon.log)")
        }
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        #expect(daemon.terminate() == 0)
    }
}
