import Glibc
import PhotoFilerMedia
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Step 1 of filing, for one file: open it without following links, check it,
/// sniff its type, read its metadata and hash it. It writes nothing and never
/// touches the catalog, so the daemon runs one on a second queue (its second core)
/// while the filer files the previous group.
///
/// Not thread-safe (a media reader, a buffer): one per serial queue.
public final class FileInspector {
    package let layout: LibraryLayout
    package let libraryDevice: UInt64
    package let copier = ContentCopier()
    /// Opened on first use: commands that only read the catalog (`list`, `albums`)
    /// never pay for loading libmagic's database, libvips and exiv2.
    private var mediaReader: MediaReader?

    public init(layout: LibraryLayout, media: MediaReader? = nil) throws(SystemError) {
        self.layout = layout
        self.libraryDevice = try Sys.status(layout.root, followLinks: true).device
        self.mediaReader = media
    }

    /// Everything a group needs of one move-mode request before anything is written:
    /// `.oneByOne` when the request must take `Filer.file` instead (keep or copy
    /// mode, another file system, another user's file).
    public func inspect(_ request: FilingRequest) -> Inspection {
        do throws(FilingError) {
            let (source, fd, before) = try openSource(request)
            var keep = false
            defer { if !keep { fd.close() } }
            guard !mustCopy(request, status: before) else { return .oneByOne }
            let info = try readMedia(fd, source: source, size: before.size)
            var scan = EndMarkerScan(mimeType: info.mimeType)
            let hashed = try systemCall(source) { () throws(SystemError) in
                try copier.hash(fd, path: source, scanning: &scan)
            }
            try verifyEnd(scan, source: source)
            try checkUnchanged(fd, source: source, before: before, bytesRead: hashed.size)
            keep = true
            return .ready(
                InspectedFile(
                    request: request, source: source, fd: fd, status: before, info: info, hash: hashed.hash,
                    size: hashed.size))
        } catch {
            return .failed(error)
        }
    }

    /// Opens the source without following a final symbolic link or blocking on a
    /// FIFO, and checks on the open descriptor that it is a non-empty regular file.
    /// The caller closes the descriptor.
    package func openSource(_ request: FilingRequest) throws(FilingError) -> (
        source: BytePath, fd: FileDescriptor, status: FileStatus
    ) {
        let source = LibraryLayout.absolute(request.source)
        if source.isWithin(layout.root) { throw .insideLibrary(path: source) }
        let fd: FileDescriptor
        do {
            fd = try Sys.openForReading(source)
        } catch {
            switch error.errno {
            case .tooManySymbolicLinks: throw .symbolicLink(path: source)
            case .noSuchFile: throw .vanished(path: source)
            case .noDevice: throw .notRegularFile(path: source, kind: .fifo)
            default: throw FilingError.from(error, library: layout, source: source)
            }
        }
        do throws(FilingError) {
            let status = try systemCall(source) { () throws(SystemError) in try fd.status() }
            guard status.isRegularFile else {
                throw FilingError.notRegularFile(path: source, kind: status.kind)
            }
            if status.size == 0 { throw FilingError.media(.empty(path: source)) }
            return (source, fd, status)
        } catch {
            fd.close()
            throw error
        }
    }

    /// True when the bytes must be copied rather than linked into the Roll: the source
    /// stays (keep, copy), lives on another file system, or belongs to another user
    /// (fs.protected_hardlinks refuses to link it, and its owner could still change it).
    package func mustCopy(_ request: FilingRequest, status: FileStatus) -> Bool {
        let ownedByAnother = status.userID != geteuid() && geteuid() != 0
        return request.mode != .move || status.device != libraryDevice || ownedByAnother
    }

    package func readMedia(_ fd: FileDescriptor, source: BytePath, size: Int64) throws(FilingError)
        -> MediaInfo
    {
        do {
            return try media().read(fd, path: source, size: size)
        } catch {
            throw .media(error)
        }
    }

    /// A JPEG, PNG or GIF whose end the hash pass did not meet was cut.
    func verifyEnd(_ scan: EndMarkerScan?, source: BytePath) throws(FilingError) {
        do {
            try scan?.verify(path: source)
        } catch {
            throw .media(error)
        }
    }

    /// The media reader, opened on first use.
    package func media() throws(MediaError) -> MediaReader {
        if let mediaReader { return mediaReader }
        let reader = try MediaReader()
        mediaReader = reader
        return reader
    }

    /// A writer that still has the file makes its size or mtime move while it is read.
    package func checkUnchanged(_ fd: FileDescriptor, source: BytePath, before: FileStatus, bytesRead: Int64)
        throws(FilingError)
    {
        let after = try systemCall(source) { () throws(SystemError) in try fd.status() }
        if after.size != before.size || after.modificationNanoseconds != before.modificationNanoseconds
            || bytesRead != before.size
        {
            throw .changedWhileFiling(path: source)
        }
    }

    package func systemCall<R>(_ source: BytePath, _ body: () throws(SystemError) -> R) throws(FilingError)
        -> R
    {
        do {
            return try body()
        } catch {
            throw FilingError.from(error, library: layout, source: source)
        }
    }
}

/// What inspecting one request found.
public enum Inspection: Sendable {
    /// Read and hashed; its source is still open (`fd`), to be synced and linked.
    case ready(InspectedFile)
    /// To be filed by `Filer.file` instead.
    case oneByOne
    case failed(FilingError)
}

/// One source, read and hashed, its descriptor still open.
public struct InspectedFile: Sendable {
    public var request: FilingRequest
    public var source: BytePath
    public var fd: FileDescriptor
    public var status: FileStatus
    public var info: MediaInfo
    public var hash: String
    public var size: Int64
}
