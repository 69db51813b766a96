import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Never lose, never duplicate", keep mode: an inbox path whose bytes are
/// unchanged is never filed again, whatever `touch`, `chmod` or an app's re-sync
/// does to its times; an asset deleted from the Roll is not put back by its inbox
/// copy; only different bytes at that path are a new file.
@Suite struct KeepModeResyncTests {
    @Test func resyncedInboxCopyDoesNotBringADeletedAssetBack() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--keep", "--settle", "50", "--verbose"])
        let inbox = scene.inbox()
        let picture = Pictures.uniqueJPEG(1, tag: "keep resync")
        let path = inbox.appending("k.jpg")
        try scene.dropByRename(picture, as: "k.jpg", into: inbox)
        #expect(waitUntil { (try? scene.contents.assets().count) == 1 }, "\(daemon.log)")
        let rollFile = try #require(scene.contents.rollFiles().first)

        // The user deletes it from the Roll.
        try Sys.unlink(rollFile)
        #expect(waitUntil { (try? scene.contents.assets().count) == 0 }, "\(daemon.log)")

        // The app re-syncs: the same bytes written again, new times, new mode.
        let writer = try OpenWriter(path)
        _ = ftruncate(writer.fd.rawValue, 0)
        try writer.write(picture[...])
        writer.close()
        _ = path.withCString { chmod($0, 0o600) }
        #expect(
            daemon.waitForLog("'\(path.display)' was filed before"),
            "the re-synced copy was looked at: \(daemon.log)")
        #expect(try scene.contents.assets().isEmpty, "not brought back: \(daemon.log)")
        #expect(scene.contents.rollFiles().isEmpty)

        // Different bytes at that path are a new file.
        let changed = Pictures.uniqueJPEG(2, tag: "keep resync")
        try scene.dropByRename(changed, as: "k.jpg", into: inbox)
        #expect(
            waitUntil { (try? scene.contents.assets().count) == 1 }, "the new bytes are filed: \(daemon.log)")
        #expect(scene.contents.rollHashes() == [Pictures.sha256(changed)])
        #expect(daemon.terminate() == 0)

        // A restart with touched times files nothing again either.
        let later = time(nil) + 3600
        var times = [timespec(tv_sec: later, tv_nsec: 0), timespec(tv_sec: later, tv_nsec: 0)]
        _ = path.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
        let again = try scene.start(["--keep", "--settle", "50", "--verbose"])
        #expect(again.waitForLog("'\(path.display)' was filed before"), "\(again.log)")
        #expect(try scene.contents.assets().count == 1)
        #expect(scene.contents.rollFiles().count == 1)
        #expect(again.terminate() == 0)
    }
}
