import CVips
import TestSupport
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// HEICs decoded as YCbCr planes and converted by libvips give the picture
/// libvips' whole-image decode (libheif's own RGB conversion) gives: the same size,
/// the same pixels within the noise of two scalings.
@Suite
struct HeifPlanesDecoderTests {
    /// The planes' and the whole-image thumbnails of `path`, read back.
    static func both(_ path: BytePath, edge: Int) throws -> (planes: DecodedPicture, whole: DecodedPicture) {
        let (decoded, whole) = try DecodedPicture.bothWays(
            path, edge: edge, decoder: HeifPlanesDecoder.decode)
        return (decoded, whole)
    }

    /// The iPhone's grid (which libheif also decodes whole), with its Display P3
    /// profile, and libheif's own example, a single 1280 × 854 image.
    @Test(arguments: [
        ("IMG_2682.heic", 1024, 768), ("IMG_2682.heic", 256, 192),
        ("libheif_example.heic", 1024, 683), ("libheif_example.heic", 256, 171),
    ])
    func theCorpusHEICsAreTheWholeImagesPicture(file: String, width: Int, height: Int) throws {
        let (planes, whole) = try Self.both(Corpus.path(file), edge: width)
        #expect((planes.width, planes.height) == (width, height))
        #expect((planes.width, planes.height) == (whole.width, whole.height))
        // Measured: 0.7 and 1.7 (the iPhone's), 2.0 and 2.5 (the example's detail, its
        // chroma upsampled by libvips' kernel rather than libheif's bilinear one, and
        // shrunk by another chain of scalings); the means within 0.43. Read as limited
        // range the difference is 9 to 10; with Rec. 709's matrix instead of 601's a
        // band's mean is off by 0.7 to 1.3.
        #expect(planes.difference(from: whole) < 3, "mean difference per sample")
        let (ours, theirs) = (planes.meanColour, whole.meanColour)
        for band in 0..<3 { #expect(abs(ours[band] - theirs[band]) < 0.5, "mean of band \(band)") }
        #expect(planes.contrast > 20)
    }

    /// Grids stored turned, and turned and mirrored (`Tests/Fixtures/heif-orientation`):
    /// libheif turns and mirrors the planes before it hands them over.
    @Test(arguments: ["grid-turned.heic", "grid-turned-mirrored.heic"])
    func aTurnedPictureComesOutUpright(file: String) throws {
        let folder = Fixtures.root.appending("heif-orientation")
        let (planes, whole) = try Self.both(folder.appending(file), edge: 256)
        let upright = try DecodedPicture(try HeifGridDecoderTests.bytes(folder.appending("upright-256.jpg")))
        #expect((planes.width, planes.height) == (256, 192))
        #expect(planes.difference(from: whole) < 3, "mean difference per sample")
        // Measured: 4.1 from the upright original (the HEVC tiles' loss, two scalings).
        #expect(planes.difference(from: upright) < 8)
    }

    @Test
    func theMatricesAreLibheifs() throws {
        // H.273: Rec. 709, Rec. 601 (and unspecified, as libheif reads it), BT.2020;
        // libheif converts identity, YCgCo and ICtCp another way.
        #expect(
            YCbCrToRGB(matrix: 1, fullRange: true).map { ($0.red, $0.blue) } ?? (0, 0) == (0.2126, 0.0722))
        #expect(YCbCrToRGB(matrix: 2, fullRange: true).map { ($0.red, $0.blue) } ?? (0, 0) == (0.299, 0.114))
        #expect(
            YCbCrToRGB(matrix: 9, fullRange: false).map { ($0.red, $0.blue) } ?? (0, 0) == (0.2627, 0.0593))
        for matrix: UInt16 in [0, 8, 14] { #expect(YCbCrToRGB(matrix: matrix, fullRange: true) == nil) }
    }
}
