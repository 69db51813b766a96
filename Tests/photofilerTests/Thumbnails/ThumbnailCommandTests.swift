import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerGLib
import PhotoFilerSystem
import TestSupport
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerMedia

/// Thumbnails through the built binary: `save` makes them after filing, `thumb`
/// writes them, the desktop's cache gets its entries, JSON shows the paths.
@Suite
struct ThumbnailCommandTests {
    /// Sizes as displayed where orientation or rotation turns the stored pixels.
    static let displayed: [String: (Int, Int)] = [
        "Landscape_6.jpg": (1800, 1200), "Landscape_8.jpg": (1800, 1200), "IMG_1064.jpeg": (3024, 4032),
        "IMG_3539.MOV": (1080, 1920),
    ]

    /// One library with the good corpus saved into the album Camera, its own desktop cache.
    final class Saved {
        let library: TestLibrary
        let cache: BytePath
        let assets: [[String: Any]]
        /// What `save` said (a thumbnail that could not be made is one line here).
        let stderr: String
        var environment: [String: String] { ["XDG_CACHE_HOME": cache.display] }

        /// `hiDPI`: the cache has `x-large/` and `xx-large/` before, as Dolphin on a screen
        /// scaled 2× or more makes them.
        init(_ files: [String], hiDPI: Bool = false) throws {
            library = try TestLibrary()
            cache = library.folder.file("cache")
            for folder in hiDPI ? ["x-large", "xx-large"] : [] {
                try Sys.makeDirectories(cache.appending("thumbnails").appending(folder), mode: 0o700)
            }
            let saved = try library.run(
                bytes: ["save", "--album", "Camera"] + files.map { Fixtures.corpus($0) },
                environment: ["XDG_CACHE_HOME": library.folder.file("cache").display])
            try #require(saved.status == 0, "\(saved.stderr)")
            stderr = saved.stderr
            assets = try library.list()
        }

        func asset(_ name: String) throws -> [String: Any] {
            try #require(assets.first { $0["originalName"] as? String == name }, "\(name) is not listed")
        }

        func thumb(_ arguments: String...) throws -> Binary.Result {
            try library.run(bytes: (["thumb"] + arguments).map { BytePath($0) }, environment: environment)
        }
    }

    @Test func everyCorpusFileHasThumbnailsOfItsDisplayedSize() throws {
        let files = CorpusManifest.good.map(\.file)
        let saved = try Saved(files)
        #expect(saved.assets.count == files.count)
        for asset in saved.assets {
            let name = asset["originalName"] as? String ?? ""
            let path = try #require(
                asset["thumbnail"] as? String, "\(name) has no thumbnail; save said: \(saved.stderr)")
            #expect(path.hasSuffix("-256.jpg") && path.contains("/.photofiler/thumbnails/"))
            #expect(try readFile(BytePath(path)).starts(with: [0xFF, 0xD8, 0xFF]))
            let id = String(try #require(assetID(asset)))
            for edge in [256, 1024] {
                let output = saved.library.folder.file("\(id)-\(edge).png")
                let result = try saved.thumb(id, "--size", String(edge), "-o", output.display)
                try #require(result.status == 0, "\(name): \(result.stderr)")
                let png = try PNGFile(try readFile(output))
                if name == "DNG.dng" {
                    // Its camera previews are stubs but an 8×8 thumbnail (MANIFEST): that one is used.
                    #expect((png.width, png.height) == (8, 8))
                    continue
                }
                let (width, height) =
                    Self.displayed[name] ?? (asset["width"] as! Int, asset["height"] as! Int)
                #expect(max(png.width, png.height) == min(edge, max(width, height)), "\(name) at \(edge)")
                #expect(abs(png.width * height - png.height * width) <= max(width, height), "\(name) aspect")
            }
        }
    }

