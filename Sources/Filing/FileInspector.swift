import Dispatch
import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem
import Synchronization

/// Step 1 of filing: open each file without following links, check it, have a
/// sandboxed helper sniff its type and read its metadata (the daemon parses no
/// byte itself), and hash it meanwhile. It writes nothing and never touches the
/// catalog, so the daemon runs it on a second queue while the filer files the
/// previous group.
///
/// Not thread-safe (a buffer): one per serial queue. `@unchecked Sendable` so that
/// the completion of `inspect` can finish on the queue its owner names, which is
/// the one queue that owner uses it on (the daemon's inspection queue).
public final class FileInspector: LibraryScoped, @unchecked Sendable {
    package let layout: LibraryLayout
    package let libraryDevice: UInt64
    /// The mount the library is on; nil when the kernel does not say.
    private let libraryMount: UInt64?
    package let copier = ContentCopier()
    /// The helpers that read the bytes; started on the first file, so commands that
    /// only read the catalog (`list`, `albums`) never start one.
    private let helpers: HelperPool
    /// This process's user, asked once (`mustCopy` asks it of every file).
    private let effectiveUserID = geteuid()

    public init(layout: LibraryLayout, helpers: HelperPool = .shared) throws(SystemError) {
        self.layout = layout
        self.libraryDevice = try Sys.status(layout.root, followLinks: true).device
        let root = try Sys.openDirectory(layout.root)
        defer { root.close() }
        do {
            libraryMount = try root.mountID()
        } catch {
            libraryMount = nil  // a kernel before 5.8, a filter that refuses statx: links are tried
        }
        self.helpers = helpers
    }

    /// Everything a group needs of its move-mode requests before anything is written,
    /// in order: `.leftToFiler` when the filer inspects a request itself, on its own queue
    /// (keep or copy mode, another file system, another user's file: it is copied
    /// while hashed; or `stop` said so).
    /// The helpers read the whole group while this thread hashes it, looks for
    /// each JPEG's, PNG's or GIF's end and, in a small group, syncs the bytes it
    /// hashed (files up to `hashAheadLimit`; a larger one is hashed and synced once a
    /// helper has accepted it, so a huge file that is no picture costs no read).
    /// `completion` runs on `queue` (the inspector's own) once they have answered,
    /// so no thread is parked waiting. `stop` is asked before each file is opened or
    /// hashed and between the reads of a hash: a daemon told to stop finishes what
    /// it has in hand (within 5 s: photofiler(1) "The daemon"), not a group of large files it has not.
    public func inspect(
        _ requests: [FilingRequest], stop: @escaping @Sendable () -> Bool, finishingOn queue: DispatchQueue,
        completion: @escaping @Sendable ([Inspection]) -> Void
    ) {
        var inspections = [Inspection](repeating: .leftToFiler, count: requests.count)
        var opened: [(index: Int, source: BytePath, fd: FileDescriptor, status: FileStatus)] = []
        for (index, request) in requests.enumerated() where !stop() {
            do throws(FilingError) {
                let (source, fd, status) = try openSource(request)
                if mustCopy(request, status: status, fd: fd) {
                    fd.close()
                    continue
                }
                opened.append((index, source, fd, status))
            } catch {
                inspections[index] = .failed(error)
            }
        }
        let reads = helpers.inspect(
            opened.map { MediaFile(fd: $0.fd, path: $0.source, size: $0.status.size) })
        let hashes = opened.map { file in
            file.status.size <= Self.hashAheadLimit
                ? hash(file.fd, file.source, size: file.status.size, scanning: .anyType, stop: stop) : nil
        }
        // Step 2 for a small group's files hashed, while the helpers still read them:
        // a single drop waits for its `fdatasync` and its helper's answer at once, not
        // in turn. A large group's `syncfs` waits for the answers: issued now, it would
        // run beside the previous group's own (bursts 8–15% slower, measured).
        let hashedAhead = opened.indices.filter { if case .success = hashes[$0] { true } else { false } }
        let durableAhead =
            GroupDurability(filesPlacingBytes: hashedAhead.count) == .perFile
                && makeBytesDurable(hashedAhead.map { opened[$0].fd }) ? Set(hashedAhead) : []
        let started = inspections
        let files = opened
        reads.notify(queue: queue) { [self] answers in
            completion(
                finish(
                    requests, started, files, answers: answers, hashes: hashes, durableAhead: durableAhead,
                    stop: stop))
        }
    }

    /// `inspect` for a caller that waits (`save`): the helpers' answers are joined on
    /// a queue of its own while this thread waits for them.
    package func inspect(_ requests: [FilingRequest]) -> [Inspection] {
        let answered = DispatchSemaphore(value: 0)
        let found = Mutex<[Inspection]>([])
        inspect(
            requests, stop: { false }, finishingOn: DispatchQueue(label: "photofiler.inspection")
        ) { inspections in
            found.withLock { $0 = inspections }
            answered.signal()
        }
        answered.wait()
        return found.withLock { $0 }
    }

