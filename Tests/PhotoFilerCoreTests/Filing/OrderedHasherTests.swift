import CCrypto
import Foundation
import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerFiling

/// `check` hashes roll files on every core: every file gets its own result, in the
/// order given, whichever worker read it, and a difference is found wherever it is.
@Suite
struct OrderedHasherTests {
    /// Files of sizes around the buffer's (a short read, an exact fill, a second read).
    static func makeFiles(in folder: TemporaryFolder, count: Int, bufferSize: Int) throws -> [[UInt8]] {
        try (0..<count).map { index in
            let size = [0, 1, bufferSize - 1, bufferSize, bufferSize + 1, 3 * bufferSize + 7][index % 6]
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            try writeFile(folder.file("f\(index)"), bytes)
            return bytes
        }
    }

    static func hash(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { ContentHasher.hash($0) } }

    @Test func everyFileHasItsResultInTheOrderGiven() throws {
        let folder = try TemporaryFolder()
        let contents = try Self.makeFiles(in: folder, count: 600, bufferSize: 64)
        let directory = try Sys.openDirectory(folder.path)
        defer { directory.close() }
        // A missing file's failure stays at its own place.
        let names = (0..<600).map { BytePath("f\($0)") } + [BytePath("gone")]
        let jobs = names.map { OrderedHasher.Job(folder: directory, name: $0) }

        let many = OrderedHasher(workers: 4, bufferSize: 64).hash(jobs)
        let one = OrderedHasher(workers: 1, bufferSize: 64).hash(jobs)
        #expect(many.count == jobs.count)
        for (index, bytes) in contents.enumerated() {
            let hashed = try many[index].get()
            #expect(hashed.hash == Self.hash(bytes), "file \(index)")
            #expect(hashed.size == Int64(bytes.count), "file \(index)")
            #expect(hashed.inode == (try Sys.status(folder.file("f\(index)"))).inode)
            #expect(try one[index].get() == hashed, "the same result with one worker")
        }
        guard case .failure(let error) = many.last else {
            Issue.record("a missing file has no hash")
            return
        }
        #expect(error.errno == .noSuchFile)
    }

    @Test func aBatchRunsWhileTheNextIsPrepared() throws {
        let folder = try TemporaryFolder()
        let contents = try Self.makeFiles(in: folder, count: 60, bufferSize: 64)
        let directory = try Sys.openDirectory(folder.path)
        defer { directory.close() }
        let hasher = OrderedHasher(workers: 2, bufferSize: 64)
        #expect(hasher.collect().isEmpty, "nothing submitted, nothing to collect")
        var hashes: [String] = []
        for start in stride(from: 0, to: 60, by: 25) {
            let batch = (start..<min(start + 25, 60)).map {
                OrderedHasher.Job(folder: directory, name: BytePath("f\($0)"))
            }
            hasher.submit(batch)
            hashes += try hasher.collect().map { try $0.get().hash }
        }
        #expect(hashes == contents.map(Self.hash))
    }

    /// Through the whole `check`: thousands of assets over folders, batches and
    /// workers; changed bytes anywhere are found, listed in asset order, every time.
    @Test func checkFindsEveryWrongHashInAStableOrder() throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
        let catalog = library.catalog
        let album = try catalog.createAlbum(name: "QQ", folderName: BytePath("QQ"), at: 0)
        try Sys.makeDirectories(library.layout.albums.appending("QQ"))
        var ids: [AssetID] = []
        // One transaction: a commit per row would make this test slow, not the check.
        try catalog.transaction {
            for index in 0..<5_000 {
                let relative = BytePath("Roll/2020/\(String(format: "%02d", index % 3 + 1))/a\(index).jpg")
                ids.append(
                    try placeAsset(
                        Array("ordered hasher asset \(index)\n".utf8), at: relative,
                        entry: BytePath("a\(index).jpg"),
                        album: album, in: library))
            }
        }
        #expect(try library.check(repair: false).differences.isEmpty)

        // The first, one in the middle of a batch, one across a batch boundary, the last.
        let changed = [0, 2_047, 4_095, 4_096, 4_999]
        for index in changed {
            let relative = BytePath("Roll/2020/\(String(format: "%02d", index % 3 + 1))/a\(index).jpg")
            // In place: the album's hard link still shares the file.
            let file = try Sys.openOrCreate(library.layout.absolute(relative))
            defer { file.close() }
            try Array("changed".utf8).withUnsafeBytes { try file.writeAll($0) }
        }
        let first = try library.check(repair: false).differences
        let second = try library.check(repair: false).differences
        #expect(first == second, "the same list every time")
        let wrong = first.compactMap { difference -> AssetID? in
            guard case .wrongHash(let asset, _, _, _) = difference else { return nil }
            return asset
        }
        #expect(wrong == changed.map { ids[$0] }.sorted())
        #expect(first.count == changed.count, "\(first)")
    }
}
