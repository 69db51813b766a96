import PhotoFilerSystem
import Testing

/// The rows of `Tests/Fixtures/videos/MANIFEST.tsv` (tab-separated, a header line first).
public enum VideoCorpus {
    public struct Entry: Sendable, CustomTestStringConvertible {
        public var file: String
        /// What the file models, for messages.
        public var models: String
        /// The size a player shows (rotation and pixel aspect applied); nil for a file
        /// with no picture.
        public var shown: (width: Int, height: Int)?

        public var path: BytePath { Fixtures.video(file) }
        public var testDescription: String { file }
    }

    public static let entries: [Entry] = {
        let manifest = Fixtures.video("MANIFEST.tsv")
        let bytes: [UInt8]
        do {
            bytes = try readFile(manifest)
        } catch {
            fatalError("The video corpus is missing: \(error). It belongs at '\(manifest.display)'.")
        }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        let header = lines.removeFirst().split(separator: "\t").map(String.init)
        guard let file = header.firstIndex(of: "file"), let models = header.firstIndex(of: "models"),
            let shown = header.firstIndex(of: "shown")
        else { fatalError("'\(manifest.display)' lacks a file, models or shown column.") }
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let size = fields[shown].split(separator: "x").compactMap { Int($0) }
            return Entry(
                file: fields[file], models: fields[models],
                shown: size.count == 2 ? (size[0], size[1]) : nil)
        }
    }()
}
