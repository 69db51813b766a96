import PhotoFilerSystem
import Testing

/// The rows of the corpus's MANIFEST.tsv (tab-separated, a header line first), as
/// both test targets read them.
///
/// A manifest that cannot be read stops the test run with the reason: an empty
/// list would turn every test that takes its rows as arguments into no test at all.
public enum CorpusManifest {
    public struct Entry: Sendable, CustomTestStringConvertible {
        public var file: String
        /// exiftool's MIME type, else the one the manifest declares (`inode/x-empty`).
        public var mimeType: String
        /// exiftool's `DateTimeOriginal`, as it prints it; nil when the file has none.
        public var dateTimeOriginal: String?
        /// Stored pixels, as exiftool reports them.
        public var width: Int?
        public var height: Int?
        /// EXIF orientation named in the notes ("Orientation 6"), else 1.
        public var orientation: Int
        /// Video rotation named in the notes ("rotation 90"), else 0.
        public var rotation: Int
        public var bytes: Int64
        public var sha256: String

        /// One of the broken files under `bad/`.
        public var isBad: Bool { file.hasPrefix("bad/") }
        public var path: BytePath { Fixtures.corpus(file) }
        public var testDescription: String { file }

        /// Width and height as displayed: orientation 5–8 and a quarter-turn rotation swap them.
        public var displaySize: (Int, Int)? {
            guard let width, let height else { return nil }
            let swaps = (5...8).contains(orientation) || rotation % 180 == 90
            return swaps ? (height, width) : (width, height)
        }
    }

    public static let entries: [Entry] = {
        let manifest = ManifestTable(Fixtures.corpus("MANIFEST.tsv"))
        let column = manifest.column
        let file = column("file"), notes = column("special_for"), date = column("exiftool_DateTimeOriginal")
        let size = column("exiftool_ImageSize"), mime = column("exiftool_MIMEType")
        let count = column("bytes"), hash = column("sha256"), declared = column("media_type")
        return manifest.rows.map { fields in
            let dimensions = fields[size].split(separator: "x").compactMap { Int($0) }
            return Entry(
                file: fields[file], mimeType: fields[mime] == "-" ? fields[declared] : fields[mime],
                dateTimeOriginal: fields[date] == "-" ? nil : fields[date],
                width: dimensions.count == 2 ? dimensions[0] : nil,
                height: dimensions.count == 2 ? dimensions[1] : nil,
                orientation: number(after: "Orientation ", in: fields[notes]) ?? 1,
                rotation: number(after: "rotation ", in: fields[notes]) ?? 0,
                bytes: Int64(fields[count]) ?? -1, sha256: fields[hash])
        }
    }()

    public static var good: [Entry] { entries.filter { !$0.isBad } }
    public static var bad: [Entry] { entries.filter(\.isBad) }
    public static func entry(_ file: String) -> Entry? { entries.first { $0.file == file } }

    private static func number(after marker: String, in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        return Int(text[range.upperBound...].prefix(while: \.isNumber))
    }
}
