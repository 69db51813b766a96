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
        try copyFile(Fixtures.corpus(file), to: destination)
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

extension TestLibrary {
    /// `saved` filed its one file, which cannot be decoded: one line says so, the
    /// asset has no thumbnail, and `thumb` fails with one sentence and writes nothing.
    func expectFiledWithoutThumbnail(
        _ saved: Binary.Result, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(saved.status == 0, "it is still filed: \(saved.stderr)", sourceLocation: sourceLocation)
        let lines = saved.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains("cannot be decoded for a thumbnail"), "\(saved.stderr)",
            sourceLocation: sourceLocation)
        let assets = try list(sourceLocation: sourceLocation)
        try #require(assets.count == 1, sourceLocation: sourceLocation)
        #expect(assets[0]["thumbnail"] is NSNull, sourceLocation: sourceLocation)
        let thumb = try run("thumb", String(try #require(assetID(assets[0]), sourceLocation: sourceLocation)))
        #expect(thumb.status == 1, sourceLocation: sourceLocation)
        #expect(thumb.stdoutBytes.isEmpty, sourceLocation: sourceLocation)
        #expect(
            thumb.stderr.split(separator: "\n").count == 1, "\(thumb.stderr)", sourceLocation: sourceLocation)
    }
}