    /// Both paths of an asset get their entries, each with its own URI, the file's
    /// time and size: `normal` and `large` always, `x-large` and `xx-large` where a
    /// file manager has made their folders (it reads them).
    @Test(arguments: [false, true]) func desktopEntriesForTheRollFileAndTheAlbumEntry(hiDPI: Bool) throws {
        let saved = try Saved(["Landscape_6.jpg"], hiDPI: hiDPI)
        let asset = try saved.asset("Landscape_6.jpg")
        let rollFile = BytePath(try #require(asset["path"] as? String))
        let entry = saved.library.album("Camera").appending("Landscape_6.jpg")
        let size = try Sys.status(rollFile, followLinks: true)
        let root = saved.cache.appending("thumbnails")
        #expect(try Sys.status(root).mode & 0o777 == 0o700)
        for path in [rollFile, entry] {
            let uri = "file://" + path.display
            #expect(FileURI.of(path) == uri)
            for (folder, edge) in [("normal", 128), ("large", 256), ("x-large", 512), ("xx-large", 1024)] {
                let file = root.appending(folder).appending(FileURIDigest.md5(uri) + ".png")
                guard hiDPI || edge <= 256 else {
                    #expect(try Sys.statusIfExists(file) == nil, "\(folder) is made where it is read")
                    continue
                }
                let status = try #require(try Sys.statusIfExists(file), "no \(folder) thumbnail of \(uri)")
                #expect(status.mode & 0o777 == 0o600)
                #expect(try Sys.status(file.parent).mode & 0o777 == 0o700)
                let png = try PNGFile(try readFile(file))
                // 1800×1200 shown: 3:2, to the rounding of a pixel.
                #expect(png.width == edge && png.bands == 4, "\(folder)")
                #expect(abs(png.height * 3 - edge * 2) <= 3, "\(folder): \(png.height)")
                #expect(png.text["Thumb::URI"] == uri)
                #expect(png.text["Thumb::MTime"] == String(size.modificationNanoseconds / 1_000_000_000))
                #expect(png.text["Thumb::Size"] == String(size.size))
            }
        }
    }

    /// A Live Photo's paired video is a file in the Roll and the album too: the
    /// desktop's cache gets entries for it (the still's picture, the video's own
    /// URI, time and size), so a file manager shows it without decoding.
    @Test func desktopEntriesForALivePhotosVideo() throws {
        let library = try TestLibrary()
        let cache = library.folder.file("cache")
        let pair = try LivePair(number: 31, in: library.folder)
        let inputs = [
            try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
            try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
        ]
        let saved = try library.run(
            bytes: ["save", "--album", "Camera"] + inputs, environment: ["XDG_CACHE_HOME": cache.display])
        try #require(saved.status == 0, "\(saved.stderr)")
        let asset = try #require(try library.list().first)
        let video = BytePath(try #require((asset["liveVideo"] as? [String: Any])?["path"] as? String))
        for path in [video, library.album("Camera").appending(BytePath(pair.videoName))] {
            let uri = try #require(FileURI.of(path))
            let file = cache.appending("thumbnails").appending("large").appending(
                FileURIDigest.md5(uri) + ".png")
            let png = try PNGFile(try readFile(file))
            #expect(png.width == 256 || png.height == 256, "\(uri)")
            #expect(png.text["Thumb::URI"] == uri)
            #expect(png.text["Thumb::Size"] == String(pair.video.count))
        }
    }

    @Test func desktopThumbnailsCanBeTurnedOff() throws {
        let library = try TestLibrary()
        let config = library.folder.file("photofiler.conf")
        try writeFile(config, Array("[library]\ndesktop-thumbnails = false\n".utf8))
        let cache = library.folder.file("cache")
        let saved = try library.run(
            bytes: ["save", "--config", config, Fixtures.corpus("Landscape_1.jpg")],
            environment: ["XDG_CACHE_HOME": cache.display])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try Sys.statusIfExists(cache.appending("thumbnails")) == nil)
        #expect(try library.list().first?["thumbnail"] is String)
        let bad = try library.run(
            bytes: ["save", "--config", config, Fixtures.corpus("Landscape_1.jpg")],
            environment: ["XDG_CACHE_HOME": cache.display])
        #expect(bad.status == 0)
        try writeFile(config, Array("[library]\ndesktop-thumbnails = maybe\n".utf8))
        let refused = try library.run(bytes: ["list", "--config", config])
        #expect(refused.status == 2, "\(refused.stderr)")
    }

    @Test func thumbWritesToStdoutJPEGAndPNG() throws {
        let saved = try Saved(["IMG_1064.jpeg"])
        let id = String(try #require(assetID(try saved.asset("IMG_1064.jpeg"))))
        let stdout = try saved.thumb(id)
        #expect(stdout.status == 0, "\(stdout.stderr)")
        #expect(stdout.stdoutBytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let dash = try saved.thumb(id, "-o", "-")
        #expect(dash.stdoutBytes == stdout.stdoutBytes)
        let jpeg = saved.library.folder.file("t.jpg")
        #expect(try saved.thumb(id, "--size", "1024", "-o", jpeg.display).status == 0)
        #expect(try readFile(jpeg).starts(with: [0xFF, 0xD8, 0xFF]))
        let png = saved.library.folder.file("t.png")
        #expect(try saved.thumb(id, "-o", png.display).status == 0)
        let picture = try PNGFile(try readFile(png))
        #expect((picture.width, picture.height) == (192, 256))
        // By path, as info takes it: the album entry.
        let byPath = try saved.thumb(saved.library.album("Camera").appending("IMG_1064.jpeg").display)
        #expect(byPath.stdoutBytes == stdout.stdoutBytes)
        #expect(try saved.thumb(id, "--size", "512").status == 2)
    }

    @Test func anUndecodableFileIsFiledWithoutAThumbnail() throws {
        let library = try TestLibrary()
        // A HEIC whose picture data is zeroed: its boxes and metadata are intact, so
        // it is filed, but libheif cannot decode it.
        var bytes = try readFile(Fixtures.corpus("libheif_example.heic"))
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8 else { break }
            if bytes[offset + 4..<offset + 8].elementsEqual("mdat".utf8) {
                for index in offset + 8..<min(offset + size, bytes.count) { bytes[index] = 0 }
            }
            offset += size
        }
        let input = try library.input(bytes: bytes, name: "broken.heic")
        let cache = library.folder.file("cache")
        let saved = try library.run(bytes: ["save", input], environment: ["XDG_CACHE_HOME": cache.display])
        try library.expectFiledWithoutThumbnail(saved)
        #expect(try library.run("thumb", "--all").status == 0)
    }

    @Test func thumbAllMakesWhatIsMissing() throws {
        let saved = try Saved(["Landscape_1.jpg", "with-gps.mp4"])
        let thumbnails = saved.library.root.appending(".photofiler/thumbnails")
        let before = regularFiles(under: thumbnails).count
        #expect(before == 4)
        for file in regularFiles(under: thumbnails) { try Sys.unlink(file) }
        let all = try saved.thumb("--all")
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stderr.contains("Thumbnails: 2/2"))
        #expect(regularFiles(under: thumbnails).count == before)
        #expect(try saved.library.albums()["Camera"]?["coverThumbnail"] is String)
        #expect(try saved.library.albums()["Favorites"]?["coverThumbnail"] is NSNull)
    }

