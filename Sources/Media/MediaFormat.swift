import PhotoFilerMediaTypes
import PhotoFilerSystem

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
    /// Camera RAW (CR2, CR3, CRW, NEF, ARW, ORF, RW2, RAF, PEF): read by exiv2,
    /// never decoded by libvips (which would hand them to ImageMagick).
    case raw

    /// Canon's CR3, the one RAW format Debian's exiv2 (0.27) cannot read.
    package static let canonCR3 = "image/x-canon-cr3"

    /// The MIME types libmagic and exiv2 give camera RAW files; DNG is TIFF (`.tiff`).
    package static let rawMimeTypes: Set<String> = [
        "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw", "image/x-nikon-nef",
        "image/x-sony-arw", "image/x-olympus-orf", "image/x-panasonic-rw2", "image/x-fuji-raf",
        "image/x-pentax-pef",
    ]

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
        case _ where Self.rawMimeTypes.contains(mimeType): self = .raw
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
        case .raw: return "camera RAW"
        }
    }
}
