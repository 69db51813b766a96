import PhotoFilerMediaTypes

extension MediaReader {
    /// A motion photo's embedded video (by its XMP, else Samsung's trailer) makes the
    /// still subtype `live`; its file is never rewritten.
    func readLivePhotoTraits(_ info: inout MediaInfo, announced: MotionPhoto.Announcement?, file: FileBytes)
        throws(MediaError)
    {
        guard info.frameCount <= 1,
            let video = try MotionPhoto.embeddedVideo(announced: announced, file: file)
        else { return }
        var found = video
        // Its length in seconds, from its own index (no frame is decoded).
        let decoders = try decoders(for: file.path, "libavformat")
        if case .success(let probe) = decoders.video(file.fd, length: video.length, from: video.offset) {
            found.duration = probe.duration
        }
        info.live.embeddedVideo = found
        if !info.subtypes.contains(MediaInfo.liveSubtype) {
            info.subtypes = (info.subtypes + [MediaInfo.liveSubtype]).sorted()
        }
    }
}
