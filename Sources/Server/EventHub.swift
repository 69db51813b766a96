import Dispatch
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem

/// The open `/api/events` streams, and what wakes them: the catalog's change log
/// (`asset_changes`), read when the catalog's folder changes (an inotify watch on
/// `.photofiler/`, where every commit writes the WAL). Nothing runs while nothing
/// changes, with or without a browser connected.
///
/// A stream opened through a `share` link ends once its share is revoked or has
/// expired, before anything more is sent to it: looked at on every change, and
/// at the share's expiry (one timer, not a poll).
///
/// A read of the change log that fails ends the streams it was for, rather than
/// sending them nothing: each browser reconnects a second later with the last
/// change it saw and is sent what it missed (or `reset`), so no change is lost
/// to a read that could not be made.
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

    /// Runs on every write to the catalog's folder, before the changes are read.
    private let catalogWritten: @Sendable () -> Void
    /// Seconds since the epoch, as a share's expiry is kept.
    private let clock: @Sendable () -> Double
    /// What a share's streams number their events with (this run's key).
    private let seal: NumberSeal

    init(
        catalog: CatalogAccess, clock: @escaping @Sendable () -> Double, seal: NumberSeal,
        catalogWritten: @escaping @Sendable () -> Void = {}
    ) {
        self.catalog = catalog
        self.seal = seal
        self.clock = clock
        self.catalogWritten = catalogWritten
    }

    /// Watches the catalog's folder from now on.
    func start() throws(ServerError) {
        do {
            seen = try catalog.read { catalog throws(CatalogError) in try catalog.latestChange() }
        } catch {
            throw .catalog(error)
        }
        let fd: FileDescriptor
        do {
            fd = try Sys.watchFolderWrites(catalog.layout.internalFolder)
        } catch {
            throw .cannotWatch(error)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd.rawValue, queue: watchQueue)
        // Weak: a gallery whose listener could not start is gone while its folder
        // watch may still fire (another process writing the catalog).
        source.setEventHandler { @Sendable [weak self] in
            Sys.drain(fd)
            guard let self else { return }
            catalogWritten()
            scheduleRead()
        }
        source.setCancelHandler { fd.close() }
        source.resume()
        self.source = source
    }

    deinit { source?.cancel() }

    /// A new stream; one opened through a share sees only its album's assets. A client
    /// that reconnects names the last change it saw (`Last-Event-ID`): it gets what
    /// it missed, or one `reset` when that is gone from the change log, too much to
    /// replay, or from another catalog. Every stream then learns the newest
    /// sequence number as its last event id, so its first reconnect loses nothing.
    func open(share: ShareRecord?, lastEventID: String?) -> EventStream {
        let stream = EventStream(share: share, seal: seal) { [weak self] stream in self?.remove(stream) }
        // On the catalog's queue, where `readChanges` runs: nothing is sent between the replay and the
        // registration.
        catalog.read { catalog in
            if let share {
                guard isLive(share, catalog) else { return stream.end() }
                if let expiry = share.expiresAt { lookAgain(at: expiry) }
            }
            let upTo = lock.withLock { seen }
            if let lastEventID { replay(after: lastEventID, upTo: upTo, into: stream, catalog) }
            stream.send(stream.position(upTo))
            lock.withLock { streams[ObjectIdentifier(stream)] = stream }
        }
        return stream
    }

    /// At most this many missed changes are replayed; more are one `reset`.
    static let replayLimit = 1000

    /// The changes after `lastEventID` up to `upTo`, or `reset`.
    private func replay(after lastEventID: String, upTo: Int64, into stream: EventStream, _ catalog: Catalog)
    {
        guard let last = stream.sequence(named: lastEventID), last >= 0, last <= upTo else {
            stream.send(stream.message("reset", sequence: upTo))
            return
        }
        guard last < upTo else { return }
        do throws(CatalogError) {
            // Replayed only when the log still holds every change after `last` (the oldest
            // kept is right after it or earlier) and there are not too many.
            let missed = try catalog.changes(after: last, limit: Self.replayLimit + 1).filter {
                $0.sequence <= upTo
            }
            guard let oldest = try catalog.oldestChange(), last >= oldest - 1,
                missed.count <= Self.replayLimit
            else {
                stream.send(stream.message("reset", sequence: upTo))
                return
            }
            var events: [[UInt8]] = []
            for change in missed where try isVisible(change, to: stream, catalog) {
                events.append(
                    stream.message(change.kind.rawValue, id: change.asset, sequence: change.sequence))
            }
            for event in events { stream.send(event) }
        } catch {
            // What it missed could not be read: it reloads everything instead.
            stream.send(stream.message("reset", sequence: upTo))
        }
    }

    private func isVisible(_ change: Catalog.AssetChange, to stream: EventStream, _ catalog: Catalog)
        throws(CatalogError) -> Bool
    {
        guard let album = stream.share?.album else { return true }
        return try catalog.everInAlbum(change.asset, album)
    }

    /// The share is still in the catalog, for the same album, and not expired. A
    /// share that could not be looked up counts as ended: its browser reconnects in
    /// a second, and the request's own token check decides again.
    private func isLive(_ share: ShareRecord, _ catalog: Catalog) -> Bool {
        do {
            guard let record = try catalog.share(tokenHash: share.tokenHash) else { return false }
            return record.album == share.album && record.isValid(at: clock())
        } catch {
            return false
        }
    }

    /// Ends every stream whose share has lapsed; the streams left open.
    private func endLapsedShares(_ listeners: [EventStream], _ catalog: Catalog) -> [EventStream] {
        listeners.filter { stream in
            guard let share = stream.share, !isLive(share, catalog) else { return true }
            stream.end()
            return false
        }
    }

    /// A share expires without a write to the catalog: its streams are looked at then.
    private func lookAgain(at expiry: Double) {
        let seconds = max(0, expiry - clock())
        watchQueue.asyncAfter(deadline: .now() + .milliseconds(Int(min(seconds, 1e9) * 1000) + 1)) {
            [weak self] in
            self?.catalog.later { [weak self] catalog in
                guard let self else { return }
                _ = endLapsedShares(lock.withLock { Array(streams.values) }, catalog)
            }
        }
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
        let listeners = endLapsedShares(lock.withLock { Array(streams.values) }, catalog)
        var after = lock.withLock { seen }
        do throws(CatalogError) {
            if listeners.isEmpty {
                let latest = try catalog.latestChange()
                lock.withLock { seen = max(seen, latest) }
                return
            }
            // More changes since the last read than the log keeps: every client reloads.
            if let oldest = try catalog.oldestChange(), oldest > after + 1 {
                let latest = try catalog.latestChange()
                for stream in listeners { stream.send(stream.message("reset", sequence: latest)) }
                lock.withLock { seen = max(seen, latest) }
                return
            }
            while true {
                let batch = try catalog.changes(after: after, limit: 500)
                for change in batch {
                    for stream in listeners where try isVisible(change, to: stream, catalog) {
                        stream.send(
                            stream.message(change.kind.rawValue, id: change.asset, sequence: change.sequence))
                    }
                }
                guard let last = batch.last else { break }
                after = last.sequence
                if batch.count < 500 { break }
            }
        } catch {
            // Sent up to `after`; the rest could not be read. Each browser reconnects
            // with the last change it saw and is sent the rest from there.
            for stream in listeners { stream.end() }
        }
        lock.withLock { seen = max(seen, after) }
    }
}

