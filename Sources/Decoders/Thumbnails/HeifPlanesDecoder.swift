import CVips
import PhotoFilerMediaTypes

/// A HEIF image stored as one picture (not a grid: `heif-enc` writes that, and so do
/// some cameras) decoded to its YCbCr planes and made small by libvips from there.
///
/// libvips' heifload asks libheif for interleaved RGB, which libheif converts from
/// the decoded planes while it still holds them: at 8000 × 6000, 72 MB of planes
/// and 144 MB of RGB at once. Here libheif hands over the planes themselves (the
/// file's rotation, mirroring and crop applied), libvips reads them where they lie,
/// scales them to one size (the chroma's, when that is still larger than `edge`),
/// converts them to RGB with the matrix libheif would use, and fits the picture in
/// `edge`. No RGB picture of the full size is ever made. The decode itself stays the
/// peak: libde265's frame and tables (90 MB at 48 MP) and libheif's copy of its
/// planes, which libheif holds together for a moment.
enum HeifPlanesDecoder {
    /// The picture fitted in `edge` × `edge`, in sRGB; nil when the planes are not
    /// 8-bit YCbCr without alpha in a matrix this converts (whole-image path).
    static func decode(_ primary: HeifPrimaryImage, edge: Int) throws(ThumbnailFailure) -> VipsImageHandle? {
        let handle = primary.handle
        var colorspace = heif_colorspace_undefined
        var chroma = heif_chroma_undefined
        guard heif_image_handle_has_alpha_channel(handle) == 0,
            heif_image_handle_get_luma_bits_per_pixel(handle) == 8,
            heif_image_handle_get_chroma_bits_per_pixel(handle) == 8,
            heif_image_handle_get_preferred_decoding_colorspace(handle, &colorspace, &chroma).code
                == heif_error_Ok,
            colorspace == heif_colorspace_YCbCr,
            [heif_chroma_420, heif_chroma_422, heif_chroma_444].contains(chroma)
        else { return nil }
        var decoded: OpaquePointer?
        // Undefined: the planes as decoded, unconverted (rotated, mirrored, cropped).
        try HeifPrimaryImage.check(
            heif_decode_image(handle, &decoded, heif_colorspace_undefined, heif_chroma_undefined, nil))
        guard let decoded else { throw ThumbnailFailure("libheif decoded no image") }
        defer { heif_image_release(decoded) }
        guard heif_image_get_colorspace(decoded) == heif_colorspace_YCbCr,
            let conversion = YCbCrToRGB(nclxOf: decoded)
        else { return nil }
        // Every libvips image over the planes is gone when this returns: the result
        // is in memory of its own before the planes are released.
        return try picture(primary, decoded, conversion, edge: edge)
    }

    private static func picture(
        _ primary: HeifPrimaryImage, _ decoded: OpaquePointer, _ conversion: YCbCrToRGB, edge: Int
    ) throws(ThumbnailFailure) -> VipsImageHandle {
        var luma = try plane(decoded, heif_channel_Y)
        var blue = try plane(decoded, heif_channel_Cb)
        var red = try plane(decoded, heif_channel_Cr)
        if (blue.width, blue.height) != (luma.width, luma.height) {
            // 4:2:0 halves the chroma both ways, 4:2:2 across only: a luma scaled to
            // the 4:2:2 chroma would squeeze the picture.
            let sameShape = abs(blue.width * luma.height - blue.height * luma.width) <= luma.height
            if sameShape, max(blue.width, blue.height) >= edge {
                // The luma averaged down to the chroma's size: no detail is lost that
                // the thumbnail would keep.
                let (across, down) = (
                    Double(blue.width) / Double(luma.width), Double(blue.height) / Double(luma.height)
                )
                luma = try luma.derive("scale the luma") { image, out in
                    photofiler_vips_resize_to(image, &out, across, down)
                }
            } else {
                let (across, down) = (
                    Double(luma.width) / Double(blue.width), Double(luma.height) / Double(blue.height)
                )
                blue = try blue.derive("scale the chroma") { image, out in
                    photofiler_vips_resize_to(image, &out, across, down)
                }
                red = try red.derive("scale the chroma") { image, out in
                    photofiler_vips_resize_to(image, &out, across, down)
                }
            }
        }
        var bands: [UnsafeMutablePointer<VipsImage>?] = [luma.image, blue.image, red.image]
        var joinedImage: UnsafeMutablePointer<VipsImage>?
        guard photofiler_vips_bandjoin(&bands, 3, &joinedImage) == 0, let joinedImage else {
            throw VipsErrors.take("join the planes")
        }
        let rgb = try conversion.apply(to: VipsImageHandle(joinedImage))
        let throughProfile = try primary.attachProfile(to: rgb)
        return try rgb.derive("scale it") { image, out in
            photofiler_vips_thumbnail_image(image, &out, CInt(edge), throughProfile ? 1 : 0)
        }.inMemory()
    }

