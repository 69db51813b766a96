import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// Dot files are not the library's: a file manager's `.directory` or `.DS_Store`
/// beside the pictures, a sync engine's `.stversions/` in the Roll. `check` does
/// not report them and `--repair` does not adopt them, so a library browsed with
/// Dolphin or synced with Syncthing checks clean.
@Suite
struct CheckDotFilesTests {
    @Test func dotFilesInTheRollAndTheAlbumsAreLeftAlone() throws {
        let library = try CheckCommandTests.library()
        let roll = library.root.appending("Roll")
        let month = try #require(try library.rollFiles().first).parent
        try writeFile(roll.appending(".DS_Store"), Array("Bud1".utf8))
        try writeFile(month.appending(".directory"), Array("[Dolphin]\nViewMode=1\n".utf8))
        try writeFile(library.album("QQ").appending(".directory"), Array("[Dolphin]\nViewMode=1\n".utf8))
        let versions = roll.appending(".stversions")
        try Sys.makeDirectory(versions)
        try writeFile(versions.appending("old~20261204.jpg"), Pictures.uniqueJPEG(1, tag: "an old version"))
        let before = try library.list().count

        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.isEmpty)
        let repair = try library.run("check", "--repair")
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(try library.list().count == before, "nothing adopted")
        #expect(try Sys.statusIfExists(versions.appending("old~20261204.jpg")) != nil, "nothing removed")
        #expect(try Sys.statusIfExists(library.album("QQ").appending(".directory")) != nil)
    }

    /// `save` of a dot-named file files it without the leading dot, so it is never
    /// taken for a file manager's.
    @Test func aSavedDotFileIsFiledWithoutItsDot() throws {
        let library = try TestLibrary()
        let id = try library.save(
            [try library.input(corpus: "Landscape_1.jpg", as: ".hidden.jpg")], album: "QQ")
        let asset = try library.info(BytePath("\(id[0])"))
        #expect((asset["path"] as? String)?.hasSuffix("/hidden.jpg") == true, "\(asset)")
        #expect(try library.entries(ofAlbum: "QQ") == ["hidden.jpg"])
        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)")
    }
}
