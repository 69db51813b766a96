import Foundation
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The shared test corpus and its MANIFEST.tsv, found from this file's location:
/// `../shared/corpus` beside the package root (the main checkout), or the same
/// further up (a worktree under `wt/`).
enum Corpus {
    static let directory: String? = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Media
        for _ in 0..<3 { folder.deleteLastPathComponent() }  // package root
        for _ in 0..<3 {
            let candidate = folder.deletingLastPathComponent().appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MANIFEST.tsv").path) {
                return candidate.path
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    static var isAvailable: Bool { directory != nil }
    static let skipReason: Comment = "the shared corpus (../shared/corpus with MANIFEST.tsv) is not present"

    struct Entry: Sendable, CustomTestStringConvertible {
        var file: String
        var dateTimeOriginal: String?
        var width: Int?
        var height: Int?
        var mimeType: String
        var bytes: Int64
        var sha256: String

        var testDescription: String { file }
    }

    /// MANIFEST.tsv's rows (tab-separated, a header line first).
    static let entries: [Entry] = {
        guard let directory,
            let text = try? String(contentsOfFile: directory + "/MANIFEST.tsv", encoding: .utf8)
        else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(
            String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        let (file, date, size, mime, bytes, hash) = (
            column("file"), column("exiftool_DateTimeOriginal"), column("exiftool_ImageSize"),
            column("exiftool_MIMEType"), column("bytes"), column("sha256")
        )
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let dimensions = fields[size].split(separator: "x").compactMap { Int($0) }
            return Entry(
                file: fields[file], dateTimeOriginal: fields[date] == "-" ? nil : fields[date],
                width: dimensions.count == 2 ? dimensions[0] : nil,
                height: dimensions.count == 2 ? dimensions[1] : nil,
                mimeType: fields[mime], bytes: Int64(fields[bytes])!, sha256: fields[hash])
        }
    }()

    static func path(_ file: String) -> BytePath { BytePath(directory! + "/" + file) }

    /// Opens `path` the way the filer does, reads it and looks for its end while hashing it.
    static func read(_ path: BytePath, with reader: MediaReader) throws -> MediaInfo {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let size = try fd.status().size
        let info = try reader.read(fd, path: path, size: size)
        var scan = EndMarkerScan(mimeType: info.mimeType)
        _ = try ContentCopier().hash(fd, path: path, scanning: &scan)
        try scan?.verify(path: path)
        return info
    }
}
