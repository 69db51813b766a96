import PhotoFilerMediaTypes

/// A thumbnail request and its answer as they travel, checked on reading: an edge
/// a thumbnail can have, a quality JPEG knows, a few short PNG text chunks.
extension ThumbnailRequest {
    /// The library's and the desktop's sizes are 128 to 1024 pixels.
    static let largestEdge: Int64 = 4096
    static let mostTexts: Int64 = 8

    func write(_ writer: inout WireWriter) {
        switch source {
        case .image:
            writer.byte(0)
        case .video(let rotation):
            writer.byte(1)
            writer.integer(Int64(rotation))
        case .cameraPreview(let orientation):
            writer.byte(2)
            writer.integer(Int64(orientation))
        }
        writer.integer(Int64(renditions.count))
        for rendition in renditions {
            writer.integer(Int64(rendition.edge))
            switch rendition.encoding {
            case .jpeg(let quality):
                writer.byte(0)
                writer.integer(Int64(quality))
            case .png(let texts):
                writer.byte(1)
                writer.integer(Int64(texts.count))
                for text in texts {
                    writer.text(text.key)
                    writer.text(text.value)
                }
            }
        }
    }

    init(_ reader: inout WireReader) throws(WireError) {
        let source: Source
        switch try reader.byte() {
        case 0: source = .image
        case 1:
            let rotation = try reader.integer()
            guard [0, 90, 180, 270].contains(rotation) else { throw .badValue }
            source = .video(rotation: Int(rotation))
        case 2:
            let orientation = try reader.integer()
            guard (1...8).contains(orientation) else { throw .badValue }
            source = .cameraPreview(orientation: Int(orientation))
        default: throw .badValue
        }
        let count = try reader.integer()
        guard (0...Int64(Self.mostRenditions)).contains(count) else { throw .badLength }
        var renditions: [ThumbnailRendition] = []
        for _ in 0..<count {
            let edge = try reader.integer()
            guard (1...Self.largestEdge).contains(edge) else { throw .badValue }
            let encoding: ThumbnailRendition.Encoding
            switch try reader.byte() {
            case 0:
                let quality = try reader.integer()
                guard (1...100).contains(quality) else { throw .badValue }
                encoding = .jpeg(quality: Int(quality))
            case 1:
                let texts = try reader.integer()
                guard (0...Self.mostTexts).contains(texts) else { throw .badLength }
                var chunks: [PNGText] = []
                for _ in 0..<texts {
                    chunks.append(
                        PNGText(key: try reader.text(limit: 79), value: try reader.text(limit: 8192)))
                }
                encoding = .png(text: chunks)
            default: throw .badValue
            }
            renditions.append(ThumbnailRendition(edge: Int(edge), encoding: encoding))
        }
        self.init(source: source, renditions: renditions)
    }
}

/// Where each rendition lies in the output file a helper wrote: one after another
/// from offset 0, in the request's order.
package struct ThumbnailLayout: Equatable, Sendable {
    package struct Part: Equatable, Sendable {
        package var width: Int
        package var height: Int
        package var length: Int64

        package init(width: Int, height: Int, length: Int64) {
            self.width = width
            self.height = height
            self.length = length
        }
    }

    package var parts: [Part]

    package init(parts: [Part]) { self.parts = parts }

    package var wire: [UInt8] {
        var writer = WireWriter()
        writer.integer(Int64(parts.count))
        for part in parts {
            writer.integer(Int64(part.width))
            writer.integer(Int64(part.height))
            writer.integer(part.length)
        }
        return writer.bytes
    }

    /// A layout of at most `mostRenditions` parts, each a picture of at most
    /// `largestEdge` pixels a side and together no longer than `outputSize`.
    package init(wire: [UInt8], outputSize: Int64) throws(WireError) {
        var reader = WireReader(wire)
        let count = try reader.integer()
        guard (0...Int64(ThumbnailRequest.mostRenditions)).contains(count) else { throw .badLength }
        var parts: [Part] = []
        var total: Int64 = 0
        for _ in 0..<count {
            let width = try reader.integer()
            let height = try reader.integer()
            let length = try reader.integer()
            guard (1...ThumbnailRequest.largestEdge).contains(width),
                (1...ThumbnailRequest.largestEdge).contains(height), length > 0, length <= outputSize - total
            else { throw .badValue }
            total += length
            parts.append(Part(width: Int(width), height: Int(height), length: length))
        }
        guard reader.isAtEnd else { throw .badLength }
        self.parts = parts
    }
}
