import CVips
import Testing

/// A PNG read back through libvips: its size and the text chunks libvips exposes
/// as `png-comment-N-KEY` fields.
struct PNGFile {
    var width: Int
    var height: Int
    var bands: Int
    /// Text chunk key → value.
    var text: [String: String] = [:]

    init(_ bytes: [UInt8]) throws {
        try #require(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
        let image = try #require(
            bytes.withUnsafeBytes { photofiler_vips_load_buffer($0.baseAddress, $0.count) })
        defer { g_object_unref(UnsafeMutableRawPointer(image)) }
        width = Int(vips_image_get_width(image))
        height = Int(vips_image_get_height(image))
        bands = Int(vips_image_get_bands(image))
        guard let fields = vips_image_get_fields(image) else { return }
        defer { g_strfreev(fields) }
        var index = 0
        while let field = fields[index] {
            index += 1
            let name = String(cString: field)
            guard name.hasPrefix("png-comment-") else { continue }
            var value: UnsafePointer<CChar>?
            guard vips_image_get_string(image, field, &value) == 0, let value else { continue }
            // png-comment-N-KEY → KEY
            let key = name.split(separator: "-", maxSplits: 3).last.map(String.init) ?? name
            text[key] = String(cString: value)
        }
    }
}
