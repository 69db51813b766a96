import CVips
import TestSupport
import Testing

@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// Grid HEICs decoded tile by tile give the picture libvips' whole-image decode
/// gives: the same size, the same pixels within the noise of two scalings.
@Suite
struct HeifGridDecoderTests {
    /// The tile-by-tile and the whole-image thumbnails of `path`, read back.
    static func both(_ path: BytePath, edge: Int) throws -> (tiled: DecodedPicture, whole: DecodedPicture) {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let maker = try ThumbnailMaker()
        let primary = try #require(try HeifPrimaryImage.open(fd, size: try fd.status().size))
        let tiled = try #require(try HeifGridDecoder.decode(primary, edge: edge))
        // At 1024, as the maker decodes (at 256 libvips would take the file's own 320 px thumbnail).
        let whole = try ThumbnailMaker.fit(try maker.decodeWhole(fd, edge: 1024), edge: edge)
        return (
            try DecodedPicture(try ThumbnailEncoder.encode(tiled, .jpeg(edge))),
            try DecodedPicture(try ThumbnailEncoder.encode(whole, .jpeg(edge)))
        )
    }

    @Test(arguments: [1024, 256])
    func theIPhoneGridIsTheWholeImagesPicture(edge: Int) throws {
        // 4032 × 3024 in 8 × 6 tiles of 512, the last ones cropped, a Display P3 profile.
        let (tiled, whole) = try Self.both(Corpus.path("IMG_2682.heic"), edge: edge)
        #expect((tiled.width, tiled.height) == (edge, edge * 3 / 4))
        #expect((tiled.width, tiled.height) == (whole.width, whole.height))
        #expect(tiled.difference(from: whole) < 2, "mean difference per sample")
        #expect(tiled.contrast > 20)
    }
}
