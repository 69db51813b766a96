import CVips
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A HEIF grid image (a phone's HEIC: 512 × 512 HEVC tiles; a tiled AVIF) decoded
/// tile by tile into a small picture, so that a 48-megapixel one never sits in
/// memory whole.
///
/// libvips' heifload has libheif decode the whole grid (its YCbCr planes and the
/// interleaved RGB, then libvips' own copy: 373 MB for 8000 × 6000). Here libheif
/// decodes one tile at a time, with the file's rotation, mirroring and crop applied
/// (tile positions are those of the upright picture), libvips averages each tile
/// down by a power of two, and the small tiles are joined, cropped to the picture
/// and thumbnailed as any picture is (sRGB through the file's ICC profile).
enum HeifGridDecoder {
    /// The picture fitted in `edge` × `edge`; nil when the primary image is no grid,
    /// is too small for tiles to matter, or is one whose tiles libheif 1.19 misplaces
    /// (another path decodes it whole).
    static func decode(_ primary: HeifPrimaryImage, edge: Int) throws(ThumbnailFailure) -> VipsImageHandle? {
        guard !primary.isMirroredAndQuarterTurned, let grid = Grid(primary.handle, edge: edge) else {
            return nil
        }
        return try grid.decode(primary, edge: edge)
    }

    /// The primary image's tiles, in the upright picture's coordinates, and the
    /// factor each is averaged down by.
    struct Grid {
        var tiling: heif_image_tiling
        var shrink: Int
        var bands: Int

        /// nil when the whole-image path is as good: one tile, more than 8 bits a
        /// sample, or no power of two to shrink by (the picture is within twice `edge`).
        init?(_ handle: OpaquePointer, edge: Int) {
            var tiling = heif_image_tiling()
            guard heif_image_handle_get_image_tiling(handle, 1, &tiling).code == heif_error_Ok,
                tiling.num_columns * tiling.num_rows > 1, tiling.number_of_extra_dimensions == 0,
                heif_image_handle_get_luma_bits_per_pixel(handle) == 8
            else { return nil }
            let longest = Int(max(tiling.image_width, tiling.image_height))
            // Each block of the factor lies in one tile: it divides the tile size and
            // the offset of the first tile.
            let sides = [tiling.tile_width, tiling.tile_height, tiling.left_offset, tiling.top_offset].map(
                Int.init)
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
            let handle = primary.handle
            var tiles: [VipsImageHandle] = []
            for row in 0..<tiling.num_rows {
                for column in 0..<tiling.num_columns {
                    tiles.append(try tile(handle, column: column, row: row))
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
            let (left, top) = (Int(tiling.left_offset) / shrink, Int(tiling.top_offset) / shrink)
            let width = min(Int(tiling.image_width) / shrink, joined.width - left)
            let height = min(Int(tiling.image_height) / shrink, joined.height - top)
            let picture = try joined.derive("crop the tiles") { image, out in
                photofiler_vips_extract_area(image, &out, CInt(left), CInt(top), CInt(width), CInt(height))
            }
            let throughProfile = try primary.attachProfile(to: picture)
            return try picture.derive("scale it") { image, out in
                photofiler_vips_thumbnail_image(image, &out, CInt(edge), throughProfile ? 1 : 0)
            }.inMemory()
        }

        /// One tile decoded by libheif (upright) and averaged down, in memory: the
        /// full-size tile goes before the next is decoded.
        private func tile(_ handle: OpaquePointer, column: UInt32, row: UInt32) throws(ThumbnailFailure)
            -> VipsImageHandle
        {
            var decoded: OpaquePointer?
            let chroma = bands == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
            try HeifPrimaryImage.check(
                heif_image_handle_decode_image_tile(
                    handle, &decoded, heif_colorspace_RGB, chroma, nil, column, row))
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
