/// The phone's kinds of pictures (docs/photofiler.1.scd, KINDS OF PICTURES): which of
/// `panorama`, `selfie`, `portrait`, `burst`, `slomo` and `timelapse` a file is, from
/// what its own metadata says. Pure rules on values already read, so each one is a
/// row of a table test; a value out of its sane range says nothing rather than
/// something wrong.
package enum PictureKinds {
    /// What the readers found; every field nil (or empty) when the file does not say it.
    package struct Signals: Sendable, Equatable {
        /// Apple MakerNote `FrontFacingCamera` (1: the front camera).
        package var frontFacingCamera: Int?
        /// Apple MakerNote `ImageCaptureType` (2: Portrait mode).
        package var imageCaptureType: Int?
        /// Apple MakerNote `BurstUUID`, else XMP `GCamera:BurstID`.
        package var burstID: String?
        /// XMP `GCamera:BurstPrimary`.
        package var burstPrimary: String?
        /// EXIF `LensModel` ("iPhone 15 front camera 2.69mm f/1.9").
        package var lensModel: String?
        /// XMP `GPano:ProjectionType` and `GPano:UsePanoramaViewer`.
        package var panoramaProjection: String?
        package var usePanoramaViewer: String?
        /// XMP `GDepth:Format`, and whether `GDepth:Data` or `GDepth:DepthImage` is there.
        package var depthFormat: String?
        package var hasDepthData = false
        /// A HEIF's auxiliary image types (`auxC`), e.g. `urn:mpeg:hevc:2015:auxid:2`.
        package var auxiliaryTypes: [String] = []
        /// `com.android.capture.fps`: frames a second the video was captured at.
        package var captureFrameRate: Double?
        /// `com.apple.quicktime.full-frame-rate-playback-intent` (0: play slowed down).
        package var playbackIntent: Int?
        /// The video stream's frame rate.
        package var frameRate: Double?

        package init() {}
    }

    /// A HEIF auxiliary image that is a depth map or a portrait matte. An HDR gain map
    /// (`urn:com:apple:photo:2020:aux:hdrgainmap`, in every current iPhone photo) is neither.
    static let portraitAuxiliaryTypes: Set<String> = [
        "urn:mpeg:hevc:2015:auxid:2", "urn:com:apple:photo:2018:aux:portraiteffectsmatte",
    ]
    /// The longest burst id kept: a UUID is 36 characters.
    static let longestBurstID = 64
    /// Frame rates beyond this are damage, not a camera.
    static let highestFrameRate = 10_000.0

    /// The subtypes the signals give a picture of this shape.
    package static func subtypes(
        _ signals: Signals, mediaType: MediaTypeKind, displayWidth: Int, displayHeight: Int,
        isScreenshot: Bool
    ) -> Set<String> {
        var kinds: Set<String> = []
        switch mediaType {
        case .still:
            if !isScreenshot, isPanorama(signals, width: displayWidth, height: displayHeight) {
                kinds.insert("panorama")
            }
            if signals.frontFacingCamera == 1 || signals.lensModel?.lowercased().contains("front") == true {
                kinds.insert("selfie")
            }
            if isPortrait(signals) { kinds.insert("portrait") }
            if burstID(signals) != nil { kinds.insert("burst") }
        case .animation:
            break
        case .video:
            if let speed = videoSpeed(signals) { kinds.insert(speed) }
        }
        return kinds
    }

    /// What is being judged: a still photo, an animated image, a video.
    package enum MediaTypeKind: Sendable { case still, animation, video }

    /// The burst this photo belongs to: printable ASCII of at most 64 bytes, else none.
    package static func burstID(_ signals: Signals) -> String? {
        guard let id = signals.burstID, (1...longestBurstID).contains(id.utf8.count),
            id.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return id
    }

    /// The XMP says so, or the shape does: at least twice as wide as high, and 2,000 px wide.
    static func isPanorama(_ signals: Signals, width: Int, height: Int) -> Bool {
        if let projection = signals.panoramaProjection, !projection.isEmpty { return true }
        if signals.usePanoramaViewer?.lowercased() == "true" { return true }
        return height > 0 && width >= 2000 && width >= 2 * height
    }

    static func isPortrait(_ signals: Signals) -> Bool {
        if signals.imageCaptureType == 2 { return true }
        if signals.auxiliaryTypes.contains(where: portraitAuxiliaryTypes.contains) { return true }
        if let format = signals.depthFormat, !format.isEmpty, signals.hasDepthData { return true }
        return false
    }

    /// `slomo`, `timelapse` or nil: captured at least twice as fast as it plays, or at most half.
    static func videoSpeed(_ signals: Signals) -> String? {
        let rate = sane(signals.frameRate)
        if let capture = sane(signals.captureFrameRate), let rate {
            if capture >= 2 * rate { return "slomo" }
            if capture * 2 <= rate { return "timelapse" }
        }
        if signals.playbackIntent == 0 { return "slomo" }
        if let rate, rate >= 100 { return "slomo" }
        return nil
    }

    private static func sane(_ rate: Double?) -> Double? {
        guard let rate, rate.isFinite, rate > 0, rate <= highestFrameRate else { return nil }
        return rate
    }
}
