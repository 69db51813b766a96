import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// One library in a temporary folder, driven only through the built binary, with
/// an `inputs` folder beside it for the files a test saves.
final class TestLibrary {
    let folder: TemporaryFolder
    let root: BytePath
    let inputs: BytePath

    init() throws {
        folder = try TemporaryFolder()
        root = folder.file("library")
        inputs = folder.file("inputs")
        try Sys.makeDirectory(inputs)
    }

    /// `photofiler ARGS… --library ROOT`.
    func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Binary.Result {
        try run(bytes: arguments.map { BytePath($0) }, environment: environment)
    }

    func run(bytes arguments: [BytePath], environment: [String: String] = [:]) throws -> Binary.Result {
        try Binary.run(arguments + [BytePath("--library"), root], environment: environment)
    }

    /// `save [--album NAME] EXTRA… FILES…`, which must succeed; the printed ids.
    @discardableResult
    func save(
        _ files: [BytePath], album: String? = nil, extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [AssetID] {
        var arguments: [BytePath] = [BytePath("save")]
        if let album { arguments += [BytePath("--album"), BytePath(album)] }
        arguments += extra.map { BytePath($0) } + files
        let result = try run(bytes: arguments)
        try #require(result.status == 0, "save failed: \(result.stderr)", sourceLocation: sourceLocation)
        return result.stdout.split(separator: "\n").compactMap { AssetID($0) }
    }

    /// `list --json EXTRA…` as an array of asset objects.
    func list(_ extra: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]]
    {
        let result = try run(bytes: ([BytePath("list"), BytePath("--json")] + extra.map { BytePath($0) }))
        try #require(result.status == 0, "list failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try #require(try result.json() as? [[String: Any]], sourceLocation: sourceLocation)
    }

    /// `info REFERENCE --json` as one object.
    func info(_ reference: BytePath, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String:
        Any]
    {
        let result = try run(bytes: [BytePath("info"), reference, BytePath("--json")])
        try #require(result.status == 0, "info failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try #require(try result.json() as? [String: Any], sourceLocation: sourceLocation)
    }

    /// `albums --json`, by name.
    func albums(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: [String: Any]] {
        let result = try run("albums", "--json")
        try #require(result.status == 0, "albums failed: \(result.stderr)", sourceLocation: sourceLocation)
        let array = try #require(try result.json() as? [[String: Any]], sourceLocation: sourceLocation)
        var byName: [String: [String: Any]] = [:]
        for album in array { byName[album["name"] as? String ?? ""] = album }
        return byName
    }

    /// A copy of a corpus file in `inputs` (under `name`, else its own name).
    func input(corpus file: String, as name: String? = nil) throws -> BytePath {
        let destination = inputs.appending(name ?? BytePath(file).lastComponent.display)
        try copyFile(Binary.corpus.appending(file), to: destination)
        return destination
    }

    /// A file in `inputs` with the given bytes.
    func input(bytes: [UInt8], name: BytePath) throws -> BytePath {
        let destination = inputs.appending(name)
        try writeFile(destination, bytes)
        return destination
    }

    var catalog: BytePath { root.appending(".photofiler/catalog.sqlite") }
    func album(_ name: String) -> BytePath { root.appending("Albums").appending(name) }

    /// Every regular file under `Roll/`, absolute.
    func rollFiles() throws -> [BytePath] { try Self.files(under: root.appending("Roll")) }

    /// The entries of an album folder (names), empty when it does not exist.
    func entries(ofAlbum name: String) throws -> [BytePath] {
        guard (try? Sys.status(album(name))) != nil else { return [] }
        return try Sys.listDirectory(album(name)).map(\.name).sorted()
    }

    /// Regular files below `folder`, recursively (symbolic links are not followed).
    static func files(under folder: BytePath) throws -> [BytePath] { regularFiles(under: folder) }
}

/// The id of an asset object from `list`/`info --json`.
func assetID(_ object: [String: Any]) -> AssetID? {
    (object["id"] as? NSNumber)?.int64Value
}

/// Decodes a base64 field to bytes.
func base64Bytes(_ value: Any?) -> [UInt8]? {
    guard let text = value as? String, let data = Data(base64Encoded: text) else { return nil }
    return Array(data)
}

/// MANIFEST.tsv of the shared corpus, as the end-to-end tests need it.
enum Manifest {
    struct Entry: Sendable, CustomTestStringConvertible {
        var file: String
        var mimeType: String
        var dateTimeOriginal: String?
        /// Stored pixels, as exiftool reports them.
        var width: Int?
        var height: Int?
        /// EXIF orientation named in the notes ("Orientation 6"), else 1.
        var orientation: Int
        /// Video rotation named in the notes ("rotation 90"), else 0.
        var rotation: Int
        var bytes: Int64
        var sha256: String

        var isBad: Bool { file.hasPrefix("bad/") }
        var testDescription: String { file }

        /// Width and height as displayed: orientation 5–8 and a quarter-turn rotation swap them.
        var displaySize: (Int, Int)? {
            guard let width, let height else { return nil }
            let swaps = (5...8).contains(orientation) || rotation % 180 == 90
            return swaps ? (height, width) : (width, height)
        }
    }

    static let entries: [Entry] = {
        guard let bytes = try? readFile(Binary.corpus.appending("MANIFEST.tsv")) else { return [] }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(
            String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name) ?? 0 }
        let file = column("file"), notes = column("special_for"), date = column("exiftool_DateTimeOriginal")
        let size = column("exiftool_ImageSize"), mime = column("exiftool_MIMEType")
        let count = column("bytes"), hash = column("sha256"), declared = column("media_type")
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
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

    static var good: [Entry] { entries.filter { !$0.isBad } }
    static var bad: [Entry] { entries.filter(\.isBad) }
    static func entry(_ file: String) -> Entry? { entries.first { $0.file == file } }

    private static func number(after marker: String, in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        return Int(text[range.upperBound...].prefix(while: \.isNumber))
    }
}

/// Whether the corpus is present (the tests that need it are skipped otherwise).
let corpusMissing: Comment = "the shared corpus (../shared/corpus/MANIFEST.tsv) is not present"
