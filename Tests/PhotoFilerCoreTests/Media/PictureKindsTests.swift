import Foundation
import LivePhotoFixtures
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The phone's kinds of pictures: each rule as rows of tag values in, kinds out;
/// the readers of the tags that no library names; and files tagged as phones tag them.
@Suite struct PictureKindsTests {
    typealias Signals = PictureKinds.Signals

    struct Row: Sendable, CustomStringConvertible {
        var description: String
        var signals: Signals
        var kind: PictureKinds.MediaTypeKind = .still
        var width = 4032
        var height = 3024
        var screenshot = false
        var expected: Set<String>
    }

    static func signals(_ change: (inout Signals) -> Void) -> Signals {
        var signals = Signals()
        change(&signals)
        return signals
    }

    static let rows: [Row] = [
        Row(description: "a phone's normal photo", signals: Signals(), expected: []),
        Row(
            description: "GPano projection", signals: signals { $0.panoramaProjection = "equirectangular" },
            expected: ["panorama"]),
        Row(
            description: "GPano viewer", signals: signals { $0.usePanoramaViewer = "True" },
            expected: ["panorama"]),
        Row(
            description: "GPano viewer false", signals: signals { $0.usePanoramaViewer = "False" },
            expected: []),
        Row(description: "wide shape", signals: Signals(), width: 8000, height: 2000, expected: ["panorama"]),
        Row(
            description: "2:1 at 2000 px", signals: Signals(), width: 2000, height: 1000,
            expected: ["panorama"]),
        Row(description: "wide but small", signals: Signals(), width: 1999, height: 900, expected: []),
        Row(description: "not wide enough", signals: Signals(), width: 4000, height: 2001, expected: []),
        Row(
            description: "a wide screenshot", signals: Signals(), width: 2532, height: 1170, screenshot: true,
            expected: []),
        Row(
            description: "a GPano packet in a screenshot", signals: signals { $0.panoramaProjection = "x" },
            screenshot: true, expected: []),
        Row(
            description: "a wide animation", signals: Signals(), kind: .animation, width: 4000, height: 500,
            expected: []),
        Row(description: "front camera", signals: signals { $0.frontFacingCamera = 1 }, expected: ["selfie"]),
        Row(description: "back camera", signals: signals { $0.frontFacingCamera = 0 }, expected: []),
        Row(
            description: "front lens",
            signals: signals { $0.lensModel = "iPhone 15 FRONT camera 2.69mm f/1.9" },
            expected: ["selfie"]),
        Row(
            description: "back lens",
            signals: signals { $0.lensModel = "iPhone 15 back camera 6.86mm f/1.78" },
            expected: []),
        Row(
            description: "Portrait mode", signals: signals { $0.imageCaptureType = 2 }, expected: ["portrait"]
        ),
        Row(
            description: "a photo's capture type", signals: signals { $0.imageCaptureType = 10 }, expected: []
        ),
        Row(
            description: "depth image",
            signals: signals { $0.auxiliaryTypes = ["urn:mpeg:hevc:2015:auxid:2"] },
            expected: ["portrait"]),
        Row(
            description: "portrait matte",
            signals: signals { $0.auxiliaryTypes = ["urn:com:apple:photo:2018:aux:portraiteffectsmatte"] },
            expected: ["portrait"]),
        Row(
            description: "HDR gain map",
            signals: signals { $0.auxiliaryTypes = ["urn:com:apple:photo:2020:aux:hdrgainmap"] }, expected: []
        ),
        Row(
            description: "Google depth map",
            signals: signals {
                $0.depthFormat = "RangeInverse"
                $0.hasDepthData = true
            }, expected: ["portrait"]),
        Row(
            description: "GDepth format without data", signals: signals { $0.depthFormat = "RangeInverse" },
            expected: []),
        Row(
            description: "Apple burst",
            signals: signals { $0.burstID = "6E2F7E0B-2C43-4C07-A4E0-5F1B8A1C2D3E" },
            expected: ["burst"]),
        Row(
            description: "burst id of 10,000 bytes",
            signals: signals { $0.burstID = String(repeating: "A", count: 10_000) },
            expected: []),
        Row(description: "burst id with a space", signals: signals { $0.burstID = "a b" }, expected: []),
        Row(
            description: "Android slow motion",
            signals: signals {
                $0.captureFrameRate = 240
                $0.frameRate = 30
            }, kind: .video, expected: ["slomo"]),
        Row(
            description: "Android time-lapse",
            signals: signals {
                $0.captureFrameRate = 2
                $0.frameRate = 30
            }, kind: .video, expected: ["timelapse"]),
        Row(
            description: "Android normal speed",
            signals: signals {
                $0.captureFrameRate = 30
                $0.frameRate = 30
            }, kind: .video, expected: []),
        Row(
            description: "iPhone slo-mo intent",
            signals: signals {
                $0.playbackIntent = 0
                $0.frameRate = 240
            }, kind: .video, expected: ["slomo"]),
        Row(
            description: "iPhone normal intent",
            signals: signals {
                $0.playbackIntent = 1
                $0.frameRate = 30
            }, kind: .video, expected: []),
        Row(
            description: "a 120 fps stream", signals: signals { $0.frameRate = 120 }, kind: .video,
            expected: ["slomo"]),
        Row(
            description: "a huge frame rate", signals: signals { $0.frameRate = 1e300 }, kind: .video,
            expected: []),
        Row(
            description: "a negative capture rate",
            signals: signals {
                $0.captureFrameRate = -240
                $0.frameRate = 30
            }, kind: .video, expected: []),
        Row(
            description: "a NaN capture rate",
            signals: signals {
                $0.captureFrameRate = .nan
                $0.frameRate = 30
            }, kind: .video, expected: []),
        Row(
            description: "a still's tags on a video", signals: signals { $0.frontFacingCamera = 1 },
            kind: .video,
            expected: []),
    ]

