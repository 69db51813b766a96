import Foundation
import LivePhotoFixtures
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// A Live Photo pair made for one test: an iPhone still and its MOV carrying the
/// same content identifier, under the names an iPhone gives them.
struct LivePair {
    let identifier: String
    let still: [UInt8]
    let video: [UInt8]
    let stillName: String
    let videoName: String

    /// `number` names the files (`IMG_0001.JPG`, `IMG_0001.MOV`) and makes the bytes unique.
    init(
        number: Int, identifier: String = UUID().uuidString, taken: String = "2023:12:01 12:34:56",
        videoCreated: String = "2023-12-01T12:34:57+0100", in folder: TemporaryFolder
    ) throws {
        self.identifier = identifier
        let base = String(format: "IMG_%04d", number)
        stillName = base + ".JPG"
        videoName = base + ".MOV"
        still = try LivePhotoFixtures.appleStill(
            Pictures.uniqueJPEG(number, tag: "live"), contentIdentifier: identifier, taken: taken, in: folder)
        video = try LivePhotoFixtures.movie(
            contentIdentifier: identifier, created: videoCreated, variant: number, in: folder)
    }
}

extension TestLibrary {
    /// The one asset object whose `liveVideo` is set, from `list --json`.
    func liveAssets(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try list("--media", "live", sourceLocation: sourceLocation)
    }
}

/// What every Live Photo test checks of a library holding exactly one pair: one
/// asset of subtype `live` that keeps the still's bytes, the video beside it in the
/// Roll, both linked into each of `albums`, counted once.
func expectOneLivePhoto(
    in library: BytePath, pair: LivePair, albums: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws -> AssetID {
    let contents = LibraryContents(library: library)
    let assets = try listJSON(library, ["--media", "live"])
    try #require(assets.count == 1, "Live Photos: \(assets)", sourceLocation: sourceLocation)
    let asset = assets[0]
    let id = try #require(assetID(asset), sourceLocation: sourceLocation)
    #expect(asset["hash"] as? String == Pictures.sha256(pair.still), sourceLocation: sourceLocation)
    #expect((asset["subtypes"] as? [String])?.contains("live") == true, sourceLocation: sourceLocation)
    #expect(asset["mediaType"] as? String == "image", sourceLocation: sourceLocation)
    let video = try #require(asset["liveVideo"] as? [String: Any], sourceLocation: sourceLocation)
    #expect(video["embedded"] as? Bool == false, sourceLocation: sourceLocation)
    #expect((video["size"] as? NSNumber)?.intValue == pair.video.count, sourceLocation: sourceLocation)
    let stillPath = try #require(asset["path"] as? String, sourceLocation: sourceLocation)
    let videoPath = try #require(video["path"] as? String, sourceLocation: sourceLocation)
    #expect(
        BytePath(stillPath).parent == BytePath(videoPath).parent, "side by side",
        sourceLocation: sourceLocation)
    #expect(try readFile(BytePath(videoPath)) == pair.video, sourceLocation: sourceLocation)
    // The whole library: one still and one video in the Roll, one asset in all.
    #expect(contents.rollFiles().count == 2, "\(contents.rollFiles())", sourceLocation: sourceLocation)
    #expect(try listJSON(library, []).count == 1, sourceLocation: sourceLocation)
    #expect(try listJSON(library, ["--media", "video"]).isEmpty, sourceLocation: sourceLocation)
    #expect(try listJSON(library, ["--media", "image"]).count == 1, sourceLocation: sourceLocation)
    #expect(Set(asset["albums"] as? [String] ?? []) == Set(albums), sourceLocation: sourceLocation)
    for album in albums {
        let hashes = Set(contents.albumEntries(album).compactMap { try? entryBytes($0) }.map(Pictures.sha256))
        #expect(
            hashes == [Pictures.sha256(pair.still), Pictures.sha256(pair.video)], "album \(album)",
            sourceLocation: sourceLocation)
    }
    let summaries = try albumsJSON(library)
    for album in albums { #expect(summaries[album]?["count"] as? Int == 1, sourceLocation: sourceLocation) }
    #expect(summaries["Live Photos"]?["count"] as? Int == 1, sourceLocation: sourceLocation)
    #expect(summaries["Videos"]?["count"] as? Int == 0, sourceLocation: sourceLocation)
    // `info` of either file is this asset.
    for path in [stillPath, videoPath] {
        let info = try Binary.run("info", path, "--json", "--library", library.display)
        #expect(
            (try? info.json() as? [String: Any]).flatMap { assetID($0) } == id, "info \(path)",
            sourceLocation: sourceLocation)
    }
    return id
}

func listJSON(_ library: BytePath, _ extra: [String]) throws -> [[String: Any]] {
    let result = try Binary.run(
        (["list", "--json", "--library", library.display] + extra).map { BytePath($0) })
    return try #require(try result.json() as? [[String: Any]], "list: \(result.stderr)")
}

func albumsJSON(_ library: BytePath) throws -> [String: [String: Any]] {
    let result = try Binary.run("albums", "--json", "--library", library.display)
    let array = try #require(try result.json() as? [[String: Any]], "albums: \(result.stderr)")
    var byName: [String: [String: Any]] = [:]
    for album in array { byName[album["name"] as? String ?? ""] = album }
    return byName
}

/// The bytes an album entry stands for: a hard link's own, a symbolic link's target's.
func entryBytes(_ entry: BytePath) throws -> [UInt8] {
    guard try Sys.status(entry).isSymbolicLink else { return try readFile(entry) }
    let target = try Sys.readLink(entry)
    return try readFile(target.isAbsolute ? target : entry.parent.appending(target))
}
