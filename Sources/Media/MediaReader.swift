import FoundationEssentials
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Reads type and metadata from the bytes of one open file.
///
/// Owns a libmagic handle and uses exiv2, and libvips and libavformat through its
/// `decoders`, none of which is safe to share across threads: one reader per serial
/// queue. A reader without decoders (the light helper's) refuses what needs them
/// with `needsDecoders`, for a reader that has them.
///
/// Cheap by design (it runs for every filed file): libmagic on the first 64 KiB,
/// a few `pread`s for the end of formats that have no end marker, then header-only
/// reads; no pixel is decoded. A JPEG's, PNG's or GIF's end is found by the pass that
/// hashes the file, in the daemon (`EndMarkerScans`, chosen by the returned MIME type).
public final class MediaReader {
    private let sniffer: MagicSniffer
    /// libvips' and libavformat's reads; nil in the light helper.
    private let decoders: (any MediaDecoders)?
    /// The zone EXIF wall times without an offset are read in.
    private let timeZone: any ZoneOffsets

    package init(decoders: (any MediaDecoders)?, timeZone: any ZoneOffsets = LocalZone()) throws(MediaError) {
        try MediaLibraries.start()
        self.sniffer = try MagicSniffer()
        self.decoders = decoders
        self.timeZone = timeZone
    }

