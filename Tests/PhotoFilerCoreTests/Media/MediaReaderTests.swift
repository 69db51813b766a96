import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerFiling
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

@Suite
struct MediaReaderTests {
    /// Expected subtypes; every other good file has none.
    static let subtypes: [String: [String]] = [
        "throbber.gif": ["animated"], "IMG_2908.PNG": ["screenshot"],
        "screenshot-really-a-png.jpeg": ["screenshot"],
        "DNG.dng": ["raw"],
    ]
    /// Display sizes where orientation or rotation turns the stored pixels.
    static let displaySizes: [String: (Int, Int)] = [
        "Landscape_6.jpg": (1800, 1200), "Landscape_8.jpg": (1800, 1200), "Landscape_1.jpg": (1800, 1200),
        "IMG_1064.jpeg": (3024, 4032), "IMG_3539.MOV": (1080, 1920),
    ]

    static var goodFiles: [CorpusManifest.Entry] {
        CorpusManifest.entries.filter { !$0.file.hasPrefix("bad/") }
    }

    @Test(arguments: goodFiles)
    func readsCorpusFile(entry: CorpusManifest.Entry) throws {
        let reader = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt)
        let info = try Corpus.read(Corpus.path(entry.file), with: reader)
        #expect(info.mimeType == entry.mimeType)
        #expect(info.mediaType == (entry.mimeType.hasPrefix("video/") ? .video : .image))
        #expect(info.pixelWidth == entry.width)
        #expect(info.pixelHeight == entry.height)
        #expect(info.subtypes == Self.subtypes[entry.file, default: []])
        if let (width, height) = Self.displaySizes[entry.file] {
            #expect(info.displayWidth == width)
            #expect(info.displayHeight == height)
        }
        if let text = entry.dateTimeOriginal {
            // The reader reads wall times in UTC here, so the wall time is the instant plus its offset.
            let expected = try #require(CaptureDates.fromExif(text, offset: nil, timeZone: .gmt))
            let date = try #require(info.embeddedDate)
            #expect(date.source == .exif)
            #expect(date.secondsSinceEpoch + Int64(date.utcOffsetSeconds ?? 0) == expected.secondsSinceEpoch)
        }
        #expect(info.frameCount == (entry.file == "throbber.gif" ? 8 : 1))
    }

    /// The light helper's reader (no decoders) gives the full reader's answer for
    /// every file exiv2 can read alone, and hands on the rest, naming the library.
    @Test func aReaderWithoutDecodersReadsWhatExiv2CanAndHandsOnTheRest() throws {
        let full = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt)
        let light = try MediaReader(decoders: nil, timeZone: .gmt)
        let handedOn: [String: String] = [
            "IMG_2908.PNG": "libvips", "screenshot-really-a-png.jpeg": "libvips", "throbber.gif": "libvips",
            "IMG_3539.MOV": "libavformat", "with-gps.mp4": "libavformat",
            // No EXIF orientation: shown as its `irot` turns it, which only libheif reads.
            "libheif_example.heic": "libheif",
        ]
        for entry in Self.goodFiles {
            let path = Corpus.path(entry.file)
            let expected = try Corpus.read(path, with: full)
            let answer: Result<MediaInfo, MediaError>
            do {
                answer = .success(try Corpus.read(path, with: light))
            } catch let error as MediaError {
                answer = .failure(error)
            }
            if let library = handedOn[entry.file] {
                #expect(answer == .failure(.needsDecoders(path: path, library: library)), "\(entry.file)")
            } else {
                #expect(answer == .success(expected), "\(entry.file)")
            }
        }
    }

    /// A HEIF that states no EXIF orientation is shown as its `irot` (and `imir`)
    /// turn it: its size is libheif's, not the stored `ispe` that exiv2 reads.
    @Test func aTurnedHEIFWithoutExifOrientationHasItsShownSize() throws {
        let full = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt)
        let light = try MediaReader(decoders: nil, timeZone: .gmt)
        for name in ["grid-turned.heic", "grid-turned-mirrored.heic"] {
            let path = Fixtures.root.appending("heif-orientation").appending(name)
            let info = try Corpus.read(path, with: full)
            #expect(info.pixelWidth == 1024, "\(name)")
            #expect(info.pixelHeight == 768, "\(name)")
            #expect(info.orientation == 1, "\(name)")
            #expect(throws: MediaError.needsDecoders(path: path, library: "libheif")) {
                try Corpus.read(path, with: light)
            }
        }
        // An iPhone's HEIC states its orientation: read by the light reader as before.
        let iPhone = Corpus.path("IMG_2682.heic")
        #expect(try Corpus.read(iPhone, with: light) == (try Corpus.read(iPhone, with: full)))
    }

    /// AVIF (photofiler(1) "Content decides"), without EXIF as the web's are: the light reader
    /// hands it on, and libheif gives its size.
    @Test func anAVIFIsAnImageOfItsSize() throws {
        let full = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt)
        let light = try MediaReader(decoders: nil, timeZone: .gmt)
        let path = Fixtures.root.appending("avif").appending("landscape.avif")
        let info = try Corpus.read(path, with: full)
        #expect(info.mimeType == "image/avif")
        #expect(info.mediaType == .image)
        #expect(info.pixelWidth == 320)
        #expect(info.pixelHeight == 213)
        #expect(throws: MediaError.needsDecoders(path: path, library: "libheif")) {
            try Corpus.read(path, with: light)
        }
    }

    @Test func videosCarryDurationAndContainerDate() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt)
        let mov = try Corpus.read(Corpus.path("IMG_3539.MOV"), with: reader)
        // QuickTime's own creationdate wins, with its offset: 2016-01-18 15:20:40-07:00.
        #expect(
            mov.embeddedDate
                == CaptureDate(
                    secondsSinceEpoch: 1_453_155_640, utcOffsetSeconds: -25_200, source: .container))
        #expect(mov.orientation == 6)
        #expect(abs((mov.duration ?? 0) - 0.57) < 0.05)
        let mp4 = try Corpus.read(Corpus.path("with-gps.mp4"), with: reader)
        // creation_time is UTC with no offset of its own: 2017-02-22T08:20:28Z.
        #expect(
            mp4.embeddedDate
                == CaptureDate(secondsSinceEpoch: 1_487_751_628, utcOffsetSeconds: nil, source: .container))
        #expect(mp4.orientation == 1)
        #expect(mp4.duration != nil)
    }

    @Test func refusesBrokenFiles() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        func failure(_ file: String) -> MediaError? {
            do {
                _ = try Corpus.read(Corpus.path(file), with: reader)
                return nil
            } catch let error as MediaError {
                return error
            } catch {
                Issue.record("unexpected error \(error)")
                return nil
            }
        }
        #expect(
            failure("bad/truncated_half.jpg")
                == .truncated(path: Corpus.path("bad/truncated_half.jpg"), format: "JPEG"))
        #expect(failure("bad/x.jpg") == .empty(path: Corpus.path("bad/x.jpg")))
        #expect(failure("bad/y.jpg") == .notMedia(path: Corpus.path("bad/y.jpg"), detected: "text/plain"))
        // Messages name the file.
        #expect(failure("bad/y.jpg")?.description.contains("y.jpg") == true)
    }

    /// photofiler(1) "Thumbnails": a file that cannot be decoded is still filed. A PNG whose
    /// chunk CRC is wrong is read as a PNG of unknown size (libvips refuses its header).
    @Test func aDamagedPNGIsReadAsAPictureOfUnknownSize() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        let info = try Corpus.read(Corpus.path("bad/bad_crc.png"), with: reader)
        #expect(info.mediaType == .image)
        #expect(info.mimeType == "image/png")
        #expect(info.pixelWidth == 0 && info.pixelHeight == 0)
        #expect(info.embeddedDate == nil)
    }

    @Test func truncatedCopiesOfGoodFilesAreRefused() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        let folder = try TemporaryFolder()
        for file in [
            "Landscape_1.jpg", "IMG_2908.PNG", "throbber.gif", "denali.webp", "IMG_2682.heic", "with-gps.mp4",
        ] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path(file).display))
            let cut = folder.path.appending("cut-" + file)
            try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut.display))
            do {
                _ = try Corpus.read(cut, with: reader)
                Issue.record("\(file) cut to two thirds was read")
            } catch let error as MediaError {
                guard case .truncated = error else {
                    Issue.record("\(file) cut to two thirds: \(error)")
                    continue
                }
            }
        }
    }

    @Test func trailerAfterJPEGEndIsAccepted() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        let folder = try TemporaryFolder()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("Landscape_1.jpg").display))
        bytes.append(contentsOf: Array("SEFT".utf8) + [UInt8](repeating: 7, count: 3000))
        let path = folder.path.appending("with-trailer.jpg")
        try bytes.write(to: URL(fileURLWithPath: path.display))
        #expect(try Corpus.read(path, with: reader).pixelWidth == 1800)
    }

    /// A JPEG with an XMP APP1 announcing a video, and 200 KB of "video" after its EOI.
    static func motionPhoto(xmpKey: String) throws -> Data {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("Landscape_1.jpg").display))
        let video = Data([0, 0, 0, 16] + Array("ftypmp42".utf8) + [0, 0, 0, 0]) + Data(count: 200_000)
        let xml: String
        if xmpKey == "MicroVideoOffset" {
            xml =
                "<x:xmpmeta><rdf:Description GCamera:MicroVideo=\"1\" GCamera:MicroVideoOffset=\"\(video.count)\"/></x:xmpmeta>"
        } else {
            xml =
                "<x:xmpmeta><Container:Item Item:Mime=\"image/jpeg\" Item:Semantic=\"Primary\" Item:Length=\"0\"/>"
                + "<Container:Item Item:Mime=\"video/mp4\" Item:Semantic=\"MotionPhoto\" Item:Length=\"\(video.count)\"/></x:xmpmeta>"
        }
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xml.utf8)
        let length = payload.count + 2
        var result = Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        result.append(jpeg.dropFirst(2))
        result.append(video)
        return result
    }

    @Test(arguments: ["MicroVideoOffset", "Container"])
    func motionPhotoWithVideoAfterEOIIsAccepted(xmpKey: String) throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        let folder = try TemporaryFolder()
        let bytes = try Self.motionPhoto(xmpKey: xmpKey)
        let whole = folder.path.appending("PXL_20231201_123456789.MP.jpg")
        try bytes.write(to: URL(fileURLWithPath: whole.display))
        #expect(try Corpus.read(whole, with: reader).pixelWidth == 1800)
        // Its still is whole whatever follows the still's end (photofiler(1) "Complete files only").
        let cutVideo = folder.path.appending("cut-video.MP.jpg")
        try bytes.dropLast(1000).write(to: URL(fileURLWithPath: cutVideo.display))
        #expect(try Corpus.read(cutVideo, with: reader).pixelWidth == 1800)
        let cut = folder.path.appending("cut.MP.jpg")
        try bytes.prefix(bytes.count / 10).write(to: URL(fileURLWithPath: cut.display))
        #expect(throws: MediaError.truncated(path: cut, format: "JPEG")) {
            try Corpus.read(cut, with: reader)
        }
    }

    @Test func nonUTF8NameReadsFine() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        let folder = try TemporaryFolder()
        let name = BytePath(bytes: Array("Screenshot_caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let path = folder.path.appending(name)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("Landscape_6.jpg").display))
        let fd = try Sys.createExclusive(path)
        try bytes.withUnsafeBytes { try fd.writeAll($0) }
        fd.close()
        let info = try Corpus.read(path, with: reader)
        #expect(info.mimeType == "image/jpeg")
        #expect(info.displayWidth == 1800)
        #expect(info.subtypes == ["screenshot"])  // from the name
    }

    @Test(arguments: CorpusManifest.entries)
    func hashMatchesManifest(entry: CorpusManifest.Entry) throws {
        let fd = try Sys.openForReading(Corpus.path(entry.file))
        defer { fd.close() }
        #expect(try ContentHasher.hash(fd) == entry.sha256)
    }

    @Test func hashOfKnownVectors() {
        let abc = Array("abc".utf8).withUnsafeBytes { ContentHasher.hash($0) }
        #expect(abc == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        var streamed = ContentHasher()
        for part in ["a", "b", "c"] { Array(part.utf8).withUnsafeBytes { streamed.update($0) } }
        #expect(streamed.finalize() == abc)
    }

    /// Not a pass/fail test: prints the per-file cost on the corpus for the report.
    @Test func measuresReadTime() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders())
        let files = Self.goodFiles.map { Corpus.path($0.file) }
        _ = try files.map { try Corpus.read($0, with: reader) }  // warm the page cache and libraries
        let rounds = 20
        let clock = ContinuousClock()
        var perFile: [String: Duration] = [:]
        for path in files {
            let elapsed = try clock.measure {
                for _ in 0..<rounds { _ = try Corpus.read(path, with: reader) }
            }
            perFile[path.lastComponent.display] = elapsed / rounds
        }
        let total = perFile.values.reduce(Duration.zero, +)
        for (file, duration) in perFile.sorted(by: { $0.key < $1.key }) {
            print("read \(file): \(duration.formatted(.units(allowed: [.microseconds], width: .narrow)))")
        }
        print(
            "read mean per file: \((total / files.count).formatted(.units(allowed: [.microseconds], width: .narrow)))"
        )
    }
}

@Suite(.serialized)
struct MediaReaderDetailTests {
    @Test func xmpDateCountsWhenExifHasNone() throws {
        let reader = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt)
        let info = try Corpus.read(Corpus.path("IMG_2908.PNG"), with: reader)
        // XMP photoshop:DateCreated 2015:09:27 16:29:28, read as a UTC wall time here.
        #expect(info.embeddedDate == CaptureDate(secondsSinceEpoch: 1_443_371_368, source: .exif))
    }

    @Test func libraryMessagesGoToTheSink() throws {
        let messages = Mutex<[String]>([])
        MediaLibraryLog.setSink { message in messages.withLock { $0.append(message) } }
        defer { MediaLibraryLog.setSink(nil) }
        let reader = try MediaReader(decoders: try LibraryDecoders())
        for entry in CorpusManifest.entries {
            _ = try? Corpus.read(Corpus.path(entry.file), with: reader)
        }
        // bad_crc.png makes libpng complain through libvips' GLib domain.
        #expect(messages.withLock { $0 }.contains { $0.hasPrefix("VIPS: ") && $0.contains("CRC error") })
    }
}