    /// One plane of `decoded` as a libvips image over libheif's memory (no copy):
    /// its rows are `stride` bytes apart, so the image is that wide, cut to the plane.
    private static func plane(_ decoded: OpaquePointer, _ channel: heif_channel) throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        let width = Int(heif_image_get_width(decoded, channel))
        let height = Int(heif_image_get_height(decoded, channel))
        var stride: CInt = 0
        guard width > 0, height > 0, let pixels = heif_image_get_plane_readonly(decoded, channel, &stride),
            Int(stride) >= width
        else { throw ThumbnailFailure("libheif decoded an image without its planes") }
        guard
            let image = vips_image_new_from_memory(
                pixels, Int(stride) * height, stride, CInt(height), 1, VIPS_FORMAT_UCHAR)
        else { throw VipsErrors.take("read a plane") }
        let rows = VipsImageHandle(image)
        guard Int(stride) > width else { return rows }
        return try rows.derive("cut a plane") { image, out in
            photofiler_vips_extract_area(image, &out, 0, 0, CInt(width), CInt(height))
        }
    }
}

/// libheif's own YCbCr to RGB conversion (its `Op_YCbCr_to_RGB`, for 8 bits), as
/// libvips operations: the same matrix from the image's nclx description, the same
/// range expansion, rounded to the nearest value and clipped as libheif does.
struct YCbCrToRGB {
    /// The luma weights of red and blue (H.273's K_R and K_B).
    var red: Double
    var blue: Double
    var fullRange: Bool

    /// nil for the matrices libheif converts another way (identity, YCgCo, ICtCp,
    /// SMPTE 2085, chromaticity-derived): the whole-image path has libheif do those.
    init?(nclxOf decoded: OpaquePointer) {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        // Without one, libheif converts as Rec. 601, full range.
        guard heif_image_get_nclx_color_profile(decoded, &nclx).code == heif_error_Ok, let nclx else {
            self.init(matrix: 6, fullRange: true)
            return
        }
        defer { heif_nclx_color_profile_free(nclx) }
        self.init(
            matrix: UInt16(nclx.pointee.matrix_coefficients.rawValue),
            fullRange: nclx.pointee.full_range_flag != 0)
    }

    init?(matrix: UInt16, fullRange: Bool) {
        switch matrix {
        case 0, 8, 11, 12, 13, 14: return nil
        case 1: (red, blue) = (0.2126, 0.0722)
        case 4: (red, blue) = (0.30, 0.11)
        case 7: (red, blue) = (0.212, 0.087)
        case 9, 10: (red, blue) = (0.2627, 0.0593)
        default: (red, blue) = (0.299, 0.114)  // 5, 6, and unspecified as libheif reads it
        }
        self.fullRange = fullRange
    }

    /// `ycbcr` (three 8-bit bands of one size) as 8-bit sRGB.
    func apply(to ycbcr: VipsImageHandle) throws(ThumbnailFailure) -> VipsImageHandle {
        // libheif's limited-range factors; + 0.5 on the luma rounds every output
        // (the matrix's first column is all ones) where the cast would truncate.
        let (lumaScale, chromaScale) = fullRange ? (1.0, 1.0) : (1.1689, 1.1429)
        let scale = [lumaScale, chromaScale, chromaScale]
        let offset = [(fullRange ? 0 : -16 * lumaScale) + 0.5, -128 * chromaScale, -128 * chromaScale]
        let centred = try ycbcr.derive("centre the chroma") { image, out in
            photofiler_vips_linear(image, &out, scale, offset, 3)
        }
        let denominator = blue + red - 1
        let matrix = [
            1, 0, 2 * (1 - red),
            1, 2 * blue * (1 - blue) / denominator, 2 * red * (1 - red) / denominator,
            1, 2 * (1 - blue), 0,
        ]
        let rgb = try centred.derive("convert to RGB") { image, out in
            photofiler_vips_recomb3(image, &out, matrix)
        }
        let clipped = try rgb.derive("make 8-bit samples") { image, out in
            photofiler_vips_cast_uchar(image, &out)
        }
        return try clipped.derive("mark it sRGB") { image, out in photofiler_vips_as_srgb(image, &out) }
    }
}