    /// The decoders, or the refusal that hands the file to a reader that has them.
    func decoders(for path: BytePath, _ library: String) throws(MediaError) -> any MediaDecoders {
        guard let decoders else { throw .needsDecoders(path: path, library: library) }
        return decoders
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
        // Every library reads the descriptor's bytes, never a path: the same inode
        // whatever happens to `path` meanwhile, and nothing to open in the sandbox.
        let format = MediaFormat(mimeType: mimeType)
        // Handed on before anything is read that the reader with decoders reads again.
        if decoders == nil, let library = format.flatMap(Self.decoderAlwaysNeeded) {
            throw .needsDecoders(path: path, library: library)
        }
        if format == .video {
            do throws(MediaError) {
                _ = try CompletenessCheck.check(.video, head: head, file: file)
            } catch {
                guard case .damaged = error else { throw error }
                return MediaInfo(mediaType: .video, mimeType: mimeType)
            }
            return try readVideo(fd, size: size, mimeType: mimeType, path: path)
        }
        let mayBeRaw = format == nil && mimeType == "application/octet-stream"
        guard format != nil || mayBeRaw else { throw .notMedia(path: path, detected: mimeType) }
        // A JPEG's metadata comes before its picture, and what follows its end (a
        // motion photo's video, an app's trailer) may be of any size: its head is enough.
        let mapped = format == .jpeg ? min(size, Self.largestMappedImage) : size
        guard mapped <= Self.largestMappedImage else {
            guard let format else { throw .notMedia(path: path, detected: mimeType) }
            throw .tooLarge(
                path: path, format: format.displayName, size: size, limit: Self.largestMappedImage)
        }
        // A file the sniff read whole is not mapped again: a mapping costs a page
        // fault per page and, in a helper with threads, a TLB shoot-down on unmap.
        if head.count == size {
            let read = head.withUnsafeBytes { bytes in
                Result { () throws(MediaError) in
                    try readStill(
                        bytes, head: head, file: file, format: format, mimeType: mimeType, mayBeRaw: mayBeRaw)
                }
            }
            return try read.get()
        }
        let bytes: UnsafeRawBufferPointer
        do {
            bytes = try Sys.mapReadOnly(fd, count: Int(mapped))
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        defer { Sys.unmap(bytes) }
        return try readStill(
            bytes, head: head, file: file, format: format, mimeType: mimeType, mayBeRaw: mayBeRaw)
    }

    /// A still image's metadata from its whole bytes (`head`: its first bytes, as sniffed).
    private func readStill(
        _ bytes: UnsafeRawBufferPointer, head: [UInt8], file: FileBytes, format sniffed: MediaFormat?,
        mimeType sniffedType: String, mayBeRaw: Bool
    ) throws(MediaError) -> MediaInfo {
        let path = file.path
        var format = sniffed
        var mimeType = sniffedType
        var exif: ExifMetadata?
        if mayBeRaw {
            if let raw = Self.cameraRaw(bytes) {
                format = .raw
                mimeType = raw.mimeType ?? mimeType
                exif = raw
            } else if Self.isCanonCR3(head) {
                format = .raw
                mimeType = MediaFormat.canonCR3
            }
        }
        guard let format else { throw .notMedia(path: path, detected: mimeType) }
        do throws(MediaError) {
            let frames = try CompletenessCheck.check(format, head: head, file: file)
            let image = try readImage(
                bytes, format: format, mimeType: mimeType, frames: frames, path: path, exif: exif)
            var info = image.info
            if format == .heif {
                // exiv2 gives the stored size (`ispe`), or an EXIF size a camera wrote
                // for another rendering, or none (a 10-bit AVIF): the file is shown at
                // its coded size as its `clap`, `irot` and `imir` make it. A HEIF
                // reader leaves the EXIF orientation alone (Apple writes it beside an
                // `irot` that says the same), so the stored size is the shown one turned
                // back by it.
                switch try decoders(for: path, "libheif").heifDisplaySize(file.fd, size: file.size) {
                case .success(let shown):
                    info.pixelWidth = info.isQuarterTurned ? shown.height : shown.width
                    info.pixelHeight = info.isQuarterTurned ? shown.width : shown.height
                case .failure(let error):
                    throw .damaged(path: path, format: format.displayName, reason: error.reason)
                }
            }
            // The kinds of pictures last: the panorama's shape is the size as shown.
            let kinds = PictureKinds.subtypes(
                image.signals, mediaType: info.frameCount > 1 ? .animation : .still,
                displayWidth: info.displayWidth, displayHeight: info.displayHeight,
                isScreenshot: info.subtypes.contains("screenshot"))
            info.subtypes = Set(info.subtypes).union(kinds).sorted()
            try readLivePhotoTraits(&info, announced: image.announced, file: file)
            return info
        } catch {
            guard case .damaged = error else { throw error }
            var subtypes: [String] = format == .raw ? ["raw"] : []
            if format == .png || format == .jpeg, ScreenshotNames.matches(path) {
                subtypes.append("screenshot")
            }
            return MediaInfo(mediaType: .image, mimeType: mimeType, subtypes: subtypes)
        }
    }

    /// The decoder a format needs whatever its metadata says: libvips for a PNG's
    /// CRCs and a GIF's frames, libavformat for a video. A reader without decoders
    /// hands such a file on after the sniff alone (a screenshot tool's PNGs).
    private static func decoderAlwaysNeeded(by format: MediaFormat) -> String? {
        switch format {
        case .png, .gif: "libvips"
        case .video: "libavformat"
        case .jpeg, .webp, .heif, .tiff, .raw: nil
        }
    }

    /// Images are mapped whole for exiv2 and libvips: this bounds the mapping, well
    /// below the helper's address-space limit (a DNG is tens of MiB, a panorama a few hundred).
    static let largestMappedImage: Int64 = 256 << 20

    /// A camera RAW container libmagic does not know (it says octet-stream for
    /// Panasonic's RW2, Canon's CR3, Fujifilm's RAF): exiv2's own type detection
    /// does. Its metadata, when exiv2 calls it one of `MediaFormat.rawMimeTypes`.
    /// Canon's CR3 is ISO-BMFF with the major brand `crx `; Debian's libmagic and
    /// exiv2 0.27 do not know it, so its `ftyp` box tells.
    private static func isCanonCR3(_ head: [UInt8]) -> Bool {
        head.count >= 12 && head[4..<8].elementsEqual("ftyp".utf8) && head[8..<12].elementsEqual("crx ".utf8)
    }

    /// exiv2 reads the bytes in memory (a mapping, or the sniffed head): the filter lets
    /// it open no path, and the bytes are the same inode's.
    private static func cameraRaw(_ bytes: UnsafeRawBufferPointer) -> ExifMetadata? {
        guard case .success(let exif) = ExifMetadata.read(bytes: bytes, isTIFF: true),
            let detected = exif.mimeType, MediaFormat.rawMimeTypes.contains(detected)
        else { return nil }
        return exif
    }

    private func readVideo(_ fd: FileDescriptor, size: Int64, mimeType: String, path: BytePath)
        throws(MediaError) -> MediaInfo
    {
        let probe: VideoProbe
        switch try decoders(for: path, "libavformat").video(fd, length: size, from: 0) {
        case .success(let value): probe = value
        // The boxes add up and `moov` is there (checked before): an unreadable index
        // is damage, not a cut, and the video is filed as a file that cannot be decoded.
        case .failure: return MediaInfo(mediaType: .video, mimeType: mimeType)
        }
        var info = MediaInfo(
            mediaType: .video, mimeType: mimeType, pixelWidth: probe.width, pixelHeight: probe.height,
            orientation: probe.orientation, embeddedDate: probe.creationDate, duration: probe.duration)
        info.live.contentIdentifier = probe.contentIdentifier
        var signals = PictureKinds.Signals()
        signals.captureFrameRate = probe.captureFrameRate
        signals.playbackIntent = probe.playbackIntent
        signals.frameRate = probe.frameRate
        info.subtypes = PictureKinds.subtypes(
            signals, mediaType: .video, displayWidth: info.displayWidth, displayHeight: info.displayHeight,
            isScreenshot: false
        ).sorted()
        return info
    }

    /// `exif` when it was read already (to tell the format).
    private func readImage(
        _ bytes: UnsafeRawBufferPointer, format: MediaFormat, mimeType: String, frames: Int?, path: BytePath,
        exif preread: ExifMetadata? = nil
    ) throws(MediaError) -> (
        info: MediaInfo, announced: MotionPhoto.Announcement?, signals: PictureKinds.Signals
    ) {
        let size = Int64(bytes.count)
        var exif = preread
        var failure: String?
        let tiffLike = format == .tiff || format == .raw
        if exif == nil {
            switch ExifMetadata.read(bytes: bytes, isTIFF: tiffLike) {
            case .success(let value): exif = value
            case .failure(let error): failure = error.reason
            }
        }
        if let end = exif?.imageDataEnd, end > size {
            let name = format == .raw ? format.displayName : exif?.isDNG == true ? "DNG" : "TIFF"
            throw .truncated(path: path, format: name)
        }
        // libvips only where exiv2 falls short: GIF frame counts, PNG's CRCs, a size
        // exiv2 could not find. Never for HEIF (Debian's libvips fails on iPhone HEICs).
        let exifHasSize = exif.map { $0.pixelWidth > 0 && $0.pixelHeight > 0 } ?? false
        let needsVips =
            Self.decoderAlwaysNeeded(by: format) != nil || (format != .heif && format != .raw && !exifHasSize)
        var vips: ImageHeader?
        if needsVips {
            switch try decoders(for: path, "libvips").imageHeader(bytes) {
            case .success(let value): vips = value
            case .failure(let error):
                throw .damaged(path: path, format: format.displayName, reason: error.reason)
            }
        }
        // exiv2 0.27 cannot read CR3's metadata, nor that of some AVIFs (a 10-bit HDR
        // one): it is filed with what is known (its date then comes from its name or
        // mtime), a HEIF's size from libheif.
        let metadataOptional = mimeType == MediaFormat.canonCR3 || format == .heif
        guard exif != nil || vips != nil || metadataOptional else {
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
            // libmagic calls NEF, ARW and PEF TIFF: exiv2 knows them by their tags.
            if tiffLike, let detected = exif.mimeType, MediaFormat.rawMimeTypes.contains(detected) {
                info.mimeType = detected
            }
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
        if info.mimeType == "image/x-adobe-dng" || MediaFormat.rawMimeTypes.contains(info.mimeType) {
            subtypes.insert("raw")
        }
        if (format == .png || format == .jpeg), ScreenshotNames.matches(path) {
            subtypes.insert("screenshot")
        }
        info.subtypes = subtypes.sorted()
        var signals = exif?.kindSignals ?? PictureKinds.Signals()
        if format == .heif { signals.auxiliaryTypes = HEIFAuxiliaryTypes.read(bytes) }
        // What the XMP says of an embedded video, for `readLivePhotoTraits`.
        return (info, exif?.motionPhoto, signals)
    }
}
