import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// Every video of the corpora (the phone videos of `Fixtures/videos`, the real phone
/// videos of `Fixtures/corpus`) through `save` and `thumb --size 256|1024`, against
/// ffmpeg's frame a tenth into it with its display matrix and pixel aspect applied
/// (ReferenceComparison): the same shown size within a pixel, and the 32×32 versions
/// alike. Where one of them decodes the file and the other does not, the test fails.
@Suite
struct VideoReferenceTests {
    /// Grey MAD at most this (of 255): photofiler's frames of the corpus measure 1.2 at
    /// most (the two scalers' rounding); the made videos' own pictures mirrored or
    /// turned half measure over twice the bound (checked below), a blank far more.
    static let greyBound = 8.0
    /// Colour MAD at most this: a wrong matrix or swapped channels go far over it.
    static let colourBound = 10.0

    /// The videos, with the size a player shows (nil: no picture to show).
    /// `asymmetric`: made with a white block in a corner, so its mirror and its half
    /// turn measure far from it (a real video may be near symmetric).
    static let videos: [(file: String, path: BytePath, shown: (width: Int, height: Int)?, asymmetric: Bool)] =
        VideoCorpus.entries.map { ($0.file, $0.path, $0.shown, true) }
        + CorpusManifest.good.filter { $0.mimeType.hasPrefix("video/") }.map {
            ($0.file, $0.path, $0.displaySize, false)
        }

    @Test func everyVideoMatchesFfmpegsFrame() throws {
        let library = try TestLibrary()
        let entries = Self.videos
        let saved = try library.run(bytes: [BytePath("save")] + entries.map(\.path))
        try #require(saved.status == 0, "\(saved.stderr)")
        // One line for each file with no picture, none for the others.
        let lines = saved.stderr.split(separator: "\n")
        #expect(lines.count == entries.filter { $0.shown == nil }.count, "\(saved.stderr)")
        #expect(lines.allSatisfy { $0.contains("cannot be decoded for a thumbnail") }, "\(saved.stderr)")
        let assets = try library.list()
        #expect(assets.count == entries.count)
        var worst: (file: String, difference: ReferenceComparison.Difference)?
        for entry in entries {
            let asset = try #require(
                assets.first { $0["originalName"] as? String == entry.file }, "\(entry.file) is not listed")
            let id = String(try #require(assetID(asset)))
            let reference = library.folder.file("\(id)-reference.png")
            let decodes = try ReferenceComparison.videoFrame(
                entry.path, at: try ReferenceComparison.tenthOfDuration(entry.path), to: reference)
            #expect(decodes == (entry.shown != nil), "\(entry.file): the manifest and ffmpeg disagree")
            let expected = decodes ? try ReferenceComparison.picture(reference) : nil
            if let expected, let shown = entry.shown {
                #expect(
                    (expected.width, expected.height) == shown, "\(entry.file): ffmpeg shows another size")
                // The measure tells this picture from its mirror and its half turn.
                for wrong in [expected.mirrored, expected.halfTurned] where entry.asymmetric {
                    #expect(
                        ReferenceComparison.difference(expected, wrong).grey > 2 * Self.greyBound,
                        "\(entry.file)")
                }
            }
            for edge in [256, 1024] {
                let output = library.folder.file("\(id)-\(edge).png")
                let thumb = try library.run("thumb", id, "--size", String(edge), "-o", output.display)
                guard let expected else {
                    #expect(thumb.status == 1, "\(entry.file): ffmpeg decodes no frame, photofiler made one")
                    #expect(thumb.stderr.contains("cannot be decoded"), "\(entry.file): \(thumb.stderr)")
                    continue
                }
                try #require(
                    thumb.status == 0, "\(entry.file) at \(edge): ffmpeg decodes it: \(thumb.stderr)")
                let made = try ReferenceComparison.picture(output)
                let fitted = ReferenceComparison.fitted(
                    width: expected.width, height: expected.height, edge: edge)
                #expect(
                    ReferenceComparison.sameSize((made.width, made.height), fitted),
                    "\(entry.file) at \(edge): \(made.width)×\(made.height), ffmpeg's fitted is \(fitted)")
                let difference = ReferenceComparison.difference(made, expected)
                #expect(
                    difference.grey <= Self.greyBound && difference.colour <= Self.colourBound,
                    "\(entry.file) at \(edge): \(difference)")
                if difference.grey > worst?.difference.grey ?? -1 {
                    worst = ("\(entry.file) at \(edge)", difference)
                }
            }
        }
        if let worst { print("VideoReferenceTests: worst \(worst.file): \(worst.difference)") }
    }

    /// A file dropped in the folder without a manifest row would go untested.
    @Test func theManifestNamesEveryVideo() throws {
        let files = try Sys.listDirectory(Fixtures.videos).map(\.name.display)
            .filter { $0.hasSuffix(".mp4") || $0.hasSuffix(".mov") }
        #expect(Set(files) == Set(VideoCorpus.entries.map(\.file)))
    }
}
