import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// A Roll folder moved within the Roll (a user fixing a year) to where it cannot
/// be read (injected on `open` with `PHOTOFILER_FAIL_PATH`, since root reads through
/// permissions): its files are missing from where they were and may be in it, so
/// `--repair` ends nothing; once it can be read, the assets are found there with
/// their albums.
@Suite
struct CheckUnreadableRollFolderTests {
    @Test func aMovedFolderThatCannotBeReadEndsNothing() throws {
        let library = try CheckCommandTests.library()
        let before = try library.list()
        func albums(_ assets: [[String: Any]]) -> [AssetID: [String]] {
            Dictionary(
                uniqueKeysWithValues: assets.map { (assetID($0) ?? -1, $0["albums"] as? [String] ?? []) })
        }
        let rollFile = try #require(try library.rollFiles().first)
        let year = rollFile.parent.parent
        let moved = year.parent.appending("1999")
        try Sys.rename(year, to: moved)
        let failing = ["PHOTOFILER_FAIL_PATH": "open:EACCES:/Roll/1999"]

        let repair = try library.run("check", "--repair", environment: failing)
        #expect(repair.stdout.contains("Roll/1999"), "\(repair.stdout)\(repair.stderr)")
        let during = try library.list()
        #expect(albums(during) == albums(before), "no asset or membership ended: \(repair.stdout)")
        #expect(LibraryContents.files(below: library.root.appending("Recently Deleted")).isEmpty)

        let readable = try library.run("check", "--repair")
        #expect(readable.status == 0, "\(readable.stdout)\(readable.stderr)")
        let after = try library.list()
        #expect(albums(after) == albums(before))
        #expect(after.allSatisfy { ($0["path"] as? String)?.contains("/Roll/1999/") == true }, "\(after)")
        #expect(try library.run("check").status == 0)
    }
}
