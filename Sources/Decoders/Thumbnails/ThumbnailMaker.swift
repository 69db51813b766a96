import CVips
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Makes thumbnails: an open, read-only file in, encoded JPEG and PNG bytes out.
///
/// It opens no path and writes nothing: the bytes come from the descriptor it is
/// handed, and the caller stores what it returns. That is what lets it run as one
/// more request kind inside a sandboxed helper, where the only file is that one.
///
/// One decode per file: the largest rendition is decoded with shrink-on-load, and
/// every smaller one is scaled down from it. libvips, libavcodec and exiv2 state is
/// per call, so makers on different queues do not meet; one maker is used on one
/// queue at a time.
package struct ThumbnailMaker {
    package init() throws(MediaError) {
        try DecoderLibraries.start()
    }

    /// The renditions `request` lists, in its order.
    package func make(_ fd: FileDescriptor, size: Int64, _ request: ThumbnailRequest) throws(ThumbnailFailure)
        -> [EncodedThumbnail]
    {
        let edge = request.largestEdge
        guard edge > 0 else { return [] }
        let decoded: VipsImageHandle
        switch request.source {
        case .image:
            decoded = try decodeImage(fd, size: size, edge: edge)
        case .video(let rotation):
            decoded = try VideoFrame.decode(fd, edge: edge, rotation: rotation)
        case .cameraPreview(let orientation):
            decoded = try CameraPreview.decode(fd, size: size, edge: edge, orientation: orientation)
        }
        var scaled: [Int: VipsImageHandle] = [:]
        // A picture smaller than two sizes is the same picture at both: encoded once.
        var encoded: [Int: [UInt8]] = [:]
        return try request.renditions.enumerated().map { (index, rendition) throws(ThumbnailFailure) in
            let picture: VipsImageHandle
            if let known = scaled[rendition.edge] {
                picture = known
            } else {
                picture = try Self.fit(decoded, edge: rendition.edge)
                scaled[rendition.edge] = picture
            }
            let same = request.renditions[..<index].firstIndex {
                $0.encoding == rendition.encoding && scaled[$0.edge] === picture
            }
            let bytes: [UInt8]
            if let same, let known = encoded[same] {
                bytes = known
            } else {
                bytes = try ThumbnailEncoder.encode(picture, rendition)
            }
            encoded[index] = bytes
            return EncodedThumbnail(width: picture.width, height: picture.height, bytes: bytes)
        }
    }

    private func decodeImage(_ fd: FileDescriptor, size: Int64, edge: Int) throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        if let heif = try HeifPrimaryImage.open(fd, size: size) {
            // A phone's HEIC is a grid of tiles: decoded one tile at a time, never whole.
            if let tiled = try HeifGridDecoder.decode(heif, edge: edge) { return tiled }
            // One image: its YCbCr planes, never a full-size RGB copy.
            if let planes = try HeifPlanesDecoder.decode(heif, edge: edge) { return planes }
        }
        return try decodeWhole(fd, edge: edge)
    }

    /// libvips' own thumbnail of the file (shrink-on-load where the format has it).
    func decodeWhole(_ fd: FileDescriptor, edge: Int) throws(ThumbnailFailure) -> VipsImageHandle {
        let header = try Header(fd)
        // libvips reads through its own dup of the descriptor.
        guard let source = vips_source_new_from_descriptor(fd.rawValue) else {
            throw VipsErrors.take("read the file")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(source)) }
        var out: UnsafeMutablePointer<VipsImage>?
        if header.isTIFF {
            guard let page = photofiler_vips_open_first_page(source) else {
                throw VipsErrors.take("decode it")
            }
            let first = VipsImageHandle(page)
            return try first.derive("scale it") { image, out in
                photofiler_vips_thumbnail_image(image, &out, CInt(edge), header.hasProfile ? 1 : 0)
            }.inMemory()
        }
        guard photofiler_vips_thumbnail_source(source, &out, CInt(edge), header.hasProfile ? 1 : 0) == 0,
            let out
        else {
            throw VipsErrors.take("decode it")
        }
        // The pixels are computed lazily: make them now, while the source is open,
        // and once for every rendition made from them.
        return try VipsImageHandle(out).inMemory()
    }

    /// What the file's header says of how to decode it: no pixels are read.
    private struct Header {
        /// Whether it embeds an ICC profile (a Display P3 iPhone picture, an Adobe RGB
        /// export) that lcms can read: one that is not (a few bytes where 128 make
        /// its header) is left out, as a viewer would, rather than failing the picture.
        var hasProfile: Bool
        var isTIFF: Bool

        init(_ fd: FileDescriptor) throws(ThumbnailFailure) {
            guard let source = vips_source_new_from_descriptor(fd.rawValue) else {
                throw VipsErrors.take("read the file")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(source)) }
            guard let header = photofiler_vips_open_source(source) else { throw VipsErrors.take("decode it") }
            defer { g_object_unref(UnsafeMutableRawPointer(header)) }
            var loader: UnsafePointer<CChar>?
            isTIFF =
                vips_image_get_string(header, "vips-loader", &loader) == 0
                && loader.map { String(cString: $0).hasPrefix("tiffload") } == true
            var data: UnsafeRawPointer?
            var length = 0
            guard vips_image_get_typeof(header, "icc-profile-data") != 0,
                vips_image_get_blob(header, "icc-profile-data", &data, &length) == 0, let data, length >= 128
            else {
                hasProfile = false
                return
            }
            // Every ICC profile says `acsp` at byte 36 of its header.
            hasProfile = (36..<40).map { data.load(fromByteOffset: $0, as: UInt8.self) } == Array("acsp".utf8)
        }
    }

    /// `picture` scaled down so that its longest edge is `edge`; itself when it already fits.
    static func fit(_ picture: VipsImageHandle, edge: Int) throws(ThumbnailFailure) -> VipsImageHandle {
        let longest = max(picture.width, picture.height)
        guard longest > edge else { return picture }
        let scale = Double(edge) / Double(longest)
        return try picture.derive("scale it") { image, out in photofiler_vips_resize(image, &out, scale) }
    }
}
