import Foundation
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Reads type and metadata from the bytes of one open file.
///
/// Owns a libmagic handle and uses gexiv2, libvips and libavformat, none of which
/// is safe to share across threads: one reader per serial queue.
///
/// Cheap by design (it runs for every filed file): libmagic on the first 64 KiB,
/// a few `pread`s for the end of formats that have no end marker, then header-only
/// reads; no pixel is decoded. A JPEG's or PNG's end is found by the pass that
/// hashes the file (`EndMarkerScan(mimeType:)` on the returned MIME type).
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
    /// libraries that need a name (use `/proc/self/fd/N` to reach the same inode).
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
        // The same inode as `fd`, whatever happens to `path` meanwhile (a rename, a
        // symlink swapped in), and no trouble with names that are not UTF-8.
        let libraryPath = "/proc/self/fd/\(fd.rawValue)"
        if format == .video {
            return try readVideo(libraryPath, mimeType: mimeType, path: path)
        }
        return try readImage(
            libraryPath, format: format, mimeType: mimeType, frames: frames, path: path, size: size)
    }

    private func readVideo(_ libraryPath: String, mimeType: String, path: BytePath) throws(MediaError)
        -> MediaInfo
    {
        let probe: VideoProbe
        switch VideoProbe.read(path: libraryPath) {
        case .success(let value): probe = value
        // The boxes add up (checked before), so an unreadable index is damage, not a cut.
        case .failure(let failure): throw .damaged(path: path, format: "video", reason: failure.reason)
        }
        return MediaInfo(
            mediaType: .video, mimeType: mimeType, pixelWidth: probe.width, pixelHeight: probe.height,
            orientation: probe.orientation, embeddedDate: probe.creationDate, duration: probe.duration)
    }

    private func readImage(
        _ libraryPath: String, format: MediaFormat, mimeType: String, frames: Int?, path: BytePath,
        size: Int64
    ) throws(MediaError) -> MediaInfo {
        let exif: ExifMetadata?
        var failure: String?
        switch ExifMetadata.read(path: libraryPath, isTIFF: format == .tiff) {
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
            switch VipsHeader.read(path: libraryPath) {
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
        return info
    }
}
