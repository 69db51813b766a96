import CAVFormat
import PhotoFilerMedia
import PhotoFilerSystem

/// libavformat reading an open file through its descriptor, never by a path (a
/// sandboxed helper cannot open one): an `AVIOContext` whose callbacks are `pread`
/// over `size` bytes from `start` (a motion photo's video lies inside its still)
/// and a position of its own. The probe (`VideoProbe.read`) and the thumbnailer
/// (`VideoFrame`) open every video through it.
final class DescriptorInput {
    private let reader: Reader
    // Optionals set as the init goes, so a throw after `reader` still runs `deinit`.
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var format: UnsafeMutablePointer<AVFormatContext>?

    /// The range libavformat reads, and the position it believes in.
    final class Reader {
        let fd: FileDescriptor
        let start: Int64
        let size: Int64
        var position: Int64 = 0

        init(fd: FileDescriptor, start: Int64, size: Int64) {
            self.fd = fd
            self.start = start
            self.size = size
        }
    }

    static let bufferSize = 64 * 1024

    /// Opens the video: `size` bytes from `start`, or the whole file. The failure is
    /// libavformat's own message.
    init(_ fd: FileDescriptor, start: Int64 = 0, size: Int64? = nil) throws(DecoderFailure) {
        let length: Int64
        if let size {
            length = size
        } else {
            do {
                length = try fd.status().size - start
            } catch {
                throw DecoderFailure(reason: error.description)
            }
        }
        reader = Reader(fd: fd, start: start, size: length)
        guard let buffer = av_malloc(Self.bufferSize) else { throw DecoderFailure(reason: "out of memory") }
        io = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), CInt(Self.bufferSize), 0,
            Unmanaged.passUnretained(reader).toOpaque(), Self.read, nil, Self.seek)
        guard let io else {
            av_free(buffer)
            throw DecoderFailure(reason: "out of memory")
        }
        var opening = avformat_alloc_context()
        guard let context = opening else { throw DecoderFailure(reason: "out of memory") }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // On failure avformat_open_input frees the context (not our I/O context).
        let opened = avformat_open_input(&opening, nil, nil, nil)
        guard opened >= 0, let context = opening else { throw DecoderFailure(reason: Self.message(opened)) }
        format = context
        // Opening parses the whole `moov` (streams, sizes, rotation, duration). Probing
        // the streams decodes frames (25 ms for a phone clip), so it runs only when
        // the index left the picture size unknown.
        if !Self.hasSizedVideo(context) {
            let found = avformat_find_stream_info(context, nil)
            guard found >= 0 else { throw DecoderFailure(reason: Self.message(found)) }
        }
    }

    /// The opened file, its streams' parameters read, for `body` only: the input
    /// (which frees it) lives until `body` returns.
    func withFormat<R, E: Error>(_ body: (UnsafeMutablePointer<AVFormatContext>) throws(E) -> R) throws(E)
        -> R
    {
        try withExtendedLifetime(self) { () throws(E) -> R in
            // Set whenever the init returned.
            try body(format!)
        }
    }

    deinit {
        avformat_close_input(&format)
        if let io {
            // libavformat may have swapped the buffer: free the current one.
            var buffer: UnsafeMutablePointer<UInt8>? = io.pointee.buffer
            av_freep(&buffer)
        }
        avio_context_free(&io)
    }

    private static func hasSizedVideo(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        (0..<Int(context.pointee.nb_streams)).contains { index in
            guard let parameters = context.pointee.streams[index]?.pointee.codecpar.pointee else {
                return false
            }
            return parameters.codec_type == AVMEDIA_TYPE_VIDEO && parameters.width > 0
                && parameters.height > 0
        }
    }

    /// libavformat's text for an error code.
    static func message(_ code: CInt) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static let read:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, CInt) -> CInt =
            { opaque, buffer, count in
                guard let opaque, let buffer, count > 0 else { return photofiler_averror_eof() }
                let reader = Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
                guard reader.position < reader.size else { return photofiler_averror_eof() }
                do throws(SystemError) {
                    let wanted = Int(min(Int64(count), reader.size - reader.position))
                    let got = try reader.fd.read(
                        into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted),
                        at: reader.start + reader.position)
                    guard got > 0 else { return photofiler_averror_eof() }
                    reader.position += Int64(got)
                    return CInt(got)
                } catch {
                    return photofiler_averror(error.errno.rawValue)
                }
            }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, CInt) -> Int64 = {
        opaque, offset, whence in
        guard let opaque else { return Int64(photofiler_averror(EINVAL)) }
        let reader = Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
        if whence & AVSEEK_SIZE != 0 { return reader.size }
        let base: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = reader.position
        case SEEK_END: base = reader.size
        default: return Int64(photofiler_averror(EINVAL))
        }
        guard base + offset >= 0 else { return Int64(photofiler_averror(EINVAL)) }
        reader.position = base + offset
        return reader.position
    }
}
