import CVips
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A camera RAW or DNG file's thumbnail: Debian's libvips 8.14 has no RAW loader,
/// so the pixels are the largest preview exiv2 finds (the camera's own JPEG, or a
/// small TIFF), turned by the file's orientation.
enum CameraPreview {
    /// Camera files past this are not read into memory for a preview.
    static let largestFile: Int64 = 256 * 1024 * 1024

    static func decode(_ fd: FileDescriptor, size: Int64, edge: Int, orientation: Int)
        throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        guard size > 0, size <= largestFile else {
            throw ThumbnailFailure("it is too large to look for a preview")
        }
        let bytes = try readAll(fd, size: Int(size))
        var failure = ThumbnailFailure("it has no embedded preview")
        // Largest first; a preview whose data was stripped (a stub) gives way to the next.
        for rank in 0..<maximumPreviews {
            let preview: [UInt8]
            switch EmbeddedPreview.bytes(in: bytes, rank: rank) {
            case .failure: throw ThumbnailFailure("exiv2 failed on its previews")
            case .success(nil): throw failure
            case .success(let found?): preview = found
            }
            do {
                return try upright(decodePreview(preview, edge: edge), orientation)
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// Previews tried at most: cameras embed two or three.
    static let maximumPreviews = 4

    private static func decodePreview(_ bytes: [UInt8], edge: Int) throws(ThumbnailFailure) -> VipsImageHandle
    {
        let decoded = bytes.withUnsafeBufferPointer { buffer -> Result<VipsImageHandle, ThumbnailFailure> in
            var out: UnsafeMutablePointer<VipsImage>?
            let start = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
            guard photofiler_vips_thumbnail_buffer(start, buffer.count, &out, CInt(edge)) == 0, let out else {
                return .failure(VipsErrors.take("decode its preview"))
            }
            // In memory while the preview's bytes are still there.
            return Result { () throws(ThumbnailFailure) in try VipsImageHandle(out).inMemory() }
        }
        return try decoded.get()
    }

    /// A preview carries no orientation of its own: the file's is applied.
    private static func upright(_ upright: VipsImageHandle, _ orientation: Int) throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        guard (2...8).contains(orientation) else { return upright }
        let tagged = try upright.derive("copy it") { image, result in photofiler_vips_copy(image, &result) }
        vips_image_set_int(tagged.image, "orientation", CInt(orientation))
        return try tagged.derive("turn it") { image, result in photofiler_vips_autorot(image, &result) }
    }

    private static func readAll(_ fd: FileDescriptor, size: Int) throws(ThumbnailFailure) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var done = 0
        do throws(SystemError) {
            while done < size {
                let got = try fd.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: Int64(done))
                if got == 0 { break }
                done += got
            }
        } catch {
            throw ThumbnailFailure(error.description)
        }
        return Array(buffer[..<done])
    }
}
