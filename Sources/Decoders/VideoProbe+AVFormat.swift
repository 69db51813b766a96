import CAVFormat
import Foundation
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

extension VideoProbe {
    /// Reads the video on `fd` (`size` bytes from `start`: a motion photo's video
    /// lies inside its still) through `pread`, never by a path (a sandboxed helper
    /// cannot open one); the failure is libavformat's message.
    static func read(_ fd: FileDescriptor, size: Int64, from start: Int64 = 0) -> Result<
        VideoProbe, DecoderFailure
    > {
        let input = DescriptorInput(fd: fd, start: start, size: size)
        return withExtendedLifetime(input) { () -> Result<VideoProbe, DecoderFailure> in
            guard let buffer = av_malloc(DescriptorInput.bufferSize) else {
                return .failure(DecoderFailure(reason: "out of memory"))
            }
            guard
                let io = avio_alloc_context(
                    buffer.assumingMemoryBound(to: UInt8.self), Int32(DescriptorInput.bufferSize), 0,
                    Unmanaged.passUnretained(input).toOpaque(), DescriptorInput.readPacket, nil,
                    DescriptorInput.seek)
            else {
                av_free(buffer)
                return .failure(DecoderFailure(reason: "out of memory"))
            }
            // Runs last: libavformat may have swapped the buffer, so free the current one.
            defer {
                withUnsafeMutablePointer(to: &io.pointee.buffer) { av_freep(UnsafeMutableRawPointer($0)) }
                var context: UnsafeMutablePointer<AVIOContext>? = io
                avio_context_free(&context)
            }
            guard let format = avformat_alloc_context() else {
                return .failure(DecoderFailure(reason: "out of memory"))
            }
            format.pointee.pb = io
            return read(format)
        }
    }

    /// Opens `format` (its reader set up); frees it whatever happens.
    private static func read(_ format: UnsafeMutablePointer<AVFormatContext>) -> Result<
        VideoProbe, DecoderFailure
    > {
        var opening: UnsafeMutablePointer<AVFormatContext>? = format
        // On failure libavformat frees the context itself.
        let opened = avformat_open_input(&opening, "", nil, nil)
        guard opened >= 0, let context = opening else {
            return .failure(DecoderFailure(reason: message(opened)))
        }
        defer { avformat_close_input(&opening) }
        // Opening parses the whole `moov` (streams, sizes, rotation, duration). Probing
        // the streams decodes frames (25 ms for a phone clip), so it runs only when
        // the index left the picture size unknown.
        if !hasSizedVideoStream(context) {
            let found = avformat_find_stream_info(context, nil)
            guard found >= 0 else { return .failure(DecoderFailure(reason: message(found))) }
        }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else {
            return .failure(DecoderFailure(reason: "it has no video stream"))
        }
        let parameters = stream.pointee.codecpar.pointee
        var probe = VideoProbe(
            width: Int(parameters.width), height: Int(parameters.height), orientation: orientation(of: stream)
        )
        let duration = context.pointee.duration
        if duration != photofiler_av_nopts_value(), duration > 0 {
            probe.duration = Double(duration) / Double(AV_TIME_BASE)
        }
        probe.creationDate = creationDate(context: context, stream: stream)
        probe.contentIdentifier = value(context.pointee.metadata, "com.apple.quicktime.content.identifier")
            .flatMap { $0.isEmpty || $0.utf8.count > 64 ? nil : $0 }
        return .success(probe)
    }

    private static func hasSizedVideoStream(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        (0..<Int(context.pointee.nb_streams)).contains { index in
            guard let parameters = context.pointee.streams[index]?.pointee.codecpar.pointee else {
                return false
            }
            return parameters.codec_type == AVMEDIA_TYPE_VIDEO && parameters.width > 0
                && parameters.height > 0
        }
    }

    /// libavformat's reader over `size` bytes of a descriptor from `start`:
    /// positioned reads, its own position, nothing read past the range.
    private final class DescriptorInput {
        static let bufferSize = 64 * 1024
        let fd: FileDescriptor
        let start: Int64
        let size: Int64
        var position: Int64 = 0

        init(fd: FileDescriptor, start: Int64, size: Int64) {
            self.fd = fd
            self.start = start
            self.size = size
        }

        static func from(_ opaque: UnsafeMutableRawPointer?) -> DescriptorInput {
            Unmanaged<DescriptorInput>.fromOpaque(opaque!).takeUnretainedValue()
        }

        static let readPacket:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
                opaque, buffer, count in
                let input = from(opaque)
                guard input.position < input.size else { return photofiler_averror_eof() }
                do throws(SystemError) {
                    let wanted = Int(min(Int64(count), input.size - input.position))
                    let got = try input.fd.read(
                        into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted),
                        at: input.start + input.position)
                    guard got > 0 else { return photofiler_averror_eof() }
                    input.position += Int64(got)
                    return Int32(got)
                } catch {
                    return photofiler_averror(error.errno.rawValue)
                }
            }

        static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
            opaque, offset, whence in
            let input = from(opaque)
            if whence & AVSEEK_SIZE != 0 { return input.size }
            let target: Int64
            switch whence & ~AVSEEK_FORCE {
            case SEEK_SET: target = offset
            case SEEK_CUR: target = input.position + offset
            case SEEK_END: target = input.size + offset
            default: return Int64(photofiler_averror(EINVAL))
            }
            guard target >= 0 else { return Int64(photofiler_averror(EINVAL)) }
            input.position = target
            return target
        }
    }

    /// The display matrix turns the picture counter-clockwise by
    /// `av_display_rotation_get` degrees; a phone held upright records -90 (a 90°
    /// clockwise turn to show it), which EXIF calls orientation 6.
    private static func orientation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
            size >= 9 * MemoryLayout<Int32>.size
        else { return 1 }
        let counterClockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) {
            av_display_rotation_get($0)
        }
        guard counterClockwise.isFinite else { return 1 }
        let clockwise = (Int((-counterClockwise).rounded()) % 360 + 360) % 360
        switch clockwise {
        case 90: return 6
        case 180: return 3
        case 270: return 8
        default: return 1
        }
    }

    /// QuickTime's `com.apple.quicktime.creationdate` carries the offset where the
    /// video was taken; the container's `creation_time` is UTC without one (shown
    /// in the machine's zone, SPEC "Capture date").
    private static func creationDate(
        context: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>
    ) -> CaptureDate? {
        if let text = value(context.pointee.metadata, "com.apple.quicktime.creationdate"),
            let parsed = DateTimeText.parse(text),
            let offset = parsed.offset,
            let seconds = parsed.fields.instant(utcOffset: offset, timeZone: .gmt)
        {
            return CaptureDate(secondsSinceEpoch: seconds, utcOffsetSeconds: offset, source: .container)
        }
        for dictionary in [context.pointee.metadata, stream.pointee.metadata] {
            if let text = value(dictionary, "creation_time"), let parsed = DateTimeText.parse(text),
                let seconds = parsed.fields.instant(utcOffset: parsed.offset ?? 0, timeZone: .gmt)
            {
                return CaptureDate(secondsSinceEpoch: seconds, utcOffsetSeconds: nil, source: .container)
            }
        }
        return nil
    }

    private static func value(_ dictionary: OpaquePointer?, _ key: String) -> String? {
        guard let dictionary, let entry = av_dict_get(dictionary, key, nil, 0),
            let value = entry.pointee.value
        else {
            return nil
        }
        return String(cString: value)
    }

    private static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