    /// Files up to this size are hashed while the helpers read them.
    static let hashAheadLimit: Int64 = 64 << 20

    /// The hash, the size read, and the end scans that saw the bytes: every format's
    /// while the type is not known yet, else the type's own.
    private typealias Hashed = (hash: String, size: Int64, ends: EndMarkerScans)

    private func hash(
        _ fd: FileDescriptor, _ source: BytePath, size: Int64, scanning ends: EndMarkerScans, stop: () -> Bool
    ) -> Result<Hashed, FilingError> {
        Result { () throws(FilingError) in
            var ends = ends
            let hashed = try systemCall(source) { () throws(SystemError) in
                try copier.hash(fd, path: source, scanning: &ends, size: size, stop: stop)
            }
            return (hashed.hash, hashed.size, ends)
        }
    }

    /// Joins each opened file's answer and hash, and checks its end came (by the
    /// type the helper found) and it did not change meanwhile. `durableAhead` holds
    /// the positions in `opened` whose bytes were synced while the helpers read them.
    private func finish(
        _ requests: [FilingRequest], _ started: [Inspection],
        _ opened: [(index: Int, source: BytePath, fd: FileDescriptor, status: FileStatus)],
        answers: [Result<MediaInfo, MediaError>], hashes: [Result<Hashed, FilingError>?],
        durableAhead: Set<Int>, stop: () -> Bool
    ) -> [Inspection] {
        var inspections = started
        var leftToSync: [(index: Int, fd: FileDescriptor)] = []
        for (position, (file, (read, hashed))) in zip(opened, zip(answers, hashes)).enumerated() {
            do throws(FilingError) {
                let info = try read.mapError { FilingError.media($0) }.get()
                let ownScan = EndMarkerScans(mimeType: info.mimeType)
                let (hash, size, ends) = try
                    (hashed
                    ?? self.hash(file.fd, file.source, size: file.status.size, scanning: ownScan, stop: stop))
                    .get()
                try verifyEnd(ends, mimeType: info.mimeType, source: file.source)
                try checkUnchanged(file.fd, source: file.source, before: file.status, bytesRead: size)
                inspections[file.index] = .ready(
                    InspectedFile(
                        request: requests[file.index], source: file.source, fd: file.fd, status: file.status,
                        info: info, hash: hash, size: size, bytesDurable: durableAhead.contains(position)))
                if !durableAhead.contains(position) { leftToSync.append((file.index, file.fd)) }
            } catch {
                file.fd.close()
                inspections[file.index] = .failed(error)
            }
        }
        if !leftToSync.isEmpty, makeBytesDurable(leftToSync.map(\.fd)) {
            for (index, _) in leftToSync {
                guard case .ready(var file) = inspections[index] else { continue }
                file.bytesDurable = true
                inspections[index] = .ready(file)
            }
        }
        return inspections
    }

    /// Step 2 of filing (`GroupDurability.makeBytesDurable`), done here so that it
    /// overlaps the helpers' reading of this group and the filing of the previous
    /// one (issue 15). Only read, never written, so nothing changes on disk; false
    /// when it failed, which leaves the step to the filer, which reports it.
    private func makeBytesDurable(_ files: [FileDescriptor]) -> Bool {
        do throws(SystemError) {
            try GroupDurability.makeBytesDurable(files, library: layout.root)
            return true
        } catch {
            return false
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
    /// stays (keep, copy), lives on another file system or on another mount of the
    /// library's (a bind mount: link(2) says EXDEV), or belongs to another user
    /// (fs.protected_hardlinks refuses to link it, and its owner could still change it).
    package func mustCopy(_ request: FilingRequest, status: FileStatus, fd: FileDescriptor) -> Bool {
        let ownedByAnother = status.userID != effectiveUserID && effectiveUserID != 0
        if request.mode != .move || status.device != libraryDevice || ownedByAnother { return true }
        guard let libraryMount else { return false }
        do {
            return try fd.mountID() != libraryMount
        } catch {
            return false  // not known: the link is tried, and says what is wrong if it fails
        }
    }

    /// What a helper says the open file is.
    package func readMedia(_ fd: FileDescriptor, source: BytePath, size: Int64) throws(FilingError)
        -> MediaInfo
    {
        try helpers.inspect(MediaFile(fd: fd, path: source, size: size)).mapError { FilingError.media($0) }
            .get()
    }

    /// A JPEG, PNG or GIF whose end the hash pass did not meet was cut.
    func verifyEnd(_ scan: EndMarkerScans, mimeType: String, source: BytePath) throws(FilingError) {
        do {
            try scan.verify(mimeType: mimeType, path: source)
        } catch {
            throw .media(error)
        }
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
}

/// What inspecting one request found.
public enum Inspection: Sendable {
    /// Read and hashed; its source is still open (`fd`), to be synced and linked.
    case ready(InspectedFile)
    /// Left to the filer, which inspects it on its own queue (`Filer.stage`).
    case leftToFiler
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
    /// Its bytes are durable already (the inspection synced them).
    public var bytesDurable = false
}
