import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Complete files only": a file that was refused and then changes (it is
/// completed in place, or replaced by a rename) is tried again, and filed once whole.
@Suite struct RefusedThenChangedTests {
    @Test(arguments: ["completed in place", "replaced by a rename"], [false, true])
    func refusedFileIsFiledOnceWhole(change: String, keep: Bool) throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"] + (keep ? ["--keep"] : []))
        let inbox = scene.inbox()
        let picture = Pictures.uniqueJPEG(1, tag: change)
        let path = inbox.appending("r.jpg")
        let cutAt = picture.count / 2
        // The first half, closed: a candidate that is refused as cut.
        try appendFile(path, picture[..<cutAt])
        #expect(daemon.waitForLog("incomplete JPEG"), "refused: \(daemon.log)")
        if change == "completed in place" {
            try appendFile(path, picture[cutAt...])
        } else {
            try scene.dropByRename(picture, as: "r.jpg", into: inbox)
        }
        #expect(scene.waitForAlbum(count: 1), "filed once whole: \(daemon.log)")
        try scene.contents.expectFiledOnce([Pictures.sha256(picture)], album: "QQ")
        if !keep {
            #expect(waitUntil { (try? Sys.statusIfExists(path)) ?? nil == nil }, "moved out of the inbox")
        }
        #expect(daemon.terminate() == 0)
    }
}
