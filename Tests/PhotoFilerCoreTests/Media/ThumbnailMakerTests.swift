import Foundation
import PhotoFilerGLib
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerFiling
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The thumbnail maker on the real corpus: sizes as displayed, upright, real
/// content, right colours. The bytes it returns are decoded again to check them.
@Suite
struct ThumbnailMakerTests {
    static var goodFiles: [CorpusManifest.Entry] { CorpusManifest.good }

    /// Makes `renditions` of a corpus file the way the library does: the reader's
    /// description picks the source.
    static func make(_ file: String, _ renditions: [ThumbnailRendition]) throws -> (
        MediaInfo, [EncodedThumbnail]
    ) {
        let path = Corpus.path(file)
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let size = try fd.status().size
        let info = try MediaReader(decoders: try LibraryDecoders(), timeZone: .gmt).read(
            fd, path: path, size: size)
        let request = ThumbnailRequest(source: .init(info), renditions: renditions)
        return (info, try ThumbnailMaker().make(fd, size: size, request))
    }

    static func grid(_ file: String) throws -> DecodedPicture {
        try DecodedPicture(try make(file, [.jpeg(256)]).1[0].bytes)
    }

    @Test(arguments: goodFiles)
    func sizeAndAspectAreTheDisplayedOnes(entry: CorpusManifest.Entry) throws {
        let (info, made) = try Self.make(entry.file, [.jpeg(1024), .jpeg(256)])
        try #require(made.count == 2)
        for (edge, thumbnail) in zip([1024, 256], made) {
            let decoded = try DecodedPicture(thumbnail.bytes)
            #expect(decoded.width == thumbnail.width && decoded.height == thumbnail.height)
            if entry.file == "DNG.dng" {
                // Its camera previews are stubs but an 8×8 thumbnail (MANIFEST): that one is used.
                #expect((decoded.width, decoded.height) == (8, 8))
                continue
            }
            let (width, height) = (info.displayWidth, info.displayHeight)
            // Never enlarged: the longest edge is the rendition's, or the picture's own.
            #expect(max(decoded.width, decoded.height) == min(edge, max(width, height)))
            // The displayed aspect, to the rounding of one pixel.
            #expect(abs(decoded.width * height - decoded.height * width) <= max(width, height))
        }
    }

    @Test func orientationsSixAndEightComeOutUpright() throws {
        let upright = try Self.grid("Landscape_1.jpg")
        for file in ["Landscape_6.jpg", "Landscape_8.jpg"] {
            let turned = try Self.grid(file)
            #expect((turned.width, turned.height) == (upright.width, upright.height))
            // The same picture, not a rotated or mirrored one (those differ by ~40 per sample).
            #expect(turned.difference(from: upright) < 6, "\(file)")
        }
    }

    @Test func theRotatedVideoIsPortrait() throws {
        let frame = try Self.grid("IMG_3539.MOV")
        #expect((frame.width, frame.height) == (144, 256))
        #expect(frame.contrast > 10)
    }

    @Test(arguments: ["IMG_2682.heic", "libheif_example.heic"])
    func heicsDecodeWithRealContent(file: String) throws {
        let picture = try Self.grid(file)
        #expect(picture.contrast > 20, "a blank or flat picture: \(picture.contrast)")
        let mean = picture.meanColour
        #expect(mean.allSatisfy { $0 > 10 && $0 < 245 }, "\(mean)")
    }

    @Test func theCMYKJPEGHasTheColoursOfItsRGBTwin() throws {
        // Both are the same frame of the same Go test video: one CMYK (no ICC profile,
        // so libvips' built-in press profile converts it: about [118, 81, 78]), one RGB
        // (about [144, 95, 71]); the press profile renders it a little duller. CMYK
        // taken as RGB, or inverted, is far off: about [12, 92, 114].
        let cmyk = try Self.grid("cmyk_go_video-001.jpeg").meanColour
        let rgb = try Self.grid("progressive_go_video-001.jpeg").meanColour
        for band in 0..<3 {
            #expect(abs(cmyk[band] - rgb[band]) < 30, "CMYK \(cmyk) against RGB \(rgb)")
        }
        #expect(cmyk[0] > cmyk[1] && cmyk[1] > cmyk[2], "the frame is red-brown: \(cmyk)")
    }

    @Test func desktopPNGsAreRGBAWithTheirTextChunks() throws {
        let text = [
            PNGText(key: "Thumb::URI", value: "file:///x/y.jpg"), PNGText(key: "Thumb::MTime", value: "12"),
        ]
        let (_, made) = try Self.make(
            "Landscape_6.jpg", [ThumbnailRendition(edge: 128, encoding: .png(text: text))])
        let png = try DecodedPicture(
            made[0].bytes, metadata: ["png-comment-0-Thumb::URI", "png-comment-1-Thumb::MTime"])
        #expect(Array(made[0].bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect((png.width, png.height, png.bands) == (128, 85, 4))
        #expect(png.strings["png-comment-0-Thumb::URI"] == "file:///x/y.jpg")
        #expect(png.strings["png-comment-1-Thumb::MTime"] == "12")
    }

    @Test func anAnimationGivesItsFirstFrame() throws {
        let frame = try Self.grid("throbber.gif")
        #expect((frame.width, frame.height) == (32, 32))
    }

    @Test func bytesThatDoNotDecodeAreAFailureNotACrash() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder.file("noise"), Array(repeating: 0x42, count: 4096))
        let fd = try Sys.openForReading(folder.file("noise"))
        defer { fd.close() }
        #expect(throws: ThumbnailFailure.self) {
            try ThumbnailMaker().make(
                fd, size: 4096, ThumbnailRequest(source: .image, renditions: [.jpeg(256)]))
        }
        #expect(throws: ThumbnailFailure.self) {
            try ThumbnailMaker().make(
                fd, size: 4096, ThumbnailRequest(source: .video(rotation: 0), renditions: [.jpeg(256)]))
        }
        #expect(throws: ThumbnailFailure.self) {
            try ThumbnailMaker().make(
                fd, size: 4096,
                ThumbnailRequest(source: .cameraPreview(orientation: 1), renditions: [.jpeg(256)]))
        }
    }

    /// A picture only an unfuzzed loader reads (a PGM: libvips' `ppmload`; likewise
    /// ImageMagick's, poppler's) is refused, not decoded, even as the source `.image`.
    @Test func loadersLibvipsDoesNotFuzzAreRefused() throws {
        let folder = try TemporaryFolder()
        try writeFile(folder.file("grey.pgm"), Array("P5\n2 2\n255\n".utf8) + [0, 64, 128, 255])
        let fd = try Sys.openForReading(folder.file("grey.pgm"))
        defer { fd.close() }
        #expect(throws: ThumbnailFailure.self) {
            try ThumbnailMaker().make(
                fd, size: 15, ThumbnailRequest(source: .image, renditions: [.jpeg(256)]))
        }
    }

    @Test func fileURIsAreGLibs() {
        #expect(FileURI.of("/tmp/a b/é#?.jpg") == "file:///tmp/a%20b/%C3%A9%23%3F.jpg")
        #expect(FileURI.of(BytePath(bytes: Array("/tmp/caf".utf8) + [0xE9])) == "file:///tmp/caf%E9")
        #expect(FileURI.of("relative") == nil)
    }
}
