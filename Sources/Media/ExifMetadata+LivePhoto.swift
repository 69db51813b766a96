import CGExiv2
import CGExiv2Guard

/// The tags that make a still one half of a Live Photo, or a motion photo.
extension ExifMetadata {
    /// The Apple MakerNote's content identifier, from the raw MakerNote bytes
    /// (exiv2 0.27 does not decode Apple's), of an iPhone's picture only.
    static func appleContentIdentifier(_ handle: UnsafeMutablePointer<GExiv2Metadata>) -> String? {
        guard tag(handle, "Exif.Image.Make")?.hasPrefix("Apple") == true else { return nil }
        var error: UnsafeMutablePointer<GError>?
        var thrown: CInt = 0
        let raw = pf_gexiv2_try_get_tag_raw(handle, "Exif.Photo.MakerNote", &error, &thrown)
        _ = consume(&error)
        guard let raw, thrown == 0 else { return nil }
        defer { g_bytes_unref(raw) }
        var size: Int = 0
        guard let data = g_bytes_get_data(raw, &size), size > 0 else { return nil }
        let note = Array(UnsafeRawBufferPointer(start: data, count: size))
        return AppleMakerNote.contentIdentifier(in: note)
    }

    /// Google's motion-photo properties (`MediaLibraries` registers their namespaces).
    static func motionPhotoAnnouncement(_ handle: UnsafeMutablePointer<GExiv2Metadata>)
        -> MotionPhoto.Announcement?
    {
        var announced = MotionPhoto.Announcement()
        announced.flagged = ["Xmp.GCamera.MotionPhoto", "Xmp.GCamera.MicroVideo"].contains {
            tag(handle, $0) == "1"
        }
        announced.microVideoOffset = tag(handle, "Xmp.GCamera.MicroVideoOffset").flatMap { Int64($0) }
        // A directory names a handful of items (primary, video, maybe a depth map).
        for index in 1...8 {
            let item = "Xmp.Container.Directory[\(index)]/Container:Item/Item:"
            guard let semantic = tag(handle, item + "Semantic") else { break }
            announced.items.append(
                MotionPhoto.ContainerItem(
                    semantic: semantic, length: tag(handle, item + "Length").flatMap { Int64($0) } ?? 0,
                    padding: tag(handle, item + "Padding").flatMap { Int64($0) } ?? 0))
        }
        let says = announced.flagged || announced.microVideoOffset != nil || !announced.items.isEmpty
        return says ? announced : nil
    }
}
