import PhotoFilerMediaTypes
import PhotoFilerSystem

/// The chunk list of a WebP file (RIFF): complete when the chunks fill the RIFF
/// length, animated when it holds more than one `ANMF` frame.
///
/// Walked with a few `pread`s instead of asking libvips, whose WebP header read
/// costs about 1.3 ms (it sets up a decoder), ten times everything else together.
package enum WebPChunks {
    package static func frameCount(head: [UInt8], file: FileBytes) throws(MediaError) -> Int {
        guard head.count >= 12 else { throw .truncated(path: file.path, format: "WebP") }
        let riffEnd = Int64(head.littleEndian32(at: 4)) + 8
        guard riffEnd <= file.size else { throw .truncated(path: file.path, format: "WebP") }
        var offset: Int64 = 12
        var frames = 0
        var images = 0
        var chunks = 0
        while offset + 8 <= riffEnd {
            chunks += 1
            guard chunks <= 1_000_000 else {
                throw .damaged(path: file.path, format: "WebP", reason: "too many chunks")
            }
            let header = try file.read(at: offset, count: 8)
            guard header.count == 8 else { throw .truncated(path: file.path, format: "WebP") }
            let size = Int64(header.littleEndian32(at: 4))
            // Payloads are padded to an even length.
            let next = offset + 8 + size + (size & 1)
            guard next <= riffEnd + (size & 1) else { throw .truncated(path: file.path, format: "WebP") }
            switch String(decoding: header[0..<4], as: UTF8.self) {
            case "ANMF": frames += 1
            case "VP8 ", "VP8L": images += 1
            default: break
            }
            offset = next
        }
        guard frames + images > 0 else {
            throw .damaged(path: file.path, format: "WebP", reason: "it holds no image")
        }
        return max(frames, 1)
    }
}
