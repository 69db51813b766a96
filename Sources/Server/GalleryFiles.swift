import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem

extension Gallery {
    /// A thumbnail already sent since the catalog last changed, straight from its file;
    /// nil when it is not known (or its file went): then the catalog and the store answer.
    func knownThumbnail(_ key: KnownThumbnails.Key) -> HTTPResponse? {
        knownThumbnails.file(key).flatMap(sending)
    }

    /// A thumbnail file as a cacheable response; nil when it cannot be opened.
    func sending(_ file: ThumbnailFile) -> HTTPResponse? {
        guard var response = whole(file.path) else { return nil }
        response.addHeader("Content-Type", file.mimeType)
        response.addHeader("Cache-Control", "private, max-age=3600")
        return response
    }

    /// The roll file (or its copy in Recently Deleted) with its MIME type, named as it
    /// was filed (a download saves it under that name, not as `original`); one `Range` honoured.
    func original(of asset: AssetRecord, request: HTTPRequest) -> HTTPResponse {
        let path = catalog.layout.absolute(asset.currentPath)
        guard let (fd, size) = open(path) else {
            return .error(404, "The file of asset \(asset.id) is not in the library any more.")
        }
        var response = Self.ranged(fd, start: 0, size: size, mimeType: asset.info.mimeType, request: request)
        if response.status != 416 {
            response.addHeader("Content-Disposition", Self.contentDisposition(naming: asset.originalName))
        }
        return response
    }

    /// `inline` with a file name (RFC 6266): `filename` an ASCII stand-in for clients
    /// that know no better, `filename*` the name as UTF-8, percent-encoded (RFC 8187).
    /// A name is bytes: one that is not UTF-8 shows U+FFFD for its bad bytes. No byte of
    /// the name can end the quoted string or the header.
    private static let attributeCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")

    static func contentDisposition(naming name: BytePath) -> String {
        let text = name.display
        let plain = text.unicodeScalars.map { scalar -> Unicode.Scalar in
            (0x20..<0x7F).contains(scalar.value) && !"\"\\%".unicodeScalars.contains(scalar) ? scalar : "_"
        }
        let fallback = String(String.UnicodeScalarView(plain))
        // RFC 8187's attr-char stays as it is; every other byte is %XX.
        let encoded = text.addingPercentEncoding(withAllowedCharacters: Self.attributeCharacters) ?? fallback
        return "inline; filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }

    /// A Live Photo's video, to play in the page: the paired file, or the byte range
    /// of the still's own file a motion photo keeps it in (as a file of its own to
    /// the browser, `Range` counted from the video's start); 404 for other assets.
    func liveVideo(of asset: AssetRecord, request: HTTPRequest) -> HTTPResponse {
        guard let video = asset.liveVideo else {
            return .error(404, "Asset \(asset.id) is not a Live Photo: it has no video.")
        }
        let layout = catalog.layout
        if let offset = video.embeddedOffset {
            guard let (fd, size) = open(layout.absolute(asset.currentPath)),
                offset >= 0, video.size > 0, offset + video.size <= size
            else {
                return .error(404, "The file of asset \(asset.id) is not in the library any more.")
            }
            // The range was found to start with an MP4 `ftyp` box when the still was filed.
            return Self.ranged(fd, start: offset, size: video.size, mimeType: "video/mp4", request: request)
        }
        guard let relative = video.trashPath ?? video.rollPath,
            let (fd, size) = open(layout.absolute(relative))
        else {
            return .error(404, "The video of asset \(asset.id) is not in the library any more.")
        }
        // A paired video carries Apple's QuickTime content identifier: a QuickTime movie.
        return Self.ranged(fd, start: 0, size: size, mimeType: "video/quicktime", request: request)
    }

    /// `size` bytes of `fd` from `start` as one resource of that size: 200, or 206 for
    /// one satisfiable `Range`, or 416.
    private static func ranged(
        _ fd: FileDescriptor, start: Int64, size: Int64, mimeType: String, request: HTTPRequest
    ) -> HTTPResponse {
        var response: HTTPResponse
        switch ByteRange.parse(request.header("range"), size: size) {
        case .whole:
            response = HTTPResponse(status: 200, body: .file(fd, offset: start, length: size))
        case .part(let range):
            response = HTTPResponse(
                status: 206,
                body: .file(fd, offset: start + range.lowerBound, length: range.upperBound - range.lowerBound)
            )
            response.addHeader("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)")
        case .unsatisfiable:
            fd.close()
            response = .error(416, "The range asked for is outside the file's \(size) bytes.")
            response.addHeader("Content-Range", "bytes */\(size)")
            return response
        }
        response.addHeader("Content-Type", mimeType)
        response.addHeader("Accept-Ranges", "bytes")
        response.addHeader("Cache-Control", "private, max-age=3600")
        return response
    }

    /// A whole regular file as a body, or nil when it cannot be opened.
    private func whole(_ path: BytePath) -> HTTPResponse? {
        guard let (fd, size) = open(path) else { return nil }
        return HTTPResponse(status: 200, body: .file(fd, offset: 0, length: size))
    }

    /// Opens a path the catalog gave (never one from a request); a regular file only,
    /// inside the library, found by a walk from its folder that follows no symbolic
    /// link: one planted inside `Roll/` or the thumbnail folder (by anyone who may
    /// write there) leads nowhere else.
    private func open(_ path: BytePath) -> (FileDescriptor, Int64)? {
        let layout = catalog.layout
        guard let relative = layout.relative(path),
            let root = try? Sys.openDirectory(layout.root)
        else { return nil }
        defer { root.close() }
        guard let fd = try? Sys.openForReadingWithoutLinks(relative, in: root) else { return nil }
        guard let status = try? fd.status(), status.isRegularFile else {
            fd.close()
            return nil
        }
        return (fd, status.size)
    }
}

/// One `Range: bytes=…` of a file (RFC 9110 §14.1.2); several ranges get the whole file.
enum ByteRange: Equatable {
    case whole
    case part(Range<Int64>)
    case unsatisfiable

    static func parse(_ header: String?, size: Int64) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let ends = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard ends.count == 2 else { return .whole }
        let first = ends[0].isEmpty ? nil : Int64(ends[0])
        let last = ends[1].isEmpty ? nil : Int64(ends[1])
        if !ends[0].isEmpty && first == nil || !ends[1].isEmpty && last == nil { return .whole }
        switch (first, last) {
        case (let start?, let end):
            guard start < size else { return .unsatisfiable }
            // An end past the file is the file's end (clamped before the + 1: `Int64.max` is a valid end).
            let stop = end.map { min($0, size - 1) + 1 } ?? size
            guard stop > start else { return .whole }
            return .part(start..<stop)
        case (nil, let suffix?):
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)..<size)
        case (nil, nil):
            return .whole
        }
    }
}
