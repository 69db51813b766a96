/// What one decode of a file is to produce (in a helper: the daemon only asks): the renditions, each a
/// longest edge and an encoding. The library's JPEGs (256, 1024) and the desktop's PNGs (128 to 1024, one
/// per size) come from the same decoded picture.
package struct ThumbnailRequest: Sendable, Equatable {
    /// How the pixels are reached; the catalog already knows which (and the turn).
    package enum Source: Sendable, Equatable {
        /// A still or animated image libvips (with libheif) decodes; EXIF orientation
        /// is applied by the decoder.
        case image
        /// A frame about a tenth into a video, turned by its display rotation
        /// (degrees clockwise: 0, 90, 180, 270).
        case video(rotation: Int)
        /// A camera RAW or DNG file: the largest preview its camera embedded, turned
        /// by the file's EXIF orientation (1–8).
        case cameraPreview(orientation: Int)
    }

    package var source: Source
    package var renditions: [ThumbnailRendition]

    /// The most renditions one request carries, so that a helper's output (its file
    /// is bounded by `RLIMIT_FSIZE`) stays small. The library asks for six at most (two
    /// JPEGs, four desktop sizes: each path's text is put in afterwards).
    package static let mostRenditions = 16

    package init(source: Source, renditions: [ThumbnailRendition]) {
        self.source = source
        self.renditions = renditions
    }

    /// The longest edge the decode has to deliver: the largest rendition's.
    package var largestEdge: Int { renditions.map(\.edge).max() ?? 0 }
}

/// One output: a picture whose longest edge is `edge` (or less: never enlarged).
package struct ThumbnailRendition: Sendable, Equatable {
    package enum Encoding: Sendable, Equatable {
        case jpeg(quality: Int)
        /// An 8-bit RGBA PNG carrying `text` as tEXt chunks (the freedesktop keys).
        case png(text: [PNGText])
    }

    package var edge: Int
    package var encoding: Encoding

    package init(edge: Int, encoding: Encoding) {
        self.edge = edge
        self.encoding = encoding
    }

    package static func jpeg(_ edge: Int) -> ThumbnailRendition {
        ThumbnailRendition(edge: edge, encoding: .jpeg(quality: 82))
    }
}

/// A PNG text chunk: `Thumb::URI` → `file:///…`.
package struct PNGText: Sendable, Equatable {
    package var key: String
    package var value: String

    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One encoded rendition, in the order the request listed them.
package struct EncodedThumbnail: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var bytes: [UInt8]

    package init(width: Int, height: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// Why a file gave no thumbnail: the decoder's own words.
package struct ThumbnailFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    /// Not the file's doing (no helper could be had: the process is stopping, the
    /// helper is not installed): the thumbnail is tried again later.
    package var isTransient: Bool

    package init(_ reason: String, isTransient: Bool = false) {
        self.reason = reason
        self.isTransient = isTransient
    }

    package var description: String { reason }
}

extension ThumbnailRequest.Source {
    /// How the pixels of a file the reader described are reached.
    package init(_ info: MediaInfo) {
        if info.mediaType == .video {
            self = .video(rotation: info.rotation ?? 0)
        } else if info.subtypes.contains("raw") {
            self = .cameraPreview(orientation: info.orientation)
        } else {
            self = .image
        }
    }
}