/// One `/api/events` connection: Server-Sent Events queued here until the
/// connection takes them; parked (no thread) while there is nothing to send.
///
/// `@unchecked Sendable`: every field but the constants is guarded by `lock`.
final class EventStream: StreamingBody, @unchecked Sendable {
    /// The `share` link a stream was opened through.
    let share: ShareRecord?
    /// A share's streams seal their event ids: the change log's sequence numbers would
    /// show, through their gaps, how much changed outside the shared album.
    private let seal: NumberSeal
    private let lock = ThreadLock()
    private var pending: [UInt8]
    private var wake: (@Sendable () -> Void)?
    private var isParked = false
    /// A client that stopped reading while this much waited: its stream ends, and
    /// its browser reconnects and reloads, rather than the server holding it all.
    static let backlogLimit = 256 * 1024
    /// Overflowed, or its share lapsed: the next chunk is the end.
    private var ended = false
    private let onClose: @Sendable (EventStream) -> Void

    init(share: ShareRecord?, seal: NumberSeal, onClose: @escaping @Sendable (EventStream) -> Void) {
        self.share = share
        self.seal = seal
        self.onClose = onClose
        // The reconnect delay, and a comment so the browser sees the stream open at once.
        pending = Array("retry: 1000\n: photofiler events\n\n".utf8)
    }

    /// `event: KIND` with `data: {"id": ID}`, and the change's id (what the browser
    /// sends back as `Last-Event-ID` when it reconnects).
    func message(_ kind: String, id: AssetID, sequence: Int64) -> [UInt8] {
        Array("id: \(eventID(sequence))\nevent: \(kind)\ndata: {\"id\": \(id)}\n\n".utf8)
    }

    /// An event without an asset (`reset`: reload everything), at `sequence`.
    func message(_ kind: String, sequence: Int64) -> [UInt8] {
        Array("id: \(eventID(sequence))\nevent: \(kind)\ndata: {}\n\n".utf8)
    }

    /// Only an `id:`: the browser takes it as its last event id and shows no event.
    func position(_ sequence: Int64) -> [UInt8] {
        Array("id: \(eventID(sequence))\n\n".utf8)
    }

    /// The change log's sequence number, or for a share's stream the number sealed
    /// for that share alone.
    private func eventID(_ sequence: Int64) -> String {
        guard let share else { return String(sequence) }
        return seal.seal(sequence, context: Self.context(share))
    }

    /// The sequence number an id this stream's kind gave names; nil for any other.
    func sequence(named id: String) -> Int64? {
        guard let share else { return Int64(id) }
        return seal.open(id, context: Self.context(share))
    }

    /// A share's context: the first 16 digits of its token's hash.
    private static func context(_ share: ShareRecord) -> UInt64 {
        UInt64(share.tokenHash.prefix(16), radix: 16) ?? 0
    }

    func send(_ bytes: [UInt8]) {
        let wakeUp: (@Sendable () -> Void)? = lock.withLock {
            if pending.count + bytes.count > Self.backlogLimit {
                ended = true
                pending = []
            } else if !ended {
                pending += bytes
            }
            return unpark()
        }
        wakeUp?()
    }

    /// Sends nothing more: the connection ends.
    func end() {
        let wakeUp = lock.withLock {
            ended = true
            pending = []
            return unpark()
        }
        wakeUp?()
    }

    /// Under `lock`: the wake-up to call, when the connection is parked.
    private func unpark() -> (@Sendable () -> Void)? {
        guard isParked else { return nil }
        isParked = false
        return wake
    }

    func attach(wake: @escaping @Sendable () -> Void) {
        lock.withLock { self.wake = wake }
    }

    func next(limit: Int, park: () -> Void) -> StreamChunk {
        lock.withLock {
            if ended { return .end }
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
