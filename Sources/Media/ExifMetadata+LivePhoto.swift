/// The tags that make a still one half of a Live Photo, or a motion photo, or one of
/// the phone's kinds of pictures.
extension ExifMetadata {
    /// The Apple MakerNote's tags, from the raw MakerNote bytes (exiv2 0.27 does
    /// not decode Apple's), of an iPhone's picture only.
    static func appleMakerNote(_ tags: some ExifTags) -> AppleMakerNote.Tags {
        guard tag(tags, "Exif.Image.Make")?.hasPrefix("Apple") == true,
            let note = tags.tagBytes("Exif.Photo.MakerNote")
        else { return AppleMakerNote.Tags() }
        return AppleMakerNote.tags(in: note)
    }

    /// Google's motion-photo properties (`MediaLibraries` registers their namespaces).
    static func motionPhotoAnnouncement(_ tags: some ExifTags) -> MotionPhoto.Announcement? {
        var announced = MotionPhoto.Announcement()
        announced.flagged = ["Xmp.GCamera.MotionPhoto", "Xmp.GCamera.MicroVideo"].contains {
            tag(tags, $0) == "1"
        }
        announced.microVideoOffset = tag(tags, "Xmp.GCamera.MicroVideoOffset").flatMap { Int64($0) }
        // A directory names a handful of items (primary, video, maybe a depth map).
        for index in 1...8 {
            let item = "Xmp.Container.Directory[\(index)]/Container:Item/Item:"
            guard let semantic = tag(tags, item + "Semantic") else { break }
            announced.items.append(
                MotionPhoto.ContainerItem(
                    semantic: semantic, length: tag(tags, item + "Length").flatMap { Int64($0) } ?? 0,
                    padding: tag(tags, item + "Padding").flatMap { Int64($0) } ?? 0))
        }
        let says = announced.flagged || announced.microVideoOffset != nil || !announced.items.isEmpty
        return says ? announced : nil
    }

    /// What the tags say of the phone's kinds of pictures (`PictureKinds`).
    static func kindSignals(_ tags: some ExifTags, apple: AppleMakerNote.Tags) -> PictureKinds.Signals {
        var signals = PictureKinds.Signals()
        signals.frontFacingCamera = apple.frontFacingCamera
        signals.imageCaptureType = apple.imageCaptureType
        signals.burstID = apple.burstUUID ?? tag(tags, "Xmp.GCamera.BurstID")
        signals.burstPrimary = tag(tags, "Xmp.GCamera.BurstPrimary")
        signals.lensModel = tag(tags, "Exif.Photo.LensModel")
        signals.panoramaProjection = tag(tags, "Xmp.GPano.ProjectionType")
        signals.usePanoramaViewer = tag(tags, "Xmp.GPano.UsePanoramaViewer")
        signals.depthFormat = tag(tags, "Xmp.GDepth.Format")
        signals.hasDepthData =
            tag(tags, "Xmp.GDepth.Data") != nil || tag(tags, "Xmp.GDepth.DepthImage") != nil
        return signals
    }
}
