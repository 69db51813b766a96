import CAVCodec
import CAVFormat
import CVips
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// A video's thumbnail: the frame about a tenth into it (past a black first frame,
/// a fade-in), scaled by libswscale to fit the largest edge, turned upright.
enum VideoFrame {
    /// Frames decoded past the seek point at most, looking for the target time.
    static let framesToTarget = 120

    static func decode(_ fd: FileDescriptor, edge: Int, rotation: Int) throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        let input: DescriptorInput
        do {
            input = try DescriptorInput(fd)
        } catch {
            throw ThumbnailFailure("libavformat could not open it (\(error.reason))")
        }
        let picture = try input.withFormat { (format) throws(ThumbnailFailure) in
            try frameAtATenth(format, edge: edge)
        }
        let angle: VipsAngle
        switch rotation {
        case 90: angle = VIPS_ANGLE_D90
        case 180: angle = VIPS_ANGLE_D180
        case 270: angle = VIPS_ANGLE_D270
        default: return picture
        }
        return try picture.derive("turn it") { image, out in photofiler_vips_rot(image, &out, angle) }
    }

    /// The frame about a tenth in, scaled, as the stream stores it (not yet turned).
    private static func frameAtATenth(_ format: UnsafeMutablePointer<AVFormatContext>, edge: Int)
        throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = format.pointee.streams[Int(index)] else {
            throw ThumbnailFailure("it has no video stream libavcodec can decode")
        }
        var codec = avcodec_alloc_context3(decoder)
        defer { avcodec_free_context(&codec) }
        guard let codec, avcodec_parameters_to_context(codec, stream.pointee.codecpar) >= 0 else {
            throw ThumbnailFailure("libavcodec could not set up its decoder")
        }
        // One thread: a thumbnail is one frame, and each thread keeps frames of its own.
        codec.pointee.thread_count = 1
        guard avcodec_open2(codec, decoder, nil) >= 0 else {
            throw ThumbnailFailure("libavcodec could not open its decoder")
        }
        let target = tenthIn(format, stream)
        if target > 0 {
            // To the keyframe before the target; from there, decode up to it.
            _ = av_seek_frame(format, index, target, AVSEEK_FLAG_BACKWARD)
        }
        let frame = try frameNear(target, format: format, stream: index, codec: codec)
        defer {
            var unowned: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&unowned)
        }
        return try rgb(frame, edge: edge)
    }

    /// A tenth of the duration, in the stream's time base; 0 when unknown.
    private static func tenthIn(
        _ format: UnsafeMutablePointer<AVFormatContext>, _ stream: UnsafeMutablePointer<AVStream>
    ) -> Int64 {
        let duration = format.pointee.duration
        guard duration != photofiler_av_nopts_value(), duration > 0 else { return 0 }
        let base = stream.pointee.time_base
        guard base.num > 0, base.den > 0 else { return 0 }
        let start = stream.pointee.start_time == photofiler_av_nopts_value() ? 0 : stream.pointee.start_time
        return start + av_rescale_q(duration / 10, AVRational(num: 1, den: AV_TIME_BASE), base)
    }

    /// The first frame at or past `target` (or the last one decoded, for a short clip).
    private static func frameNear(
        _ target: Int64, format: UnsafeMutablePointer<AVFormatContext>, stream: Int32,
        codec: UnsafeMutablePointer<AVCodecContext>
    ) throws(ThumbnailFailure) -> UnsafeMutablePointer<AVFrame> {
        guard let packet = av_packet_alloc() else { throw ThumbnailFailure("out of memory") }
        defer {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
        guard let frame = av_frame_alloc(), let kept = av_frame_alloc() else {
            throw ThumbnailFailure("out of memory")
        }
        var scratch: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&scratch) }
        var decoded = 0
        var ended = false
        /// Takes the frames the decoder has ready; true once one reaches the target.
        func drain() -> Bool {
            while avcodec_receive_frame(codec, frame) == 0 {
                av_frame_unref(kept)
                av_frame_move_ref(kept, frame)
                decoded += 1
                let time = kept.pointee.best_effort_timestamp
                if time == photofiler_av_nopts_value() || time >= target || decoded >= framesToTarget {
                    return true
                }
            }
            return false
        }
        while !ended {
            if av_read_frame(format, packet) < 0 {
                ended = true
                _ = avcodec_send_packet(codec, nil)  // flush the frames it holds back
                if drain() { break }
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream else { continue }
            _ = avcodec_send_packet(codec, packet)
            if drain() { break }
        }
        guard decoded > 0 else {
            var unused: UnsafeMutablePointer<AVFrame>? = kept
            av_frame_free(&unused)
            throw ThumbnailFailure("libavcodec decoded no frame of it")
        }
        return kept
    }

    /// The frame as 8-bit RGB, its longest displayed edge at most `edge`.
    private static func rgb(_ frame: UnsafeMutablePointer<AVFrame>, edge: Int) throws(ThumbnailFailure)
        -> VipsImageHandle
    {
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw ThumbnailFailure("its frames have no size") }
        // Non-square pixels (some camcorders) are shown wider or narrower than stored.
        var shownWidth = Double(width)
        let aspect = frame.pointee.sample_aspect_ratio
        if aspect.num > 0, aspect.den > 0 { shownWidth *= Double(aspect.num) / Double(aspect.den) }
        let scale = min(1, Double(edge) / max(shownWidth, Double(height)))
        let outWidth = max(1, Int((shownWidth * scale).rounded()))
        let outHeight = max(1, Int((Double(height) * scale).rounded()))
        guard
            let scaler = sws_getContext(
                CInt(width), CInt(height), AVPixelFormat(frame.pointee.format), CInt(outWidth),
                CInt(outHeight),
                AV_PIX_FMT_RGB24, SWS_AREA, nil, nil, nil)
        else { throw ThumbnailFailure("libswscale cannot convert its pixel format") }
        defer { sws_freeContext(scaler) }
        // The matrix the stream declares (BT.709 for HD, BT.2020 for HDR phone video;
        // libswscale assumes BT.601 unless told), and whether its range is full. A
        // stream that declares none, or a reserved one, gets libswscale's BT.601 from
        // the same call (its table has BT.601 at those numbers).
        let fullRange: CInt = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let matrix = CInt(frame.pointee.colorspace.rawValue)
        _ = sws_setColorspaceDetails(
            scaler, sws_getCoefficients(matrix), fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0,
            1 << 16, 1 << 16)
        // libswscale's SIMD paths write whole blocks of pixels past the last one of a
        // row (a width that is not a multiple of 16 overran a tight buffer and broke
        // the heap): its destination comes from av_image_alloc, whose rows are aligned
        // and padded as libswscale expects, and only the picture is copied out of it.
        var planes: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil, nil]
        var strides: [CInt] = [0, 0, 0, 0]
        guard av_image_alloc(&planes, &strides, CInt(outWidth), CInt(outHeight), AV_PIX_FMT_RGB24, 64) >= 0,
            let destination = planes[0]
        else { throw ThumbnailFailure("out of memory") }
        defer { av_freep(&planes) }
        let rows = withUnsafePointer(to: &frame.pointee.data) { data in
            withUnsafePointer(to: &frame.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { source in
                    linesize.withMemoryRebound(to: CInt.self, capacity: 8) { sourceStride in
                        sws_scale(scaler, source, sourceStride, 0, CInt(height), &planes, &strides)
                    }
                }
            }
        }
        guard rows == CInt(outHeight) else {
            throw ThumbnailFailure("libswscale could not convert its frame")
        }
        let rowBytes = outWidth * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * outHeight) { buffer, count in
            for row in 0..<outHeight {
                let from = destination + row * Int(strides[0])
                (buffer.baseAddress! + row * rowBytes).initialize(from: from, count: rowBytes)
            }
            count = rowBytes * outHeight
        }
        let image = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy(
                $0.baseAddress, $0.count, CInt(outWidth), CInt(outHeight), 3, VIPS_FORMAT_UCHAR)
        }
        guard let image else { throw VipsErrors.take("take the frame") }
        return VipsImageHandle(image)
    }
}
