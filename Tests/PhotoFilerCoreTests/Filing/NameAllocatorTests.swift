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
}
