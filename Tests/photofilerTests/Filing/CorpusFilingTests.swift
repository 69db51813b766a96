import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// The whole corpus saved into one album, then read back with `list --json` and
/// `albums --json`, field by field against MANIFEST.tsv.
@Suite
struct CorpusFilingTests {
    /// A zone with an offset, so that "the machine's zone" is visible in `created`.
    static let environment = ["TZ": "Asia/Shanghai"]
    static let subtypes: [String: [String]] = [
        "throbber.gif": ["animated"], "IMG_2908.PNG": ["screenshot"],
        "screenshot-really-a-png.jpeg": ["screenshot"],
        "DNG.dng": ["raw"],
    ]
    /// Dates that come from a video container rather than EXIF, as photofiler(1) JSON shows them.
    static let containerDates: [String: String] = [
        // QuickTime's own creationdate carries its offset.
        "IMG_3539.MOV": "2016-01-18T15:20:40-07:00",
        // An MP4 creation time is UTC, shown in the machine's zone (+08:00 here).
        "with-gps.mp4": "2017-02-22T16:20:28+08:00",
    ]
    static let specFields = [
        "id", "path", "albums", "mediaType", "subtypes", "created", "added", "width", "height", "orientation",
        "size",
        "hash", "originalName", "favorite",
    ]

    @Test func everyGoodFileIsOneAssetWithItsManifestFields() throws {
        let library = try TestLibrary()
        let entries = CorpusManifest.good
        try #require(entries.count >= 16)
        let files = entries.map { Fixtures.corpus($0.file) }
        let saved = try library.run(
            bytes: ["save", "--album", "Camera"] + files, environment: Self.environment)
        #expect(saved.status == 0, "\(saved.stderr)")
        let ids = saved.stdout.split(separator: "\n").compactMap { AssetID($0) }
        #expect(ids.count == entries.count)
        #expect(Set(ids).count == entries.count, "every file is its own asset")

        let listed = try library.run("list", "--json", environment: Self.environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        let assets = try #require(try listed.json() as? [[String: Any]])
        #expect(assets.count == entries.count)
        let byName = Dictionary(
            assets.map { ($0["originalName"] as? String ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
        let rollRoot = library.root.appending("Roll").display + "/"

        for (index, entry) in entries.enumerated() {
            let asset = try #require(byName[entry.file], "\(entry.file) is listed")
            for field in Self.specFields {
                #expect(asset[field] != nil, "\(entry.file): field \(field) is present")
            }
            #expect(assetID(asset) == ids[index], "\(entry.file): id as printed by save")
            let isVideo = entry.mimeType.hasPrefix("video/")
            #expect(asset["mediaType"] as? String == (isVideo ? "video" : "image"), "\(entry.file)")
            #expect(asset["mimeType"] as? String == entry.mimeType, "\(entry.file)")
            let (width, height) = try #require(entry.displaySize)
            #expect(asset["width"] as? Int == width, "\(entry.file): displayed width")
            #expect(asset["height"] as? Int == height, "\(entry.file): displayed height")
            // photofiler(1) JSON: the EXIF value, 1 when absent (a video has none); a video's
            // turn is `rotation`.
            #expect(asset["orientation"] as? Int == entry.orientation, "\(entry.file)")
            if isVideo { #expect(asset["rotation"] as? Int == entry.rotation, "\(entry.file)") }
            #expect((asset["size"] as? NSNumber)?.int64Value == entry.bytes, "\(entry.file)")
            #expect(asset["hash"] as? String == entry.sha256, "\(entry.file)")
            #expect(asset["albums"] as? [String] == ["Camera"], "\(entry.file)")
            #expect(asset["subtypes"] as? [String] == Self.subtypes[entry.file, default: []], "\(entry.file)")
            #expect(asset["favorite"] as? Bool == false, "\(entry.file)")
            #expect(
                asset["pathBase64"] == nil && asset["originalNameBase64"] == nil,
                "UTF-8 names carry no base64")

            let created = try #require(asset["created"] as? String)
            #expect(
                created.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d/) != nil, "\(created)")
            if let original = entry.dateTimeOriginal {
                // No offset in EXIF: the wall time, in the machine's zone.
                #expect(created == Self.iso8601(exif: original) + "+08:00", "\(entry.file)")
            }
            if let expected = Self.containerDates[entry.file] {
                #expect(created == expected, "\(entry.file)")
            }
            let added = try #require(asset["added"] as? String)
            #expect(added.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(added)")

            let path = try #require(asset["path"] as? String)
            let folder = "\(created.prefix(4))/\(created.dropFirst(5).prefix(2))/"
            #expect(
                path == rollRoot + folder + entry.file,
                "\(entry.file): filed by capture date under its own name")
            #expect(
                try sha256(of: BytePath(path)) == entry.sha256, "\(entry.file): the roll file holds the bytes"
            )
        }
        #expect(try library.rollFiles().count == entries.count, "one roll file per asset")
        #expect(try library.entries(ofAlbum: "Camera").count == entries.count, "one album entry per asset")

        // albums --json right after the save.
        let albums = try library.albums()
        #expect(albums.count == 16, "one user album and fifteen smart ones: \(albums.keys.sorted())")
        let camera = try #require(albums["Camera"])
        #expect(camera["kind"] as? String == "user")
        #expect(camera["count"] as? Int == entries.count)
        #expect((camera["cover"] as? NSNumber)?.int64Value == ids.last, "the cover is the newest added")
        #expect(camera["path"] as? String == library.album("Camera").display)
        func id(of file: String) -> AssetID? { entries.firstIndex { $0.file == file }.map { ids[$0] } }
        let smart: [(String, Int, AssetID?)] = [
            ("Videos", 2, id(of: "with-gps.mp4")), ("Animated", 1, id(of: "throbber.gif")),
            ("Screenshots", 2, id(of: "screenshot-really-a-png.jpeg")),
            ("Recently Added", entries.count, ids.last),
            ("Favorites", 0, nil), ("Recently Deleted", 0, nil), ("Live Photos", 0, nil),
        ]
        for (name, count, cover) in smart {
            let album = try #require(albums[name], "smart album \(name)")
            #expect(album["kind"] as? String == "smart", "\(name)")
            #expect(album["count"] as? Int == count, "\(name)")
            #expect(
                album.keys.contains("cover") && album.keys.contains("path"),
                "\(name): cover and path are always there")
            #expect(album["path"] is NSNull, "\(name): a smart album has no folder")
            if let cover {
                #expect((album["cover"] as? NSNumber)?.int64Value == cover, "\(name)")
            } else {
                #expect(album["cover"] is NSNull, "\(name): no cover when empty")
            }
        }

