import PhotoFilerSystem
import TestSupport
import Testing

/// Video frames whose width is not a multiple of 16 (a 360×640 phone video, a
/// 568×320 one turned upright): libswscale wrote past the end of a tight RGB
/// buffer and the helper aborted with `malloc(): corrupted top size`, so such a
/// video had no thumbnail at either size.
@Suite
struct VideoFrameWidthTests {
    /// Widths that broke, made here in H.264 (72 rows, two frames), and the corpus's
    /// HEVC and turned ones.
    static let widths = [200, 216, 220, 232, 264, 360, 456, 520, 568, 600]
    static let corpusVideos = [
        "h264-568x320-turn90.mov", "h264-360x640.mp4", "hevc-232x408-turn90.mov", "hevc-264x200-turn270.mp4",
        "hevc-10bit-456x256-turn180.mp4",
    ]

    @Test func everyWidthGetsAThumbnailOfItsShapeAtBothSizes() throws {
        let library = try TestLibrary()
        var expected: [String: (width: Int, height: Int)] = [:]
        var inputs: [BytePath] = []
        for width in Self.widths {
            let name = "w\(width).mp4"
            let path = library.inputs.appending(name)
            _ = try ReferenceComparison.run(
                "ffmpeg",
                [
                    "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x72:rate=10",
                    "-frames:v", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", path.display,
                ])
            inputs.append(path)
            expected[name] = (width, 72)
        }
        for name in Self.corpusVideos {
            let entry = try #require(VideoCorpus.entries.first { $0.file == name })
            inputs.append(entry.path)
            let shown = try #require(entry.shown)
            expected[name] = shown
        }
        let saved = try library.run(bytes: [BytePath("save")] + inputs)
        try #require(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.isEmpty, "every thumbnail is made: \(saved.stderr)")
        for asset in try library.list() {
            let name = try #require(asset["originalName"] as? String)
            let shown = try #require(expected[name])
            let id = String(try #require(assetID(asset)))
            for edge in [256, 1024] {
                let output = library.folder.file("\(id)-\(edge).png")
                let thumb = try library.run("thumb", id, "--size", String(edge), "-o", output.display)
                try #require(thumb.status == 0, "\(name) at \(edge): \(thumb.stderr)")
                let png = try PNGFile(try readFile(output))
                let fitted = ReferenceComparison.fitted(width: shown.width, height: shown.height, edge: edge)
                #expect(
                    ReferenceComparison.sameSize((png.width, png.height), fitted),
                    "\(name) at \(edge): \(png.width)×\(png.height), not \(fitted)")
            }
        }
    }
}
