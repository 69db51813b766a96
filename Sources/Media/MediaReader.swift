import Foundation
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Reads type and metadata from the bytes of one open file.
///
/// Owns a libmagic handle and uses gexiv2, libvips and libavformat, none of which
/// is safe to share across threads: one reader per serial queue.
///
/// Cheap by design (it runs for every filed file): libmagic on the first 64 KiB,
/// a few `pread`s for the end marker, then header-only reads; no pixel is decoded.
public final class MediaReader {
    private let sniffer: MagicSniffer
    /// The zone EXIF wall times without an offset are read in.
    private let timeZone: TimeZone

    public init(timeZone: TimeZone = .current) throws(MediaError) {
        try MediaLibraries.start()
        self.sniffer = try MagicSniffer()
        self.timeZone = timeZone
    }

    /// Sniffs the type from the bytes, checks the file is complete, reads its metadata.
    /// `fd` is open for reading on a regular file; `path` is for messages and for the
    /// screenshot names (nothing opens it).
    public func read(_ fd: FileDescriptor, path: BytePath, size: Int64) throws(MediaError) -> MediaInfo {
        guard size > 0 else { throw .empty(path: path) }
        let file = FileBytes(fd: fd, path: path, size: size)
        let head = try file.read(at: 0, count: MagicSniffer.bytesMax)
        guard !head.isEmpty else { throw .empty(path: path) }
        let mimeType: String
        switch sniffer.mimeType(of: head) {
        case .success(let detected): mimeType = detected
        case .failure(let failure): throw .unreadable(path: path, reason: "libmagic: \(failure.reason)")
        }
        guard let format = MediaFormat(mimeType: mimeType) else {
            throw .notMedia(path: path, detected: mimeType)
        }
        let frames = try CompletenessCheck.check(format, head: head, file: file)
        // Every library reads the descriptor's bytes, never a path: the same inode
        // whatever happens to `path` meanwhile, and nothing to open in the sandbox.
        if format == .video {
            return try readVideo(fd, size: size, mimeType: mimeType, path: path)
        }
        guard size <= Self.largestMappedImage else {
            throw .damaged(
                path: path, format: format.displayName,
                reason: "larger than the \(Self.largestMappedImage >> 20) MiB an image may be")
        }
        let bytes: UnsafeRawBufferPointer
        do {
            bytes = try Sys.mapReadOnly(fd, count: Int(size))
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        defer { Sys.unmap(bytes) }
        var (info, announced) = try readImage(
            bytes, format: format, mimeType: mimeType, frames: frames, path: path)
        try readLivePhotoTraits(&info, announced: announced, file: file)
        return info
    }

    /// Images are mapped whole for exiv2 and libvips: this bounds the mapping, well
    /// below the helper's address-space limit (a DNG is tens of MiB, a panorama a few hundred).
    static let largestMappedImage: Int64 = 256 << 20

    private func readVideo(_ fd: FileDescriptor, size: Int64, mimeType: String, path: BytePath)
        throws(MediaError) -> MediaInfo
    {
        let probe: VideoProbe
        switch VideoProbe.read(fd, size: size) {
        case .success(let value): probe = value
        // The boxes add up (checked before), so an unreadable index is damage, not a cut.
        case .failure(let failure): throw .damaged(path: path, format: "video", reason: failure.reason)
        }
        var info = MediaInfo(
            mediaType: .video, mimeType: mimeType, pixelWidth: probe.width, pixelHeight: probe.height,
            orientation: probe.orientation, embeddedDate: probe.creationDate, duration: probe.duration)
        info.live.contentIdentifier = probe.contentIdentifier
        return info
    }

    private func readImage(
        _ bytes: UnsafeRawBufferPointer, format: MediaFormat, mimeType: String, frames: Int?, path: BytePath
    ) throws(MediaError) -> (MediaInfo, MotionPhoto.Announcement?) {
        let size = Int64(bytes.count)
        let exif: ExifMetadata?
        var failure: String?
        switch ExifMetadata.read(bytes: bytes, isTIFF: format == .tiff) {
        case .success(let value): exif = value
        case .failure(let error):
            exif = nil
            failure = error.reason
        }
        if let end = exif?.imageDataEnd, end > size {
            throw .truncated(path: path, format: exif?.isDNG == true ? "DNG" : "TIFF")
        }
        // libvips only where exiv2 falls short: GIF frame counts, PNG's CRCs, a size
        // exiv2 could not find. Never for HEIF (Debian's libvips fails on iPhone HEICs).
        let exifHasSize = exif.map { $0.pixelWidth > 0 && $0.pixelHeight > 0 } ?? false
        let needsVips = format == .png || format == .gif || (format != .heif && !exifHasSize)
        var vips: VipsHeader?
        if needsVips {
            switch VipsHeader.read(bytes: bytes) {
            case .success(let value): vips = value
            case .failure(let error):
                throw .damaged(path: path, format: format.displayName, reason: error.reason)
            }
        }
        guard exif != nil || vips != nil else {
            throw .damaged(
                path: path, format: format.displayName, reason: failure ?? "its metadata cannot be read")
        }

        var info = MediaInfo(mediaType: .image, mimeType: mimeType)
        var subtypes: Set<String> = []
        if let exif {
            info.live.contentIdentifier = exif.contentIdentifier
            info.pixelWidth = exif.pixelWidth
            info.pixelHeight = exif.pixelHeight
            info.orientation = exif.orientation
            info.embeddedDate = exif.embeddedDate(timeZone: timeZone)
            if format == .tiff, exif.isDNG { info.mimeType = "image/x-adobe-dng" }
            if (format == .png || format == .jpeg), exif.saysScreenshot { subtypes.insert("screenshot") }
        }
        if let vips {
            if info.pixelWidth <= 0 || info.pixelHeight <= 0 {
                info.pixelWidth = vips.width
                info.pixelHeight = vips.height
            }
            info.frameCount = vips.pages
        }
        if let frames { info.frameCount = frames }
        if info.frameCount > 1 { subtypes.insert("animated") }
        if info.mimeType == "image/x-adobe-dng" { subtypes.insert("raw") }
        if (format == .png || format == .jpeg), ScreenshotNames.matches(path) {
            subtypes.insert("screenshot")
        }
        info.subtypes = subtypes.sorted()
        // What the XMP says of an embedded video, for `readLivePhotoTraits`.
        return (info, exif?.motionPhoto)
    }
}
