import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerFiling

/// The shard listings say what `stat`s of each asset's files said: made at both
/// sizes or marked undecodable is settled, anything else is pending, and a shard
/// that cannot be listed is asked file by file.
@Suite struct SettledThumbnailsTests {
    static func hash(_ digit: Character, shard: String = "ab") -> String {
        shard + String(repeating: digit, count: 62)
    }

    func touch(_ path: BytePath) throws {
        try Sys.makeDirectories(path.parent)
        let fd = try Sys.createExclusive(path, mode: 0o644)
        defer { fd.close() }
        try fd.writeAll(Array("jpeg".utf8))
    }

    @Test func listingsAgreeWithTheFiles() throws {
        let folder = try TemporaryFolder()
        let files = ThumbnailFiles(layout: LibraryLayout(root: folder.path))
        let made = Self.hash("1")
        let halfMade = Self.hash("2")
        let undecodable = Self.hash("3")
        let untouched = Self.hash("4")
        let otherShard = Self.hash("5", shard: "c0")
        for size in ThumbnailSize.allCases { try touch(files.path(hash: made, size: size)) }
        try touch(files.path(hash: halfMade, size: .grid))
        files.recordFailure(hash: undecodable, reason: "not a picture")
        for size in ThumbnailSize.allCases { try touch(files.path(hash: otherShard, size: size)) }

        let settled = SettledThumbnails(files: files)
        for (hash, pending) in [
            (made, false), (halfMade, true), (undecodable, false), (untouched, true), (otherShard, false),
        ] {
            #expect(try settled.isPending(hash: hash) == pending, "\(hash)")
            #expect(try files.isPending(hash: hash) == pending, "\(hash)")
        }
    }

    @Test func withoutAThumbnailFolderEverythingIsPending() throws {
        let folder = try TemporaryFolder()
        let files = ThumbnailFiles(layout: LibraryLayout(root: folder.path))
        #expect(try SettledThumbnails(files: files).isPending(hash: Self.hash("1")))
    }

    /// A shard that is not a folder (it cannot be listed) is asked file by file.
    @Test func aShardThatCannotBeListedIsAskedFileByFile() throws {
        let folder = try TemporaryFolder()
        let files = ThumbnailFiles(layout: LibraryLayout(root: folder.path))
        let made = Self.hash("1", shard: "c0")
        for size in ThumbnailSize.allCases { try touch(files.path(hash: made, size: size)) }
        try touch(files.folder.appending("ab"))  // a file where a shard folder would be
        let settled = SettledThumbnails(files: files)
        #expect(try !settled.isPending(hash: made))
        #expect(try settled.isPending(hash: Self.hash("2")))
    }
}
