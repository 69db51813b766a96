import CVips
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A HEIF file's primary image, opened once by libheif for the decoders that read
/// it without libvips' heifload (a grid tile by tile, one image as planes).
final class HeifPrimaryImage {
    let handle: OpaquePointer
    private let context: OpaquePointer
    /// libheif reads through it until the context is freed: it is released after
    /// `deinit` has freed the context.
    private let reader: HeifFileReader

    private init(handle: OpaquePointer, context: OpaquePointer, reader: HeifFileReader) {
        self.handle = handle
        self.context = context
        self.reader = reader
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
    }

    /// The primary image of the file at `fd`; nil when it is no HEIF file libheif decodes.
    static func open(_ fd: FileDescriptor, size: Int64) throws(ThumbnailFailure) -> HeifPrimaryImage? {
        guard size >= 12 else { return nil }
        let head = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { head.deallocate() }
        let count: Int
        do {
            count = try fd.read(into: head, at: 0)
        } catch {
            throw ThumbnailFailure(error.description)
        }
        // The brands in the ftyp box: libheif says "maybe" for a plain `mif1` file
        // (libheif's own example), which it reads as well.
        let kind = heif_check_filetype(head.baseAddress!.assumingMemoryBound(to: UInt8.self), CInt(count))
        guard kind == heif_filetype_yes_supported || kind == heif_filetype_maybe else { return nil }
        let reader = HeifFileReader(fd: fd, size: size)
        guard let context = heif_context_alloc() else { throw ThumbnailFailure("out of memory") }
        let opened = reader.open(context)
        var primary: OpaquePointer?
        let found =
            opened.code == heif_error_Ok ? heif_context_get_primary_image_handle(context, &primary) : opened
        guard found.code == heif_error_Ok, let primary else {
            // The error's message belongs to the context: read it before the context goes.
            defer { heif_context_free(context) }
            // Not HEIF after all: libvips' loaders say what it is.
            if kind == heif_filetype_maybe { return nil }
            try check(found)
            throw ThumbnailFailure("libheif found no primary image")
        }
        return HeifPrimaryImage(handle: primary, context: context, reader: reader)
    }

    /// The size the picture is shown at: libheif gives the primary image's with its
    /// transformations applied (the `ispe` box holds the stored one).
    var displaySize: PixelSize {
        PixelSize(
            width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle))
        )
    }

    /// One of the primary image's transformative properties, in the order a reader
    /// applies them to the stored picture (its `ipma` order: clap, irot, imir).
    enum Transformation {
        /// `clap`: its borders depend on the size of the picture it is applied to.
        case crop(heif_property_id)
        /// `irot`: quarter turns counter-clockwise, in degrees.
        case turn(counterClockwise: Int)
        /// `imir`: true when left and right are swapped, false when top and bottom are.
        case mirror(leftAndRight: Bool)
    }

    var transformations: [Transformation] {
        let item = heif_image_handle_get_item_id(handle)
        var properties = [heif_property_id](repeating: 0, count: 8)
        let count = Int(heif_item_get_transformation_properties(context, item, &properties, 8))
        return properties.prefix(count).compactMap { property in
            switch heif_item_get_property_type(context, item, property) {
            case heif_item_property_type_transform_crop: .crop(property)
            case heif_item_property_type_transform_rotation:
                .turn(
                    counterClockwise: Int(
                        heif_item_get_property_transform_rotation_ccw(context, item, property)))
            case heif_item_property_type_transform_mirror:
                .mirror(
                    leftAndRight: heif_item_get_property_transform_mirror(context, item, property)
                        == heif_transform_mirror_direction_horizontal)
            default: nil
            }
        }
    }

    /// The pixels a `clap` property cuts off each side of a picture of `size`.
    func cropBorders(_ property: heif_property_id, of size: PixelSize) -> (
        left: Int, top: Int, right: Int, bottom: Int
    ) {
        var (left, top, right, bottom): (CInt, CInt, CInt, CInt) = (0, 0, 0, 0)
        heif_item_get_property_transform_crop_borders(
            context, heif_image_handle_get_item_id(handle), property, CInt(size.width), CInt(size.height),
            &left, &top, &right, &bottom)
        return (Int(left), Int(top), Int(right), Int(bottom))
    }

    /// Puts the file's ICC profile (a Display P3 iPhone picture) on `picture`, as
    /// libvips' heifload does; whether there was one. An nclx description alone
    /// is sRGB-like and, as in heifload, converts nothing.
    func attachProfile(to picture: VipsImageHandle) throws(ThumbnailFailure) -> Bool {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else {
            return false
        }
        let count = heif_image_handle_get_raw_color_profile_size(handle)
        guard count > 0 else { return false }
        var profile = [UInt8](repeating: 0, count: count)
        let read = profile.withUnsafeMutableBytes { buffer in
            heif_image_handle_get_raw_color_profile(handle, buffer.baseAddress)
        }
        try Self.check(read)
        profile.withUnsafeBytes { buffer in
            vips_image_set_blob_copy(picture.image, "icc-profile-data", buffer.baseAddress, count)
        }
        return true
    }

    /// A libheif error as a failure, in libheif's own words.
    static func check(_ error: heif_error) throws(ThumbnailFailure) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? ""
        throw ThumbnailFailure(message.isEmpty ? "libheif could not decode it" : "libheif: \(message)")
    }
}
