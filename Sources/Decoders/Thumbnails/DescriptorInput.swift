import CAVCodec
import CAVFormat
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// libavformat reading one open file through its descriptor (positioned reads),
/// never by a path: an `AVIOContext` whose callbacks are `pread` and a position.
final class DescriptorInput {
    private let reader: Reader
    private var io: UnsafeMutablePointer<AVIOContext>?
    private(set) var format: UnsafeMutablePointer<AVFormatContext>?

    /// The file position libavformat believes in, over `pread`.
    final class Reader {
        let fd: FileDescriptor
        let size: Int64
        var position: Int64 = 0

        init(fd: FileDescriptor, size: Int64) {
            self.fd = fd
            self.size = size
        }
    }

    static let bufferSize = 64 * 1024

    init(_ fd: FileDescriptor) throws(ThumbnailFailure) {
        let size: Int64
        do {
            size = try fd.status().size
        } catch {
            throw ThumbnailFailure(error.description)
        }
        reader = Reader(fd: fd, size: size)
        guard let buffer = av_malloc(Self.bufferSize) else { throw ThumbnailFailure("out of memory") }
        io = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), CInt(Self.bufferSize), 0,
            Unmanaged.passUnretained(reader).toOpaque(), Self.read, nil, Self.seek)
        guard let io else {
            av_free(buffer)
            throw ThumbnailFailure("out of memory")
        }
        var opening = avformat_alloc_context()
        guard let context = opening else { throw ThumbnailFailure("out of memory") }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // On failure avformat_open_input frees the context (not our I/O context).
        guard avformat_open_input(&opening, nil, nil, nil) >= 0, let opened = opening else {
            throw ThumbnailFailure("libavformat could not open it")
        }
        format = opened
        if !Self.hasSizedVideo(opened), avformat_find_stream_info(opened, nil) < 0 {
            throw ThumbnailFailure("libavformat could not read its streams")
        }
    }

    deinit {
        avformat_close_input(&format)
        if let io {
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

    private static let read:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, CInt) -> CInt =
            { opaque, buffer, count in
                guard let opaque, let buffer, count > 0 else { return photofiler_av_end_of_file() }
                let reader = Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
                do throws(SystemError) {
                    let got = try reader.fd.read(
                        into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(count)),
                        at: reader.position)
                    guard got > 0 else { return photofiler_av_end_of_file() }
                    reader.position += Int64(got)
                    return CInt(got)
                } catch {
                    return photofiler_averror(error.errno.rawValue)
                }
            }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, CInt) -> Int64 = {
        opaque, offset, whence in
        guard let opaque else { return -1 }
        let reader = Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
        if whence & AVSEEK_SIZE != 0 { return reader.size }
        let base: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = reader.position
        case SEEK_END: base = reader.size
        default: return -1
        }
        guard base + offset >= 0 else { return -1 }
        reader.position = base + offset
        return reader.position
    }
}
