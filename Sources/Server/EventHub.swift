import Dispatch
import PhotoFilerCatalog
import PhotoFilerSystem

/// The open `/api/events` streams, and what wakes them: the catalog's change log
/// (`asset_changes`), read when the catalog's folder changes (an inotify watch on
/// `.photofiler/`, where every commit writes the WAL). Nothing runs while nothing
/// changes, with or without a browser connected.
///
/// `@unchecked Sendable`: `streams` and `seen` are guarded by `lock`; the watch
/// descriptor and its source are set once in `start` and used on `watchQueue`.
public final class EventHub: @unchecked Sendable {
    private let catalog: CatalogAccess
    private let lock = ThreadLock()
    private var streams: [ObjectIdentifier: EventStream] = [:]
    /// The newest change already sent.
    private var seen: Int64 = 0
    private let watchQueue = DispatchQueue(label: "photofiler.gallery.changes")
    private var source: (any DispatchSourceRead)?
    /// A read of the change log is queued (changes come in bursts: one read per burst).
    private var readPending = false

    init(catalog: CatalogAccess) {
        self.catalog = catalog
    }

    /// Watches the catalog's folder from now on.
    func start() throws(ServerError) {
        seen = (try? catalog.read { try $0.latestChange() }) ?? 0
        let fd: FileDescriptor
        do {
            fd = try Sys.watchFolderWrites(catalog.layout.internalFolder)
        } catch {
            throw .cannotWatch(error)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd.rawValue, queue: watchQueue)
        source.setEventHandler { @Sendable [unowned self] in
            Sys.drain(fd)
            scheduleRead()
        }
        source.resume()
        self.source = source
    }

    /// A new stream; `album` limits it to that album's assets (a share).
    func open(album: AlbumID?) -> EventStream {
        let stream = EventStream(album: album) { [weak self] stream in self?.remove(stream) }
        lock.withLock { streams[ObjectIdentifier(stream)] = stream }
        return stream
    }

    private func remove(_ stream: EventStream) {
        _ = lock.withLock { streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    private func scheduleRead() {
        let already = lock.withLock {
            defer { readPending = true }
            return readPending
        }
        if already { return }
        // A short delay gathers a burst of commits into one read.
        watchQueue.asyncAfter(deadline: .now() + .milliseconds(40)) { [self] in
            lock.withLock { readPending = false }
            catalog.later { [self] in readChanges($0) }
        }
    }

    /// On the catalog's queue: sends every change after `seen` to the streams that may see it.
    private func readChanges(_ catalog: Catalog) {
        let listeners = lock.withLock { Array(streams.values) }
        if listeners.isEmpty {
            let latest = (try? catalog.latestChange()) ?? seen
            lock.withLock { seen = latest }
            return
        }
        var after = lock.withLock { seen }
        while true {
            guard let batch = try? catalog.changes(after: after, limit: 500), !batch.isEmpty else { break }
            for change in batch {
                let event = EventStream.message(change.kind.rawValue, id: change.asset)
                for stream in listeners {
                    if let album = stream.album,
                        (try? catalog.everInAlbum(change.asset, album)) != true
                    {
                        continue
                    }
                    stream.send(event)
                }
            }
            after = batch[batch.count - 1].sequence
            if batch.count < 500 { break }
        }
        lock.withLock { seen = max(seen, after) }
    }
}

/// One `/api/events` connection: Server-Sent Events queued here until the
/// connection takes them; parked (no thread) while there is nothing to send.
///
/// `@unchecked Sendable`: every field but the constants is guarded by `lock`.
final class EventStream: StreamingBody, @unchecked Sendable {
    let album: AlbumID?
    private let lock = ThreadLock()
    private var pending: [UInt8]
    private var wake: (@Sendable () -> Void)?
    private var isParked = false
    /// A client that stopped reading while this much waited: its stream ends, and
    /// its browser reconnects and reloads, rather than the server holding it all.
    static let backlogLimit = 256 * 1024
    private var overflowed = false
    private let onClose: @Sendable (EventStream) -> Void

    init(album: AlbumID?, onClose: @escaping @Sendable (EventStream) -> Void) {
        self.album = album
        self.onClose = onClose
        // The reconnect delay, and a comment so the browser sees the stream open at once.
        pending = Array("retry: 1000\n: photofiler events\n\n".utf8)
    }

    /// `event: KIND` with `data: {"id": ID}`.
    static func message(_ kind: String, id: AssetID) -> [UInt8] {
        Array("event: \(kind)\ndata: {\"id\": \(id)}\n\n".utf8)
    }

    func send(_ bytes: [UInt8]) {
        let wakeUp: (@Sendable () -> Void)? = lock.withLock {
            if pending.count + bytes.count > Self.backlogLimit {
                overflowed = true
                pending = []
            } else if !overflowed {
                pending += bytes
            }
            guard isParked else { return nil }
            isParked = false
            return wake
        }
        wakeUp?()
    }

    func attach(wake: @escaping @Sendable () -> Void) {
        lock.withLock { self.wake = wake }
    }

    func next(limit: Int, park: () -> Void) -> StreamChunk {
        lock.withLock {
            if overflowed { return .end }
            if pending.isEmpty {
                isParked = true
                park()
                return .wait
            }
            let count = min(limit, pending.count)
            let chunk = Array(pending[..<count])
            pending.removeFirst(count)
            return .bytes(chunk)
        }
    }

    func closed() { onClose(self) }
}
