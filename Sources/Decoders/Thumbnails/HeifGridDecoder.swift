import CVips
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A HEIF grid image (a phone's HEIC: 512 × 512 HEVC tiles; a tiled AVIF) decoded
/// tile by tile into a small picture, so that a 48-megapixel one never sits in
/// memory whole.
///
/// libvips' heifload has libheif decode the whole grid (its YCbCr planes and the
/// interleaved RGB, then libvips' own copy: 373 MB for 8000 × 6000). Here libheif
/// decodes one tile at a time as it is stored, libvips averages each tile down by a
/// power of two, and the small tiles are joined and cut to the grid's size. The
/// image's own crop (`clap`), turn (`irot`) and mirror (`imir`) are then applied to
/// that small picture, in the file's order, and it is thumbnailed as any picture is
/// (sRGB through the file's ICC profile). libheif 1.19 can give the tiles' places in
/// the transformed picture, but it misplaces them once a turn or a mirror moves the
/// grid's partial last column or row (an iPhone's 5712 × 4284 in 512 px tiles came
/// out with the left ~11 % missing) and undoes a mirror of a turned grid with the
/// wrong column count.
enum HeifGridDecoder {
    /// The picture fitted in `edge` × `edge`; nil when the primary image is no grid
    /// or is too small for tiles to matter (another path decodes it whole).
    static func decode(_ primary: HeifPrimaryImage, edge: Int) throws(ThumbnailFailure) -> VipsImageHandle? {
        guard let grid = Grid(primary.handle, edge: edge) else { return nil }
        return try grid.decode(primary, edge: edge)
    }

    /// The primary image's tiles as stored, and the factor each is averaged down by.
    struct Grid {
        var tiling: heif_image_tiling
        var shrink: Int
        var bands: Int

        /// nil when the whole-image path is as good: one tile, more than 8 bits a
        /// sample, or no power of two to shrink by (the picture is within twice `edge`).
        init?(_ handle: OpaquePointer, edge: Int) {
            var tiling = heif_image_tiling()
            // Without the transformations: the stored grid, its first tile at (0, 0).
            guard heif_image_handle_get_image_tiling(handle, 0, &tiling).code == heif_error_Ok,
                tiling.num_columns * tiling.num_rows > 1, tiling.number_of_extra_dimensions == 0,
                heif_image_handle_get_luma_bits_per_pixel(handle) == 8
            else { return nil }
            // The size shown, after its crop: no smaller than `edge` once shrunk.
            let longest = Int(max(heif_image_handle_get_width(handle), heif_image_handle_get_height(handle)))
            // Each block of the factor lies in one tile: it divides the tile size.
            let sides = [Int(tiling.tile_width), Int(tiling.tile_height)]
            var shrink = 1
            while 2 * shrink * edge <= longest, sides.allSatisfy({ $0 % (2 * shrink) == 0 }) {
                shrink *= 2
            }
            guard shrink > 1 else { return nil }
            self.tiling = tiling
            self.shrink = shrink
            bands = heif_image_handle_has_alpha_channel(handle) != 0 ? 4 : 3
        }

        func decode(_ primary: HeifPrimaryImage, edge: Int) throws(ThumbnailFailure) -> VipsImageHandle {
            guard let options = heif_decoding_options_alloc() else { throw ThumbnailFailure("out of memory") }
            defer { heif_decoding_options_free(options) }
            options.pointee.ignore_transformations = 1
            var tiles: [VipsImageHandle] = []
            for row in 0..<tiling.num_rows {
                for column in 0..<tiling.num_columns {
                    tiles.append(try tile(primary.handle, options, column: column, row: row))
                }
            }
            var joinedImage: UnsafeMutablePointer<VipsImage>?
            var members: [UnsafeMutablePointer<VipsImage>?] = tiles.map(\.image)
            guard
                photofiler_vips_arrayjoin(
                    &members, CInt(members.count), &joinedImage, CInt(tiling.num_columns))
                    == 0, let joinedImage
            else { throw VipsErrors.take("join the tiles") }
            let joined = VipsImageHandle(joinedImage)
            // The last column and row reach past the grid's size.
            let width = min(Int(tiling.image_width) / shrink, joined.width)
            let height = min(Int(tiling.image_height) / shrink, joined.height)
            let stored = try joined.derive("crop the tiles") { image, out in
                photofiler_vips_extract_area(image, &out, 0, 0, CInt(width), CInt(height))
            }
            let (picture, shown) = try upright(stored, primary)
            let throughProfile = try primary.attachProfile(to: picture)
            // The size the whole picture fitted in `edge` has: the shrunk one lost up
            // to a pixel to the division by the factor.
            let scale = Double(edge) / Double(max(shown.width, shown.height))
            let fitted = PixelSize(
                width: max(1, Int((Double(shown.width) * scale).rounded())),
                height: max(1, Int((Double(shown.height) * scale).rounded())))
            return try picture.derive("scale it") { image, out in
                photofiler_vips_thumbnail_image_to(
                    image, &out, CInt(fitted.width), CInt(fitted.height), throughProfile ? 1 : 0)
            }.inMemory()
        }

        /// The small stored picture with the image's transformations applied, each
        /// crop worked out at the full size it applies to and scaled down; and the
        /// full size it is shown at.
        private func upright(_ stored: VipsImageHandle, _ primary: HeifPrimaryImage) throws(ThumbnailFailure)
            -> (VipsImageHandle, PixelSize)
        {
            var picture = stored
            var full = PixelSize(width: Int(tiling.image_width), height: Int(tiling.image_height))
            for transformation in primary.transformations {
                switch transformation {
                case .crop(let property):
                    let border = primary.cropBorders(property, of: full)
                    let kept = PixelSize(
                        width: full.width - border.left - border.right,
                        height: full.height - border.top - border.bottom)
                    guard kept.width > 0, kept.height > 0 else {
                        throw ThumbnailFailure("libheif: its clean aperture is empty")
                    }
                    let left = min(picture.width - 1, scaled(border.left))
                    let top = min(picture.height - 1, scaled(border.top))
                    let width = max(1, min(picture.width - left, scaled(kept.width)))
                    let height = max(1, min(picture.height - top, scaled(kept.height)))
                    picture = try picture.derive("crop it") { image, out in
                        photofiler_vips_extract_area(
                            image, &out, CInt(left), CInt(top), CInt(width), CInt(height))
                    }
                    full = kept
                case .turn(let counterClockwise):
                    let angle: VipsAngle
                    switch counterClockwise {
                    case 90: angle = VIPS_ANGLE_D270
                    case 180: angle = VIPS_ANGLE_D180
                    case 270: angle = VIPS_ANGLE_D90
                    default: continue
                    }
                    picture = try picture.derive("turn it") { image, out in
                        photofiler_vips_rot(image, &out, angle)
                    }
                    if counterClockwise != 180 { full = PixelSize(width: full.height, height: full.width) }
                case .mirror(let leftAndRight):
                    let direction = leftAndRight ? VIPS_DIRECTION_HORIZONTAL : VIPS_DIRECTION_VERTICAL
                    picture = try picture.derive("mirror it") { image, out in
                        photofiler_vips_flip(image, &out, direction)
                    }
                }
            }
            return (picture, full)
        }

        /// A length of the full-size picture in the shrunk one.
        private func scaled(_ length: Int) -> Int {
            Int((Double(length) / Double(shrink)).rounded())
        }

        /// One tile decoded by libheif (as stored) and averaged down, in memory: the
        /// full-size tile goes before the next is decoded.
        private func tile(
            _ handle: OpaquePointer, _ options: UnsafeMutablePointer<heif_decoding_options>, column: UInt32,
            row: UInt32
        ) throws(ThumbnailFailure) -> VipsImageHandle {
            var decoded: OpaquePointer?
            let chroma = bands == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
            try HeifPrimaryImage.check(
                heif_image_handle_decode_image_tile(
                    handle, &decoded, heif_colorspace_RGB, chroma, options, column, row))
            guard let decoded else { throw ThumbnailFailure("libheif decoded no tile") }
            defer { heif_image_release(decoded) }
            let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
            var stride: CInt = 0
            guard width > 0, height > 0,
                let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride)
            else { throw ThumbnailFailure("libheif decoded an empty tile") }
            let full = try Self.vipsImage(
                plane, stride: Int(stride), width: width, height: height, bands: bands)
            return try full.derive("shrink a tile") { image, out in
                photofiler_vips_shrink(image, &out, CInt(shrink))
            }.inMemory()
        }

        /// libheif's rows may be padded: libvips wants them packed, so they are
        /// copied row by row into a libvips-owned image.
        private static func vipsImage(
            _ plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, bands: Int
        ) throws(ThumbnailFailure) -> VipsImageHandle {
            let rowBytes = width * bands
            guard stride >= rowBytes else { throw ThumbnailFailure("libheif decoded a tile with short rows") }
            let image: UnsafeMutablePointer<VipsImage>?
            if stride == rowBytes {
                image = vips_image_new_from_memory_copy(
                    plane, rowBytes * height, CInt(width), CInt(height), CInt(bands), VIPS_FORMAT_UCHAR)
            } else {
                var packed = [UInt8](repeating: 0, count: rowBytes * height)
                packed.withUnsafeMutableBytes { target in
                    for row in 0..<height {
                        (target.baseAddress! + row * rowBytes).copyMemory(
                            from: plane + row * stride, byteCount: rowBytes)
                    }
                }
                image = packed.withUnsafeBytes { packedBytes in
                    vips_image_new_from_memory_copy(
                        packedBytes.baseAddress, packedBytes.count, CInt(width), CInt(height), CInt(bands),
                        VIPS_FORMAT_UCHAR)
                }
            }
            guard let image else { throw VipsErrors.take("take a tile") }
            return VipsImageHandle(image)
        }
    }

}
