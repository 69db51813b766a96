import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Deletion": what could not be looked at is not gone. A roll file without a
/// row whose bytes are an asset's is that asset moved within the Roll only when the
/// asset's recorded file is gone; when that file cannot be looked at (a failing
/// disk, injected on `stat`), the new file is no move: it is left without a row and
/// listed, the asset keeps its path, and the other files are adopted all the same.
@Suite
struct CheckUnlookableOldPathTests {
    @Test func aCopyIsNoMoveWhileTheRecordedFileCannotBeLookedAt() throws {
        let library = try CheckCommandTests.library()
        let original = try #require(
            try library.rollFiles().first { $0.lastComponent.display.hasPrefix("cmyk") })
        let before = try library.list().first { ($0["path"] as? String) == original.display }
        let id = try #require(before?["id"] as? Int)
        let copyFolder = library.root.appending("Roll/1999/01")
        try Sys.makeDirectories(copyFolder)
        let copy = copyFolder.appending("copy.jpg")
        try copyFile(original, to: copy)
        // Another file put in the Roll by hand, adopted all the same.
        let other = copyFolder.appending("other.jpg")
        try writeFile(other, Pictures.uniqueJPEG(1, tag: "put in the Roll by hand"))
        let failing = ["PHOTOFILER_FAIL_PATH": "stat:EIO:\(original.lastComponent.display)"]

        let repair = try library.run("check", "--repair", environment: failing)
        #expect(repair.status == 1, "left as found: \(repair.stdout)\(repair.stderr)")
        #expect(
            repair.stdout.contains("roll file without a row: 'Roll/1999/01/copy.jpg'"), "\(repair.stdout)")
        #expect(repair.stderr.contains("copy.jpg"), "the warning names it: \(repair.stderr)")
        let assets = try library.list()
        let after = assets.first { ($0["id"] as? Int) == id }
        #expect(after?["path"] as? String == original.display, "not taken for a move: \(repair.stdout)")
        #expect(assets.contains { $0["path"] as? String == other.display }, "the other file is adopted")
        #expect((try? Sys.status(copy)) != nil)
    }
}
