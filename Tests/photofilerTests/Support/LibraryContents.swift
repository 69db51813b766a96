import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem
import TestSupport
import Testing

/// What a library holds, read the way a user sees it: files on disk (the Roll,
/// the albums) and the catalog through `photofiler list --json`.
struct LibraryContents {
    let library: BytePath

    var roll: BytePath { library.appending("Roll") }
    func album(_ name: String) -> BytePath { library.appending("Albums").appending(name) }

    /// Every regular file in the Roll, however deep.
    func rollFiles() -> [BytePath] { Self.files(below: roll) }

    /// The entries of an album (empty when it does not exist yet).
    func albumEntries(_ name: String) -> [BytePath] {
        let folder = album(name)
        return ((try? Sys.listDirectory(folder)) ?? []).map { folder.appending($0.name) }
    }

    /// The content hash of every roll file (one per file, repeats kept).
    func rollHashes() -> [String] { rollFiles().compactMap(Self.hash) }

    /// The content hash behind every album entry (hard links and symbolic links both read through).
    func albumHashes(_ name: String) -> [String] { albumEntries(name).compactMap(Self.hash) }

    /// `photofiler list --json` (every asset not deleted).
    func assets() throws -> [[String: Any]] {
        let result = try Binary.run("list", "--library", library.display, "--json")
        guard result.status == 0 else {
            throw ListFailure(message: "list exited \(result.status): \(result.stderr)")
        }
        return try #require(try result.json() as? [[String: Any]])
    }

    struct ListFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Checks photofiler(1)'s promise for a set of contents dropped into the inbox feeding
    /// `album`: each is in the Roll exactly once, linked once in the album, one
    /// catalog row each, and nothing else (no partial file, no second copy).
    func expectFiledOnce(
        _ hashes: Set<String>, album: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let roll = rollHashes()
        #expect(
            roll.count == hashes.count, "Roll holds \(roll.count) files, expected \(hashes.count)",
            sourceLocation: sourceLocation)
        #expect(
            Set(roll) == hashes, "Roll contents differ from what was dropped", sourceLocation: sourceLocation)
        let entries = albumHashes(album)
        #expect(
            entries.count == hashes.count,
            "album \(album) has \(entries.count) entries, expected \(hashes.count)",
            sourceLocation: sourceLocation)
        #expect(
            Set(entries) == hashes, "album \(album) contents differ from what was dropped",
            sourceLocation: sourceLocation)
        let rows = try assets()
        #expect(
            rows.count == hashes.count, "catalog lists \(rows.count) assets, expected \(hashes.count)",
            sourceLocation: sourceLocation)
        #expect(
            Set(rows.compactMap { $0["hash"] as? String }) == hashes, "catalog hashes differ",
            sourceLocation: sourceLocation)
        let outside = rows.filter { ($0["albums"] as? [String])?.contains(album) != true }
        #expect(
            outside.isEmpty, "\(outside.count) asset(s) not in the album \(album)",
            sourceLocation: sourceLocation)
    }

    // MARK: Files

    static func files(below folder: BytePath) -> [BytePath] { regularFiles(under: folder) }

    /// SHA-256 of a file's bytes (following a symbolic link), nil when unreadable.
    static func hash(_ path: BytePath) -> String? {
        // Follows a symbolic album entry to its roll file.
        guard let fd = try? Sys.open(path, flags: O_RDONLY | O_CLOEXEC) else { return nil }
        defer { fd.close() }
        return try? ContentHasher.hash(fd)
    }
}
