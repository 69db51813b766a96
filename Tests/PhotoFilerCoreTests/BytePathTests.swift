import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

@Suite struct BytePathTests {
    @Test func keepsNonUTF8BytesAndShowsReplacement() {
        let path = BytePath(bytes: Array("/tmp/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(!path.isValidUTF8)
        #expect(path.display == "/tmp/caf\u{FFFD}.jpg")
        #expect(path.lastComponent.bytes == Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        #expect(path.extensionLowercased == "jpg")
    }

    @Test(arguments: [
        ("/lib/Roll/2023/12/a.jpg", "/lib/Albums/QQ", "../../Roll/2023/12/a.jpg"),
        ("/lib/Roll/a.jpg", "/lib/Roll", "a.jpg"),
        ("/x/y", "/a/b/c", "../../../x/y"),
    ])
    func relativePaths(target: String, base: String, expected: String) {
        #expect(BytePath(target).relative(from: BytePath(base)) == BytePath(expected))
    }

    /// Equality goes eight bytes at a time from the end: a difference at any place,
    /// in the 8-byte words or the bytes before them, is seen; equal bytes are equal.
    @Test func equalityComparesEveryByte() {
        for length in 0...20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ 65) }
            #expect(BytePath(bytes: bytes) == BytePath(bytes: bytes))
            #expect(BytePath(bytes: bytes) != BytePath(bytes: bytes + [0]), "a longer path differs")
            for place in 0..<length {
                var other = bytes
                other[place] ^= 0x01
                #expect(BytePath(bytes: bytes) != BytePath(bytes: other), "length \(length), byte \(place)")
            }
        }
    }

    @Test func parentsAndAppending() {
        #expect(BytePath("/a/b/c").parent == "/a/b")
        #expect(BytePath("/a").parent == "/")
        #expect(BytePath("a").parent == ".")
        #expect(BytePath("/a/").appending("b") == "/a/b")
        #expect(BytePath("/a/b/c").isWithin("/a/b"))
        #expect(!BytePath("/a/bc").isWithin("/a/b"))
        #expect(BytePath("/a/b").isWithin("/a/b/"))
        #expect(BytePath("/a/b/").isWithin("/a/b"))
        #expect(BytePath("/x").isWithin("/"))
        #expect(BytePath("/a//b/c").isWithin("/a/b"))
        #expect(!BytePath("/a").isWithin("/a/b"))
        #expect(!BytePath("/ab/c").isWithin("/a"))
        #expect(BytePath("/").isWithin("/"))
        #expect(BytePath("/a/b").isWithin("/a//b/"))
    }

    /// The ranges name the same bytes as `components`, for every spelling.
    @Test(arguments: ["", "/", "//", "a", "/a", "a/", "/a/b/c.jpg", "//a//b//", "./a/../b", "/.x/y"])
    func componentRangesAreTheComponents(spelling: String) {
        let path = BytePath(spelling)
        #expect(path.componentRanges.map { BytePath(bytes: path.bytes[$0]) } == path.components)
    }

    /// The last component and where it lies, for every spelling (a trailing `/` left out).
    @Test(arguments: [
        ("", ""), ("/", ""), ("a", "a"), ("/a", "a"), ("a/", "a"), ("/a/b/c.jpg", "c.jpg"), ("/a/b/", "b"),
        ("//a//b", "b"),
    ])
    func lastComponents(spelling: String, expected: String) {
        let path = BytePath(spelling)
        #expect(path.lastComponent == BytePath(expected))
        #expect(BytePath(bytes: path.bytes[path.lastComponentRange]) == BytePath(expected))
    }

    /// The NUL-terminated copy holds the bytes as they are, for a short path (on the
    /// stack) and for one longer than a page (on the heap).
    @Test(arguments: [0, 1, 7, 255, 4_096, 70_000])
    func cStringsHoldTheBytes(length: Int) {
        let path = BytePath(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 % 254 + 1) })
        let copied = path.withCString { BytePath(cString: $0) }
        #expect(copied == path)
    }

    /// A path spelled normally comes back as it is (the filing path's shortcut); any
    /// other is rebuilt: `.` dropped, `..` resolved, empty components and trailing
    /// slashes gone.
    @Test(arguments: [
        ("/lib/Roll/2023/12/a.jpg", "/lib/Roll/2023/12/a.jpg"),
        ("/", "/"), ("a/b", "a/b"), ("/a/...", "/a/..."), ("/a/.b", "/a/.b"), ("/a/b..", "/a/b.."),
        ("", "."), ("//", "/"), ("/a/", "/a"), ("//a", "/a"), ("a//b", "a/b"), ("/a/./b", "/a/b"),
        ("/a/../b", "/b"), ("./a", "a"), ("..", "."), ("/a/b/.", "/a/b"), ("/a/b/..", "/a"),
    ])
    func normalizedSpellings(spelling: String, expected: String) {
        #expect(LibraryLayout.normalize(BytePath(spelling)) == BytePath(expected))
    }
}

@Suite struct AlbumNameTests {
    @Test func normalisesToNFC() throws {
        let decomposed = "Cafe\u{301}"
        let name = try AlbumName(validating: decomposed)
        #expect(name.value == "Caf\u{E9}")
        #expect(name == (try AlbumName(validating: "Caf\u{E9}")))
    }

    @Test(arguments: ["", ".", "..", "a/b", "a\0b", String(repeating: "x", count: 256)])
    func refusesUnsafeNames(_ raw: String) {
        #expect(throws: AlbumName.Problem.self) { try AlbumName(validating: raw) }
    }
}
