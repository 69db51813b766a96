import CAVFormat
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
        let input: DescriptorInput
        do {
            input = try DescriptorInput(fd, start: start, size: size)
        } catch {
            return .failure(error)
        }
        return input.withFormat(probe)
    }

    /// What the opened file's best video stream and its container say.
    private static func probe(_ context: UnsafeMutablePointer<AVFormatContext>) -> Result<
        VideoProbe, DecoderFailure
    > {
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
        // The keys of the phone's kinds of videos: numbers, or nothing (a sanity check of
        // their range is `PictureKinds`').
        probe.captureFrameRate = value(context.pointee.metadata, "com.android.capture.fps").flatMap(
            Double.init)
        probe.playbackIntent = value(
            context.pointee.metadata, "com.apple.quicktime.full-frame-rate-playback-intent"
        ).flatMap { Int($0) }
        let rate = stream.pointee.avg_frame_rate
        if rate.num > 0, rate.den > 0 { probe.frameRate = Double(rate.num) / Double(rate.den) }
        return .success(probe)
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
    /// in the machine's zone, photofiler(1) "Capture date").
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
}
