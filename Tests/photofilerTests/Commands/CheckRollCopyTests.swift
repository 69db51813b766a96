import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `check --repair` and a second copy of a photo made within the Roll (`cp` into
/// another date folder): one asset has one roll file, and deleting a file is the
/// user's to decide, so the copy is left, with a warning that says why and what to do.
@Suite struct CheckRollCopyTests {
    @Test func aCopyWithinTheRollIsLeftWithItsReasonAndFix() throws {
        let library = try TestLibrary()
        try library.save([try library.input(corpus: "Landscape_1.jpg")], album: "QQ")
        let original = try #require(try library.rollFiles().first)
        let originalName = "Roll/" + original.components.suffix(3).map(\.display).joined(separator: "/")
        let folder = library.root.appending("Roll/2020/01")
        try Sys.makeDirectories(folder)
        let copy = folder.appending("copy.jpg")
        try writeFile(copy, try readFile(original))

        let repair = try library.run("check", "--repair")
        #expect(repair.status == 1, "\(repair.stdout)\(repair.stderr)")
        #expect(repair.stdout == "roll file without a row: 'Roll/2020/01/copy.jpg'\n", "\(repair.stdout)")
        #expect(
            repair.stderr.contains(
                "'Roll/2020/01/copy.jpg' holds the same bytes as asset 1 ('\(originalName)'), and the Roll keeps each photo once"
            ), "\(repair.stderr)")
        #expect(repair.stderr.contains("delete it, or move it out of the library"), "\(repair.stderr)")
        #expect(!repair.stderr.contains("album entries that are not roll assets"), "\(repair.stderr)")
        #expect(try readFile(copy) == (try readFile(original)), "the copy is left as it is")
        #expect(try library.list().count == 1)

        try Sys.unlink(copy)
        #expect(try library.run("check").status == 0)
    }
}
