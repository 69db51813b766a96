import CVips
import Testing

@testable import PhotoFilerDecoders
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// A thumbnail read back: its size, 8-bit pixels and metadata, for assertions.
struct DecodedPicture {
    var width: Int
    var height: Int
    var bands: Int
    var pixels: [UInt8]
    var strings: [String: String]

    init(_ bytes: [UInt8], metadata keys: [String] = []) throws {
        let image = try #require(
            bytes.withUnsafeBytes { photofiler_vips_load_buffer($0.baseAddress, $0.count) })
        defer { g_object_unref(UnsafeMutableRawPointer(image)) }
        width = Int(vips_image_get_width(image))
        height = Int(vips_image_get_height(image))
        bands = Int(vips_image_get_bands(image))
        var size = 0
        let memory = try #require(vips_image_write_to_memory(image, &size))
        defer { g_free(memory) }
        pixels = Array(UnsafeRawBufferPointer(start: memory, count: size))
        strings = [:]
        for key in keys {
            var value: UnsafePointer<CChar>?
            if vips_image_get_string(image, key, &value) == 0, let value {
                strings[key] = String(cString: value)
            }
        }
    }

    /// The mean of each of the first three bands (R, G, B), 0–255.
    var meanColour: [Double] {
        var sums = [Double](repeating: 0, count: 3)
        for index in stride(from: 0, to: pixels.count, by: bands) {
            for band in 0..<min(3, bands) { sums[band] += Double(pixels[index + band]) }
        }
        let count = Double(pixels.count / bands)
        return sums.map { $0 / count }
    }

    /// The standard deviation of the grey level: near 0 for a blank picture.
    var contrast: Double {
        let greys = stride(from: 0, to: pixels.count, by: bands).map { index in
            (0..<min(3, bands)).reduce(0.0) { $0 + Double(pixels[index + $1]) } / Double(min(3, bands))
        }
        let mean = greys.reduce(0, +) / Double(greys.count)
        return (greys.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(greys.count)).squareRoot()
    }

    /// Mean absolute difference per sample against a picture of the same size.
    func difference(from other: DecodedPicture) -> Double {
        guard width == other.width, height == other.height, bands == other.bands else { return .infinity }
        var total = 0.0
        for index in pixels.indices { total += abs(Double(pixels[index]) - Double(other.pixels[index])) }
        return total / Double(pixels.count)
    }
}

extension DecodedPicture {
    /// The thumbnails of the HEIC at `path` made by `decoder` (a tile-by-tile or a
    /// planes path) and by libvips' whole-image decode, read back, for comparing them.
    static func bothWays(
        _ path: BytePath, edge: Int,
        decoder: (HeifPrimaryImage, Int) throws(ThumbnailFailure) -> VipsImageHandle?
    ) throws -> (decoded: DecodedPicture, whole: DecodedPicture) {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let maker = try ThumbnailMaker()
        let primary = try #require(try HeifPrimaryImage.open(fd, size: try fd.status().size))
        let decoded = try #require(try decoder(primary, edge))
        // At 1024, as the maker decodes (at 256 libvips would take the file's own 320 px thumbnail).
        let whole = try ThumbnailMaker.fit(try maker.decodeWhole(fd, edge: 1024), edge: edge)
        return (
            try DecodedPicture(try ThumbnailEncoder.encode(decoded, .jpeg(edge))),
            try DecodedPicture(try ThumbnailEncoder.encode(whole, .jpeg(edge)))
        )
    }
}
