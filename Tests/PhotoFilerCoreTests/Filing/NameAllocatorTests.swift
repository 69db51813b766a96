import TestSupport
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// Links that a retry after a crash makes again: the name a cut-short attempt left
/// is taken as it is, never a second one (issue 14); any other file there is never
/// replaced.
@Suite struct NameAllocatorTests {
    @Test func aHardLinkTriedAgainReusesTheNameThatHoldsTheSameFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("IMG_0001.MOV")
        try writeFile(file, [1, 2, 3])
        let into = folder.file("beside")
        try Sys.makeDirectory(into)
        let first = try NameAllocator.hardLink(file, into: into, preferred: BytePath("IMG_0001.MOV"))
        let again = try NameAllocator.hardLink(file, into: into, preferred: BytePath("IMG_0001.MOV"))
        #expect(first == again)
        #expect(try Sys.listDirectory(into).count == 1)
    }

    @Test func anotherFileUnderThePreferredNameGetsAFreeName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("a.jpg")
        try writeFile(file, [1])
        let into = folder.file("album")
        try Sys.makeDirectory(into)
        try writeFile(into.appending("a.jpg"), [1])  // the same bytes, another file
        let name = try NameAllocator.hardLink(file, into: into, preferred: BytePath("a.jpg"))
        #expect(name == BytePath("a-1.jpg"))
        #expect(try readFile(into.appending("a.jpg")) == [1])
    }

    @Test func aSymbolicLinkTriedAgainReusesTheNameThatPointsAtTheTarget() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let into = folder.file("album")
        try Sys.makeDirectory(into)
        let target = BytePath("../Roll/2023/12/a.jpg")
        let first = try NameAllocator.symbolicLink(to: target, into: into, preferred: BytePath("a.jpg"))
        let again = try NameAllocator.symbolicLink(to: target, into: into, preferred: BytePath("a.jpg"))
        let other = try NameAllocator.symbolicLink(
            to: BytePath("../Roll/2024/01/a.jpg"), into: into, preferred: BytePath("a.jpg"))
        #expect(first == again)
        #expect(other == BytePath("a-1.jpg"))
    }

    /// The candidates a name gives: itself first (leading dots dropped), then a
    /// number before an extension of up to 16 bytes, the stem cut to fit 255 bytes
    /// without splitting a character.
    @Test(arguments: [
        ("IMG_0001.jpg", 0, "IMG_0001.jpg"), ("IMG_0001.jpg", 2, "IMG_0001-2.jpg"),
        (".IMG_1.jpg", 0, "IMG_1.jpg"),
        ("..", 0, "unnamed"), ("..", 1, "unnamed-1"), ("README", 3, "README-3"), (".hidden", 1, "hidden-1"),
        ("a.verylongextension1", 1, "a.verylongextension1-1"), ("a.b.c", 1, "a.b-1.c"),
    ])
    func candidates(name: String, attempt: Int, expected: String) {
        #expect(NameAllocator.candidate(for: BytePath(name), attempt: attempt) == BytePath(expected))
    }

    @Test func aLongNameIsCutToFitWithoutSplittingACharacter() {
        let stem = String(repeating: "é", count: 200)  // 400 bytes
        let first = NameAllocator.candidate(for: BytePath(stem + ".jpg"), attempt: 0)
        let tenth = NameAllocator.candidate(for: BytePath(stem + ".jpg"), attempt: 10)
        #expect(first == BytePath(String(repeating: "é", count: 125) + ".jpg"))  // 250 + 4 bytes
        #expect(tenth == BytePath(String(repeating: "é", count: 124) + "-10.jpg"))  // 248 + 7 bytes
        #expect(first.isValidUTF8 && tenth.isValidUTF8)
    }
}