    @Test(arguments: rows)
    func ruleDecides(_ row: Row) {
        let kinds = PictureKinds.subtypes(
            row.signals, mediaType: row.kind, displayWidth: row.width, displayHeight: row.height,
            isScreenshot: row.screenshot)
        #expect(kinds == row.expected, "\(row)")
    }

    // MARK: The Apple MakerNote's tags

    /// A MakerNote as an iPhone lays it out, with the entries given (tag, type, count, value).
    static func makerNote(_ entries: [(tag: Int, type: Int, count: Int, value: [UInt8])]) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
        var note = AppleMakerNote.signature + [0, 1, UInt8(ascii: "M"), UInt8(ascii: "M")]
        var values: [UInt8] = []
        let valuesStart = note.count + 2 + 12 * entries.count + 4
        note += u16(entries.count)
        for entry in entries {
            note += u16(entry.tag) + u16(entry.type) + u32(entry.count)
            if entry.value.count <= 4 {
                note += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                note += u32(valuesStart + values.count)
                values += entry.value
            }
        }
        return note + [0, 0, 0, 0] + values
    }

    static let burst = "6E2F7E0B-2C43-4C07-A4E0-5F1B8A1C2D3E"

    @Test func makerNoteGivesBurstCaptureTypeAndFrontCamera() {
        let note = Self.makerNote([
            (0x000b, 2, Self.burst.utf8.count + 1, Array(Self.burst.utf8) + [0]),
            (0x0014, 9, 1, [0, 0, 0, 2]),
            (0x0045, 9, 1, [0, 0, 0, 1]),
        ])
        #expect(
            AppleMakerNote.tags(in: note)
                == AppleMakerNote.Tags(burstUUID: Self.burst, imageCaptureType: 2, frontFacingCamera: 1))
    }

    /// A tag of another type or count than Apple writes says nothing, and the others still count.
    @Test func wrongTypesSayNothing() {
        let note = Self.makerNote([
            (0x000b, 9, 1, [0, 0, 0, 7]),
            (0x0014, 2, 2, [0x32, 0]),
            (0x0045, 9, 2, [0, 0, 0, 1]),
            (0x0011, 2, 4, Array("ABC".utf8) + [0]),
        ])
        #expect(AppleMakerNote.tags(in: note) == AppleMakerNote.Tags(contentIdentifier: "ABC"))
        let long = Self.makerNote([(0x000b, 2, 10_001, Array(repeating: 0x41, count: 10_000) + [0])])
        #expect(AppleMakerNote.tags(in: long).burstUUID == nil, "a 10,000-byte burst id is none")
    }

    // MARK: HEIF auxiliary images

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = body.count + 8
        return [
            UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
        ]
            + Array(type.utf8) + body
    }

    /// A HEIF's box skeleton: `ftyp`, then `meta` holding `hdlr` and `iprp`/`ipco` with these `auxC`s.
    static func heif(auxiliary types: [String]) -> [UInt8] {
        let properties = types.map { box("auxC", [0, 0, 0, 0] + Array($0.utf8) + [0]) }
        let ipco = box("ipco", box("ispe", [UInt8](repeating: 0, count: 12)) + properties.joined())
        let meta = box(
            "meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + box("iprp", ipco))
        return box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + meta
            + box("mdat", [1, 2])
    }

    @Test func heifAuxiliaryTypesAreReadFromTheBoxes() {
        let types = ["urn:com:apple:photo:2020:aux:hdrgainmap", "urn:mpeg:hevc:2015:auxid:2"]
        let bytes = Self.heif(auxiliary: types)
        #expect(bytes.withUnsafeBytes { HEIFAuxiliaryTypes.read($0) } == types)
        #expect(Self.heif(auxiliary: []).withUnsafeBytes { HEIFAuxiliaryTypes.read($0) } == [])
    }

    /// Every prefix and a few thousand single-byte changes: never a crash, never a read past the end.
    @Test func everyCutAndFlipOfAHEIFIsSafe() {
        let good = Self.heif(auxiliary: ["urn:mpeg:hevc:2015:auxid:2"])
        for length in 0...good.count {
            _ = Array(good.prefix(length)).withUnsafeBytes { HEIFAuxiliaryTypes.read($0) }
        }
        for index in good.indices {
            for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                var bytes = good
                bytes[index] = value
                _ = bytes.withUnsafeBytes { HEIFAuxiliaryTypes.read($0) }
            }
        }
    }

    // MARK: Files tagged as phones tag them

    /// `exiftool` (Debian's libimage-exiftool-perl) writes the tags into a copy of a plain JPEG.
    static func tagged(_ assignments: [String], in folder: TemporaryFolder) throws -> [UInt8] {
        let path = folder.file("tagged-\(UUID().uuidString).jpg")
        try writeFile(path, try LivePhotoReaderTests.sampleJPEG)
        try run("/usr/bin/exiftool", ["-q", "-overwrite_original"] + assignments + [path.display])
        return try readFile(path)
    }

    struct ToolFailed: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(
                description: "\(tool) exited with \(process.terminationStatus); install it with 'make deps'.")
        }
    }

    @Test(arguments: [
        (["-XMP-GPano:ProjectionType=equirectangular"], "panorama"),
        (["-XMP-GPano:UsePanoramaViewer=True"], "panorama"),
        (["-EXIF:LensModel=iPhone 15 front camera 2.69mm f/1.9"], "selfie"),
        (["-XMP-GDepth:Format=RangeInverse", "-XMP-GDepth:DepthImage=depth"], "portrait"),
        (["-XMP-GCamera:BurstID=c8e4f3a0-burst", "-XMP-GCamera:BurstPrimary=1"], "burst"),
    ])
    func taggedJPEGIsItsKind(assignments: [String], kind: String) throws {
        let folder = try TemporaryFolder()
        let bytes = try Self.tagged(assignments, in: folder)
        let info = try LivePhotoReaderTests.read(bytes, named: "IMG_0001.JPG", in: folder)
        #expect(info.subtypes == [kind], "\(assignments)")
    }

    @Test func anAppleMakerNoteSaysSelfiePortraitAndBurst() throws {
        let folder = try TemporaryFolder()
        let note = Self.makerNote([
            (0x000b, 2, Self.burst.utf8.count + 1, Array(Self.burst.utf8) + [0]),
            (0x0014, 9, 1, [0, 0, 0, 2]),
            (0x0045, 9, 1, [0, 0, 0, 1]),
        ])
        let still = try LivePhotoFixtures.appleStill(
            try LivePhotoReaderTests.sampleJPEG, makerNote: note, taken: "2023:12:01 12:34:56", in: folder)
        let info = try LivePhotoReaderTests.read(still, named: "IMG_0002.JPG", in: folder)
        #expect(info.subtypes == ["burst", "portrait", "selfie"])
    }

    /// ffmpeg writes Android's capture rate as an `mdta` key; its test pattern plays at 30 fps.
    @Test(arguments: [("240", "slomo"), ("2", "timelapse"), ("30", nil), ("-5", nil), ("1e308", nil)])
    func androidCaptureRateDecidesSlowMotionAndTimeLapse(fps: String, kind: String?) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("VID_\(UUID().uuidString).mp4")
        try Self.run(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x48:rate=30", "-c:v",
                "mpeg4",
                "-movflags", "use_metadata_tags", "-metadata", "com.android.capture.fps=\(fps)", path.display,
            ])
        let info = try Corpus.read(path, with: try MediaReader(decoders: try LibraryDecoders()))
        #expect(info.subtypes == (kind.map { [$0] } ?? []), "\(fps)")
    }
}
