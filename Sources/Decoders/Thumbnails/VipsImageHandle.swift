import CVips
import PhotoFilerMediaTypes

/// One reference to a `VipsImage` (a GObject), released when the handle goes.
/// Used on one thread at a time, like the maker that owns it.
final class VipsImageHandle {
    let image: UnsafeMutablePointer<VipsImage>

    init(_ image: UnsafeMutablePointer<VipsImage>) { self.image = image }

    deinit { g_object_unref(UnsafeMutableRawPointer(image)) }

    var width: Int { Int(vips_image_get_width(image)) }
    var height: Int { Int(vips_image_get_height(image)) }
    var bands: Int { Int(vips_image_get_bands(image)) }

    /// Runs a libvips operation that makes a new image from this one.
    func derive(
        _ what: String,
        _ operation: (UnsafeMutablePointer<VipsImage>, inout UnsafeMutablePointer<VipsImage>?) -> CInt
    ) throws(ThumbnailFailure) -> VipsImageHandle {
        var out: UnsafeMutablePointer<VipsImage>?
        guard operation(image, &out) == 0, let out else { throw VipsErrors.take(what) }
        return VipsImageHandle(out)
    }
}

extension VipsImageHandle {
    /// The pixels computed now, into memory: reads the file while its source is
    /// open, and once for all the renditions made from them.
    func inMemory() throws(ThumbnailFailure) -> VipsImageHandle {
        try derive("decode it") { image, out in
            out = vips_image_copy_memory(image)
            return out == nil ? -1 : 0
        }
    }
}

enum VipsErrors {
    /// libvips keeps its errors in one process-wide buffer: take and clear it.
    static func take(_ what: String) -> ThumbnailFailure {
        let text = String(cString: vips_error_buffer())
        vips_error_clear()
        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        return ThumbnailFailure(first.isEmpty ? "libvips could not \(what)" : first)
    }
}
