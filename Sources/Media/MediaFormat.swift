import PhotoFilerMediaTypes

/// The supported formats, told apart by libmagic's MIME type: each has its own
/// completeness check and its own metadata source.
package enum MediaFormat: Equatable {
    case jpeg, png, gif, webp
    /// HEIC, HEIF and AVIF: ISO-BMFF stills, read by exiv2.
    case heif
    /// TIFF, and DNG once its `DNGVersion` tag is seen (libmagic calls DNG TIFF).
    case tiff
    /// MP4, MOV, 3GP, M4V: ISO-BMFF video, read by libavformat.
    case video

    package init?(mimeType: String) {
        switch mimeType {
        case "image/jpeg": self = .jpeg
        case "image/png": self = .png
        case "image/gif": self = .gif
        case "image/webp": self = .webp
        case "image/heic", "image/heif", "image/avif", "image/heic-sequence", "image/heif-sequence",
            "image/avif-sequence":
            self = .heif
        case "image/tiff", "image/x-adobe-dng": self = .tiff
        case "video/mp4", "video/quicktime", "video/3gpp", "video/3gpp2", "video/x-m4v": self = .video
        default: return nil
        }
    }

    package var mediaType: MediaType { self == .video ? .video : .image }

    /// The name people know the format by, for messages.
    package var displayName: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        case .heif: return "HEIF"
        case .tiff: return "TIFF"
        case .video: return "video"
        }
    }
}