        // list's options on the same library.
        let videos = try library.list("--media", "video")
        #expect(Set(videos.compactMap { $0["originalName"] as? String }) == ["IMG_3539.MOV", "with-gps.mp4"])
        #expect(try library.list("--media", "image").count == entries.count - 2)
        let limited = try library.list("--limit", "3")
        #expect(limited.compactMap(assetID) == Array(ids.reversed().prefix(3)), "newest added first")
        #expect(try library.list("--limit", "0").isEmpty)
        let byCreated = try library.list("--sort", "created")
        let createdDates = byCreated.compactMap { ($0["created"] as? String).flatMap(Self.instant) }
        #expect(createdDates.count == entries.count)
        #expect(createdDates == createdDates.sorted(by: >), "newest capture first")
        #expect(byCreated.last?["originalName"] as? String == "DNG.dng", "2005 is the oldest capture")
        let screenshots = try library.list("--album", "Screenshots")
        #expect(
            Set(screenshots.compactMap { $0["originalName"] as? String }) == [
                "IMG_2908.PNG", "screenshot-really-a-png.jpeg",
            ])
    }

    /// `2019:03:21 11:04:22` → `2019-03-21T11:04:22`.
    static func iso8601(exif: String) -> String {
        var characters = Array(exif)
        (characters[4], characters[7], characters[10]) = ("-", "-", "T")
        return String(characters)
    }

    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)
    }
}
