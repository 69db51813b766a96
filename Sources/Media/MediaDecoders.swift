import PhotoFilerMediaTypes
import PhotoFilerSystem

/// The decoders a reader maps beyond libmagic and exiv2: libvips, libheif and
/// libavformat (`PhotoFilerDecoders.LibraryDecoders`).
///
/// Most files a chat app drops (JPEGs, HEICs, WebPs, camera files) are read with
/// libmagic and exiv2 alone, so the helper that reads them first,
/// `photofiler-helper-light`, is built without the decoders: it maps 23 shared
/// libraries instead of 172, and its start (loading, libmagic's database, the
/// lockdown) takes about 8 ms of CPU instead of 60 (the first file after an idle
/// minute waits for it). A file that needs a decoder (a PNG, a GIF,
/// a video, an image exiv2 finds no size in, a HEIF that states no EXIF
/// orientation) is refused with `needsDecoders`, and
/// the pool hands it to `photofiler-helper`, which has them.
package protocol MediaDecoders {
    /// A still's header as libvips' loader reads it, errors made fatal.
    func imageHeader(_ bytes: UnsafeRawBufferPointer) -> Result<ImageHeader, DecoderFailure>
    /// A video's index, `length` bytes of `fd` from `offset` (a motion photo's video
    /// lies inside its still).
    func video(_ fd: FileDescriptor, length: Int64, from offset: Int64) -> Result<VideoProbe, DecoderFailure>
    /// A HEIF still's size as it is shown: its primary image with the `irot`, `imir`
    /// and `clap` properties applied (libheif reads its boxes; no pixel is decoded).
    func heifDisplaySize(_ fd: FileDescriptor, size: Int64) -> Result<PixelSize, DecoderFailure>
    /// The renditions `request` lists of the file on `fd`, in its order.
    func thumbnails(_ fd: FileDescriptor, size: Int64, _ request: ThumbnailRequest) throws(ThumbnailFailure)
        -> [EncodedThumbnail]
}

/// What libvips' loaders say from a header read: the frame count of an animated
/// GIF or WebP, a pixel size when exiv2 has none, and whether the loader (libpng,
/// libwebp, cgif) accepts the file at all with errors made fatal (a PNG whose
/// IHDR CRC is broken is refused). No pixels are decoded.
package struct ImageHeader: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// Frames (`n-pages`): above 1 for an animation.
    package var pages: Int

    package init(width: Int, height: Int, pages: Int) {
        self.width = width
        self.height = height
        self.pages = pages
    }
}

/// What libavformat says about a video: that its index (`moov`) can be read and
/// has a video stream, its size, rotation, duration and creation date.
package struct VideoProbe: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// Orientation as EXIF spells it: 6 for a 90° clockwise turn, 3 for 180°, 8 for 270°.
    package var orientation: Int
    package var duration: Double?
    package var creationDate: CaptureDate?
    /// The Live Photo identifier an iPhone writes into the video's QuickTime keys.
    package var contentIdentifier: String?
    /// `com.android.capture.fps`: the rate a phone captured a slow-motion or time-lapse video at.
    package var captureFrameRate: Double?
    /// `com.apple.quicktime.full-frame-rate-playback-intent`: 0 for an iPhone's slo-mo.
    package var playbackIntent: Int?
    /// The video stream's average frame rate.
    package var frameRate: Double?

    package init(
        width: Int, height: Int, orientation: Int, duration: Double? = nil, creationDate: CaptureDate? = nil,
        contentIdentifier: String? = nil
    ) {
        self.width = width
        self.height = height
        self.orientation = orientation
        self.duration = duration
        self.creationDate = creationDate
        self.contentIdentifier = contentIdentifier
    }
}

/// A picture's width and height in pixels.
package struct PixelSize: Sendable, Equatable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// A decoder's refusal, in its library's words (for the debug log).
package struct DecoderFailure: Error, Sendable {
    package let reason: String

    package init(reason: String) {
        self.reason = reason
    }
}
