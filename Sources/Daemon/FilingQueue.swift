import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem
import PhotoFilerWatching

/// The daemon's filing side as a pure state machine: candidates settle (the
/// `Debouncer`), settled paths wait in order without repeats, one group at a time
/// goes out to be inspected while the previous one is filed, a shortage (a full
/// disk, no descriptors) holds the work until a retry, and every refused file is
/// reported once for as long as it stays the same file.
///
/// It does no I/O and reads no clock: `handle` is given each event and the time
/// (nanoseconds on Dispatch's uptime clock) and returns what the shell is to do;
/// `nextDeadline` says when it must be woken with `.tick`. So every rule is a row
/// of a table test (FilingQueueTests).
package struct FilingQueue {
    package enum Event {
        /// Inbox events, in order, for the settle rules (`Debouncer.apply`).
        case watched([WatchEvent])
        /// Files found by a scan or created with content (`Debouncer.found`), with
        /// the watcher's complete reads at the look when it had events unread then.
        case found([BytePath], unreadAfter: UInt64? = nil)
        /// The watcher has read its queue empty this many times, and the events are in.
        case eventsRead(UInt64)
        /// The time has come for `nextDeadline`, or later.
        case tick
        /// The group sent out with `.inspect` is back.
        case inspected
        /// What filing the group did, request by request.
        case filed([(request: FilingRequest, outcome: FilingOutcome)])
        /// A start-up backlog this large is filed with progress lines every `interval` seconds.
        case backlog(files: Int, interval: Double)
        /// SIGTERM: nothing more goes out; a group that comes back is not filed.
        case stop
        /// Files an earlier run refused and reported that are still there as they
        /// were (start-up): found again by the catch-up, they are not reported again.
        case refusedBefore([FileFingerprint])
    }

    package enum Action: Equatable {
        /// Open, sniff and hash this group (`FileInspector.inspect`); answer `.inspected`.
        case inspect([FilingRequest])
        /// File the group that came back (`Filer.file(inspected:requests:)`); answer `.filed`.
        case file([FilingRequest])
        /// The group came back after `.stop`: close its descriptors, file nothing.
        case discardInspected
        case log(LogLevel, String)
        /// `status`'s last error.
        case recordError(String)
        /// These assets' thumbnails may be missing; `filingBusy` says whether filing has more in hand.
        case makeThumbnails([AssetID], filingBusy: Bool)
        /// Tell systemd the status line (counts changed in a way worth a line).
        case announceStatus
        /// Store this newly reported refusal, so a restart does not report it again.
        case rememberRefusal(FileFingerprint)
        /// These refused paths were filed or are gone: their stored refusals go.
        case forgetRefusals([BytePath])
    }

    /// Files per group (one turn of the daemon's queue: shared fsyncs and commit).
    package let groupSize: Int
    /// How long a shortage holds the work before the next try.
    package static let retryDelay: UInt64 = 5_000_000_000

    private var debouncer: Debouncer
    /// Settled paths waiting to be filed, in order, without repeats.
    private var work: [BytePath] = []
    private var workHead = 0
    private var workSet: Set<BytePath> = []
    /// The group out being inspected, if any.
    private var inspecting: [FilingRequest]?
    /// When a shortage's hold ends; nil while nothing is held.
    private var retryAt: UInt64?
    private var stopping = false
    /// The shortage was logged; the next success clears it, so a later one is logged anew.
    private var shortageReported = false
    /// Refused files already reported: the size each path had when it was.
    private var refusals: [BytePath: Refusal] = [:]
    private var progress: WorkProgress?
    package private(set) var filedCount = 0

    package init(settle: UInt64, groupSize: Int) {
        debouncer = Debouncer(settle: settle)
        self.groupSize = groupSize
    }

    /// The settle time in nanoseconds (SIGHUP may change it; applies to new candidates).
    package var settle: UInt64 {
        get { debouncer.settle }
        set { debouncer.settle = newValue }
    }

    /// Files seen and not yet filed: settling or waiting for their group.
    package var waitingPaths: [BytePath] { Array(work[workHead...]) + debouncer.pendingPaths }
    package var waitingCount: Int { work.count - workHead + debouncer.pendingCount }
    /// Files not filed yet, the group out being inspected among them: what a stop leaves.
    package var unfiledCount: Int { waitingCount + (inspecting?.count ?? 0) }

    /// When to be woken with `.tick`: the earliest settle deadline or the end of a hold.
    package var nextDeadline: UInt64? {
        mutating get {
            guard !stopping else { return nil }
            switch (debouncer.nextDeadline, retryAt) {
            case (let settle?, let retry?): return min(settle, retry)
            case (let settle, let retry): return settle ?? retry
            }
        }
    }

    /// `request` says what filing a path means now (its inbox's settings), nil when
    /// it is no longer to be filed (its inbox is gone, its name became temporary).
    package mutating func handle(
        _ event: Event, at now: UInt64, request: (BytePath) -> FilingRequest?
    ) -> [Action] {
        switch event {
        case .watched(let events):
            for event in events {
                // A refused file whose permissions changed may be readable now: it is tried again.
                if case .attributesChanged(let path) = event, refusals[path] != nil {
                    debouncer.found(path, at: now)
                }
                debouncer.apply(event, at: now)
            }
            return []
        case .found(let paths, let reads):
            for path in paths { debouncer.found(path, at: now, unreadAfter: reads) }
            return []
        case .eventsRead(let reads):
            debouncer.eventsRead(reads, at: now)
            return []
        case .tick:
            for path in debouncer.due(at: now) where workSet.insert(path).inserted { work.append(path) }
            if let retry = retryAt, retry <= now { retryAt = nil }
            let waiting = work.count - workHead
            if let group = nextGroup(request) { return [.inspect(group)] }
            // Paths taken and none to file (their inbox gone, written again): filing has
            // nothing in hand, which the last group's `.makeThumbnails` may have said it had.
            guard waiting > 0, inspecting == nil, retryAt == nil, !stopping else { return [] }
            return [.makeThumbnails([], filingBusy: false)]
        case .inspected:
            let group = inspecting ?? []
            inspecting = nil
            if stopping { return [.discardInspected] }
            // The next group is inspected while this one is filed.
            return (nextGroup(request).map { [.inspect($0)] } ?? []) + [.file(group)]
        case .filed(let group):
            return filed(group, at: now)
        case .backlog(let files, let interval):
            progress = WorkProgress(total: files, interval: interval, now: Self.seconds(now))
            return []
        case .stop:
            stopping = true
            return []
        case .refusedBefore(let fingerprints):
            for fingerprint in fingerprints { refusals[fingerprint.path] = Refusal(size: fingerprint.size) }
            return []
        }
    }

    // MARK: Groups

    private mutating func nextGroup(_ request: (BytePath) -> FilingRequest?) -> [FilingRequest]? {
        guard inspecting == nil, retryAt == nil, !stopping else { return nil }
        var group: [FilingRequest] = []
        while group.count < groupSize, workHead < work.count {
            let path = work[workHead]
            workHead += 1
            workSet.remove(path)
            // Written again since it settled: it waits to settle anew.
            if debouncer.isUnsettled(path) { continue }
            if let filing = request(path) { group.append(filing) }
        }
        compactWork()
        guard !group.isEmpty else { return nil }
        inspecting = group
        return group
    }

    /// Drops the taken head of `work` once it is most of the array, so taking is O(1).
    private mutating func compactWork() {
        if workHead == work.count {
            work.removeAll(keepingCapacity: true)
            workHead = 0
        } else if workHead > 4096, workHead * 2 > work.count {
            work.removeFirst(workHead)
            workHead = 0
        }
    }

    /// Puts a path back at the front (a shortage: it is tried first after the hold).
    private mutating func putBack(_ path: BytePath) {
        guard workSet.insert(path).inserted else { return }
        if workHead > 0 {
            workHead -= 1
            work[workHead] = path
        } else {
            work.insert(path, at: 0)
        }
    }

    // MARK: Outcomes

    private mutating func filed(
        _ group: [(request: FilingRequest, outcome: FilingOutcome)], at now: UInt64
    ) -> [Action] {
        var actions: [Action] = []
        var thumbnails: [AssetID] = []
        var settledRefusals: [BytePath] = []
        for (request, outcome) in group {
            actions += report(outcome, request: request, at: now)
            if let id = outcome.needsThumbnails { thumbnails.append(id) }
            if outcome.settlesRefusal, refusals.removeValue(forKey: request.source) != nil {
                settledRefusals.append(request.source)
            }
        }
        if !settledRefusals.isEmpty { actions.append(.forgetRefusals(settledRefusals)) }
        // The group is durable: its thumbnails may be made, once filing has nothing in hand.
        let waiting = work.count - workHead
        actions.append(.makeThumbnails(thumbnails, filingBusy: waiting > 0 || inspecting != nil))
        if var backlog = progress {
            if let snapshot = backlog.advance(by: group.count, now: Self.seconds(now)) {
                actions.append(.log(.info, snapshot.line("Start-up backlog")))
            }
            progress = backlog.isComplete ? nil : backlog
        }
        if (waiting > 0 && waiting % 500 == 0) || (waiting == 0 && inspecting == nil) {
            actions.append(.announceStatus)
        }
        return actions
    }

    private mutating func report(_ outcome: FilingOutcome, request: FilingRequest, at now: UInt64) -> [Action]
    {
        let path = request.source.display
        let album = request.album?.value ?? ""
        switch outcome {
        case .filed(_, let rollPath):
            shortageReported = false
            filedCount += 1
            return [.log(.info, "Filed '\(path)' → '\(rollPath.display)' (album \(album)).")]
        case .duplicate(let id, let rollPath, let joined):
            shortageReported = false
            let what = joined ? "; added to the album \(album)" : "; nothing new to file"
            return [.log(.info, "'\(path)' is already asset \(id) ('\(rollPath.display)')\(what).")]
        case .restored(let id, let rollPath):
            shortageReported = false
            filedCount += 1
            return [
                .log(
                    .info,
                    "'\(path)' brought asset \(id) back from Recently Deleted → '\(rollPath.display)' (album \(album))."
                )
            ]
        case .alreadySeen:
            shortageReported = false
            return [.log(.debug, "'\(path)' was filed before with these bytes; it is not filed again.")]
        case .failed(let error, let fingerprint):
            return failed(error, source: request.source, fingerprint: fingerprint, at: now)
        }
    }

    private mutating func failed(
        _ error: FilingError, source: BytePath, fingerprint: FileFingerprint, at now: UInt64
    ) -> [Action] {
        switch error {
        case .vanished, .stopped:
            return []
        case .media(.empty):
            // A placeholder (a browser's, an app's) is expected, not an error:
            // its content, when it comes, brings a close or a rename.
            return [.log(.debug, error.description)]
        case .changedWhileFiling:
            debouncer.found(source, at: now)
            return []
        case _ where error.shortage != nil:
            // Keep it and retry soon: filing resumes by itself once there is room.
            putBack(source)
            if retryAt == nil { retryAt = now &+ Self.retryDelay }
            var actions: [Action] = [.recordError(error.description)]
            if !shortageReported {
                shortageReported = true
                actions.append(.log(.error, error.description))
            }
            return actions
        default:
            // A refusal, a helper that crashed or hung on it: said once for this
            // file; said again only once it has changed (and failed again).
            var actions: [Action] = [.recordError(error.description)]
            let said = refusals.updateValue(
                Refusal(size: fingerprint.size, reason: error.description), forKey: fingerprint.path)
            if said?.isSaid(size: fingerprint.size, reason: error.description) != true {
                actions.append(.log(.error, error.description))
                // One that could not be looked at (-1) is tried and said again after a restart.
                if fingerprint.size >= 0 { actions.append(.rememberRefusal(fingerprint)) }
            }
            return actions
        }
    }

    /// Monotonic seconds, for progress rates.
    private static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}

