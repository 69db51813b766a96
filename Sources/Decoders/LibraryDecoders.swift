import CAVFormat
import CVips
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// libvips, libheif and libavformat behind `MediaDecoders`: what `photofiler-helper`
/// (and the tests that read in process) give their `MediaReader`, and what makes
/// thumbnails.
package struct LibraryDecoders: MediaDecoders {
    private let maker: ThumbnailMaker

    /// Starts the libraries (once a process: exiv2's, then the decoders').
    package init() throws(MediaError) {
        try DecoderLibraries.start()
        maker = try ThumbnailMaker()
    }

    package func imageHeader(_ bytes: UnsafeRawBufferPointer) -> Result<ImageHeader, DecoderFailure> {
        ImageHeader.read(bytes: bytes)
    }

    package func video(_ fd: FileDescriptor, length: Int64, from offset: Int64) -> Result<
        VideoProbe, DecoderFailure
    > {
        VideoProbe.read(fd, size: length, from: offset)
    }

    package func heifDisplaySize(_ fd: FileDescriptor, size: Int64) -> Result<PixelSize, DecoderFailure> {
        do throws(ThumbnailFailure) {
            guard let image = try HeifPrimaryImage.open(fd, size: size) else {
                return .failure(DecoderFailure(reason: "libheif does not read it as HEIF"))
            }
            return .success(image.displaySize)
        } catch {
            return .failure(DecoderFailure(reason: error.reason))
        }
    }

    package func thumbnails(_ fd: FileDescriptor, size: Int64, _ request: ThumbnailRequest)
        throws(ThumbnailFailure) -> [EncodedThumbnail]
    {
        try maker.make(fd, size: size, request)
    }
}

/// Process-wide start-up of libvips, libheif and libavformat: each wants one
/// initialisation per process, so it happens once, on first use, thread-safely
/// (a global `let` is initialised under `swift_once`).
package enum DecoderLibraries {
    package static func start() throws(MediaError) {
        try MediaLibraries.start()
        if let failure = startup { throw failure }
    }
}

private let startup: MediaError? = {
    MediaLibraryLog.forwardGLib(domain: "VIPS")
    if vips_init("photofiler") != 0 {
        let reason = String(cString: vips_error_buffer())
        vips_error_clear()
        return .libraryUnavailable(name: "libvips", reason: reason)
    }
    // Where vips_init loaded no module (a helper: PhotoPlugins), the ones it needs.
    PhotoPlugins.loadVipsModules()
    // Only the loaders libvips fuzzes (JPEG, PNG, GIF, WebP, TIFF, HEIF): bytes that
    // libmagic took for a photo but that sniff as ImageMagick's, poppler's, OpenSlide's,
    // PPM's, FITS's or Matlab's are refused rather than handed to a parser nobody fuzzed.
    vips_block_untrusted_set(1)
    // No run-time generated (orc) vector code: the helpers' filter forbids executable
    // memory, and the scaling is as right without it, only slower.
    vips_vector_set_enabled(0)
    photofiler_heif_initialize()
    PhotoPlugins.loadHeifPlugins()
    // The operation cache keeps every opened image alive: unbounded growth in a daemon.
    vips_cache_set_max(0)
    av_log_set_level(AV_LOG_QUIET)
    return nil
}()
