import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Deletion": what could not be looked at is not gone. An album entry whose
/// look fails (a failing disk, injected on `stat`) is not an entry that leads to no
/// asset: the album is reported as not looked at, and its memberships stand.
@Suite
struct CheckUnlookableAlbumEntryTests {
    @Test func anEntryThatCannotBeLookedAtIsNotAStray() throws {
        let library = try CheckCommandTests.library()
        let album = library.root.appending("Albums/QQ")
        // A file put into the album by hand: its `readdir` inode is no member's, so it is looked at.
        try writeFile(album.appending("by-hand.jpg"), Pictures.uniqueJPEG(1, tag: "put in an album by hand"))
        let plain = try library.run("check")
        #expect(plain.stdout.contains("'QQ/by-hand.jpg'"), "listed when it can be looked at: \(plain.stdout)")

        let failing = ["PHOTOFILER_FAIL_PATH": "stat:EIO:by-hand"]
        let check = try library.run("check", environment: failing)
        #expect(check.status == 1)
        #expect(check.stdout.contains("could not look at 'Albums/QQ'"), "\(check.stdout)")
        #expect(!check.stdout.contains("by-hand"), "not judged: \(check.stdout)")

        let repair = try library.run("check", "--repair", environment: failing)
        #expect(repair.status == 1, "\(repair.stdout)\(repair.stderr)")
        #expect(try library.list("--album", "QQ").count == 2, "its memberships stand")
        #expect((try? Sys.status(album.appending("by-hand.jpg"))) != nil)
    }
}