    /// Thumbnails that could not be written are a failure of the work (exit 1),
    /// not a success that made nothing.
    @Test func thumbAllExitsOneWhenNothingCanBeWritten() throws {
        let saved = try Saved(["Landscape_1.jpg"])
        let thumbnails = saved.library.root.appending(".photofiler/thumbnails")
        TemporaryFolder.removeTree(thumbnails)
        try writeFile(thumbnails, Array("not a folder\n".utf8))
        let all = try saved.thumb("--all")
        #expect(all.status == 1, "\(all.stderr)")
        #expect(all.stderr.contains("1 failed for another reason"), "\(all.stderr)")
    }

    /// An asset in Recently Deleted is shown there: its thumbnail is made from its
    /// Recently Deleted file when missing.
    @Test func aDeletedAssetGetsItsThumbnailFromRecentlyDeleted() throws {
        let saved = try Saved(["Landscape_1.jpg"])
        let id = String(try #require(assetID(try saved.asset("Landscape_1.jpg"))))
        #expect(try saved.library.run("rm", id).status == 0)
        let thumbnails = saved.library.root.appending(".photofiler/thumbnails")
        for file in regularFiles(under: thumbnails) { try Sys.unlink(file) }
        let thumb = try saved.thumb(id)
        #expect(thumb.status == 0, "\(thumb.stderr)")
        #expect(thumb.stdoutBytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let deleted = try #require(try saved.library.albums()["Recently Deleted"])
        #expect(deleted["coverThumbnail"] is String, "\(deleted)")
    }

    /// A roll file put in by hand and adopted by `check --repair` gets its thumbnails
    /// then, as a saved file does (a daemon's queue would not hear of it).
    @Test func anAdoptedRollFileGetsItsThumbnails() throws {
        let saved = try Saved(["Landscape_1.jpg"])
        let month = try #require(try saved.library.rollFiles().first).parent
        try copyFile(Fixtures.corpus("Landscape_6.jpg"), to: month.appending("by-hand.jpg"))
        let repair = try saved.library.run(
            bytes: ["check", "--repair"], environment: saved.environment)
        #expect(repair.status == 0, "\(repair.stderr)")
        let adopted = try #require(
            try saved.library.list().first { $0["originalName"] as? String == "by-hand.jpg" })
        #expect(adopted["thumbnail"] is String, "\(adopted)")
    }

    /// A roll file rewritten by hand: `check --repair` records its new content, and
    /// the thumbnails follow it (the old content's go, the new content's are made).
    @Test func repairedContentHasTheThumbnailsOfItsNewBytes() throws {
        let saved = try Saved(["Landscape_1.jpg"])
        let oldHash = try #require(try saved.asset("Landscape_1.jpg")["hash"] as? String)
        let rollFile = try #require(try saved.library.rollFiles().first)
        try writeFile(rollFile, try readFile(Fixtures.corpus("Landscape_6.jpg")))
        let newHash = try sha256(of: rollFile)
        let repair = try saved.library.run(bytes: ["check", "--repair"], environment: saved.environment)
        #expect(repair.status == 0, "\(repair.stderr)")
        let thumbnails = saved.library.root.appending(".photofiler/thumbnails")
        let names = regularFiles(under: thumbnails).map(\.lastComponent.display)
        #expect(!names.contains { $0.hasPrefix(oldHash) }, "\(names)")
        #expect(names.filter { $0.hasPrefix(newHash) }.count == 2, "\(names)")
    }
}
