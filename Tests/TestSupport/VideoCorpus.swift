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
        let manifest = ManifestTable(Fixtures.video("MANIFEST.tsv"))
        let file = manifest.column("file"), models = manifest.column("models"),
            shown = manifest.column("shown")
        return manifest.rows.map { fields in
            let size = fields[shown].split(separator: "x").compactMap { Int($0) }
            return Entry(
                file: fields[file], models: fields[models],
                shown: size.count == 2 ? (size[0], size[1]) : nil)
        }
    }()
}