/// What filing one request did, as the queue needs it (mapped by the shell from
/// `Filer`'s results, with the failed file's fingerprint looked up).
package enum FilingOutcome {
    case filed(id: AssetID, rollPath: BytePath)
    case duplicate(id: AssetID, rollPath: BytePath, joinedAlbum: Bool)
    case restored(id: AssetID, rollPath: BytePath)
    case alreadySeen
    case failed(FilingError, FileFingerprint)

    /// `rollPath` is absolute (the layout's root before the asset's relative path).
    package init(
        _ result: Result<FilingResult, FilingError>, layout: LibraryLayout, fingerprint: () -> FileFingerprint
    ) {
        switch result {
        case .failure(let error):
            self = .failed(error, fingerprint())
        case .success(let result):
            guard let asset = result.asset else {
                self = .alreadySeen
                return
            }
            let rollPath = layout.absolute(result.rollPath ?? asset.rollPath)
            switch result.outcome {
            case .filed: self = .filed(id: asset.id, rollPath: rollPath)
            case .duplicate(let joined):
                self = .duplicate(id: asset.id, rollPath: rollPath, joinedAlbum: joined)
            case .restored: self = .restored(id: asset.id, rollPath: rollPath)
            case .alreadySeen: self = .alreadySeen
            }
        }
    }

    /// The path no longer holds a file that was refused: it was filed, or it is gone.
    var settlesRefusal: Bool {
        switch self {
        case .failed(.vanished, _): return true
        case .failed: return false
        case .filed, .duplicate, .restored, .alreadySeen: return true
        }
    }

    /// The asset whose thumbnails (or desktop entries) this filing may have made
    /// missing: a new or restored asset, or a duplicate that joined an album.
    var needsThumbnails: AssetID? {
        switch self {
        case .filed(let id, _), .restored(let id, _), .duplicate(let id, _, joinedAlbum: true): return id
        case .duplicate, .alreadySeen, .failed: return nil
        }
    }
}

/// A refusal said: the refused file's size, and the sentence (nil for one said by an
/// earlier run, whose sentence is not kept). Said again only for a changed file or
/// another reason (a disk not mounted, then mounted on another disk).
private struct Refusal {
    var size: Int64
    var reason: String? = nil

    func isSaid(size: Int64, reason: String) -> Bool {
        self.size == size && (self.reason == nil || self.reason == reason)
    }
}

/// A file as far as "the same file" goes for reporting a refusal once: its path
/// and size (-1 when it could not be looked at, which is then one fingerprint of
/// its own until it can). Not its mtime: a `touch`, a `chmod` or a sync engine's
/// re-sync changes that and not the bytes, and a refused file is reported once.
package struct FileFingerprint: Hashable, Sendable {
    package var path: BytePath
    package var size: Int64

    package init(path: BytePath, size: Int64) {
        self.path = path
        self.size = size
    }
}
