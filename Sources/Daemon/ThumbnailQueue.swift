import Dispatch
import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem
import Synchronization

/// The daemon's thumbnails: made on threads of their own (one per core, as many as
/// the helpers that decode them) at nice 19 and the idle I/O class, after each
/// group is durable, never on the filing path. It holds
/// asset ids only (bounded by the library's size, 8 bytes each), waits while
/// filing has work, and resumes after a restart from the files themselves: an
/// asset whose thumbnail files are missing (and not marked undecodable) is pending.
/// With nothing to do it sleeps on a semaphore: no timer, no polling.
///
/// Thread safety: the queue of ids and the flags are behind `state`'s mutex; each
/// worker has a store (a catalog connection) of its own.
package final class ThumbnailQueue: Sendable {
    private struct State: ~Copyable {
        var ids: [AssetID] = []
        var head = 0
        var queued: Set<AssetID> = []
        /// Filing has a group in hand or waiting: thumbnails wait.
        var filingBusy = false
        /// The library is to be looked over for what is pending (at start, and when
        /// another process filed assets: `rescan`); the first worker free does it.
        var scanWanted = true
        var startScanned = false
        var stopping = false
        /// Failed for a reason other than their bytes (a helper that could not start,
        /// a full disk, a thumbnails folder in the way): `retryFailed` queues them again.
        var failed: Set<AssetID> = []
        /// Queued again by `retryFailed`: a second failure is not logged as a warning again.
        var retrying: Set<AssetID> = []

        var count: Int { ids.count - head }

        mutating func take() -> AssetID? {
            guard head < ids.count else { return nil }
            let id = ids[head]
            head += 1
            queued.remove(id)
            if head > 4096, head * 2 > ids.count {
                ids.removeFirst(head)
                head = 0
            }
            return id
        }
    }

    private let state = Mutex(State())
    /// Workers wait here for work; one that takes an asset while more wait wakes the next.
    private let wake = DispatchSemaphore(value: 0)
    /// One per worker, held while it makes an asset: `stop` takes each, so the process
    /// never exits under a thumbnail half written.
    private let making: [MakingLock]
    private let layout: LibraryLayout
    private let desktop: DesktopThumbnailCache?
    private let log: Logger

    package init(
        layout: LibraryLayout, desktop: DesktopThumbnailCache?, log: Logger,
        workers: Int = max(1, Int(sysconf(CInt(_SC_NPROCESSORS_ONLN))))
    ) {
        self.layout = layout
        self.desktop = desktop
        self.log = log
        self.making = (0..<max(workers, 1)).map { _ in MakingLock() }
    }

    /// Assets still to make (queued, not counting the one in hand).
    package var pendingCount: Int { state.withLock { $0.count } }

    /// Starts the workers; the first queues what a previous run left pending.
    package func start() {
        for worker in making.indices {
            let thread = Thread { [self] in run(worker: worker) }
            thread.name = "photofiler.thumbnails"
            thread.start()
        }
    }

    /// Queues assets just filed (their group is durable), or adopted by a reconcile.
    /// `filingBusy` says whether filing has more in hand (nil: as it was); thumbnails
    /// wait until it has none.
    package func add(_ ids: [AssetID], filingBusy: Bool? = nil) {
        let wakeUp = state.withLock { state -> Bool in
            for id in ids where state.queued.insert(id).inserted { state.ids.append(id) }
            let wasBusy = state.filingBusy
            if let filingBusy { state.filingBusy = filingBusy }
            return !state.filingBusy && (!ids.isEmpty || wasBusy)
        }
        if wakeUp { wake.signal() }
    }

    /// Queues again the assets whose thumbnails failed for a reason other than their
    /// bytes. The daemon calls it at each periodic rescan and on SIGHUP, so that what
    /// the user fixed meanwhile is made without a restart, and no timer of its own
    /// wakes the daemon.
    package func retryFailed() {
        let ids = state.withLock { state -> [AssetID] in
            let ids = state.failed.sorted()
            state.retrying.formUnion(state.failed)
            state.failed.removeAll()
            return ids
        }
        if !ids.isEmpty { add(ids) }
    }

    /// Looks over the library again for assets whose thumbnails are missing: another
    /// process (`save`, `check --repair`) filed them and left them to the daemon.
    package func rescan() {
        state.withLock { $0.scanWanted = true }
        wake.signal()
    }

    /// Says the process is stopping, before the helpers are ended: a thumbnail they
    /// leave unmade is made at the next start, and is said so, not warned of.
    package func willStop() {
        state.withLock { $0.stopping = true }
    }

    /// Waits for the assets in hand (if any), then keeps the workers from starting another.
    package func stop() {
        state.withLock { $0.stopping = true }
        for _ in making { wake.signal() }
        for lock in making { lock.mutex.withLock { _ in } }
    }

    private func run(worker: Int) {
        do {
            try Sys.moveCurrentThreadToBackground()
        } catch {
            log.debug("Thumbnails run at normal priority (\(error)).")
        }
        let opened = making[worker].mutex.withLock { _ -> ThumbnailStore? in
            guard !state.withLock({ $0.stopping }) else { return nil }
            do {
                return try ThumbnailStore.opening(layout, desktop: desktop)
            } catch {
                log.error("Thumbnails are not made this run: \(error)")
                return nil
            }
        }
        guard let store = opened else { return }
        enum Step { case scan(first: Bool), make(AssetID, more: Bool), wait, stop }
        while true {
            let step = state.withLock { state -> Step in
                if state.stopping { return .stop }
                // The start's scan first, filing busy or not: it only queues.
                if state.scanWanted, !state.startScanned || !state.filingBusy {
                    state.scanWanted = false
                    defer { state.startScanned = true }
                    return .scan(first: !state.startScanned)
                }
                if state.filingBusy { return .wait }
                return state.take().map { Step.make($0, more: state.count > 0) } ?? .wait
            }
            switch step {
            case .scan(let first):
                guard scan(store, worker: worker, warn: first) || !first else { return }
            case .make(let id, let more):
                if more { wake.signal() }  // a worker asleep joins in
                make(id, store, worker: worker)
            case .wait: wake.wait()
            case .stop: return
            }
        }
    }

    /// Queues what the library has pending; false when it could not be looked over.
    /// Under `making`, like every use of the store, so that exit never runs while the
    /// scan reads the catalog; it asks `stopping` at every asset, so a stop waits for
    /// one asset, not for a million. Folders that could not be looked at are warned
    /// of at the start's scan only: they are not made again until they are fixed.
    private func scan(_ store: ThumbnailStore, worker: Int, warn: Bool) -> Bool {
        making[worker].mutex.withLock { _ -> Bool in
            do {
                let pending = try store.pending { self.state.withLock { $0.stopping } }
                if warn { for problem in pending.unreadable { log.warning(problem.description) } }
                add(pending.ids, filingBusy: state.withLock { $0.filingBusy })
                return true
            } catch {
                log.error(warn ? "Thumbnails are not made this run: \(error)" : "\(error)")
                return false
            }
        }
    }

    private func make(_ id: AssetID, _ store: ThumbnailStore, worker: Int) {
        making[worker].mutex.withLock { _ in
            guard !state.withLock({ $0.stopping }) else { return }
            let failure: ThumbnailError?
            do throws(ThumbnailError) {
                if let asset = try store.asset(id) {
                    try store.make(
                        asset, retryingFailure: false, desktopProblem: { log.warning($0.description) })
                }
                failure = nil
            } catch {
                failure = error
            }
            // One line per asset: the failure marker keeps an undecodable one from being
            // tried again; any other is tried again by `retryFailed`, and is a warning
            // only the first time.
            let undecodable = if case .undecodable = failure { true } else { false }
            let again = state.withLock { state in
                if failure != nil, !undecodable { state.failed.insert(id) }
                return state.retrying.remove(id) != nil
            }
            guard let failure else { return }
            // Cut short by a stop: made at the next start, which is no trouble.
            let stopped = if case .unavailable = failure { state.withLock { $0.stopping } } else { false }
            log.log(undecodable || stopped ? .info : again ? .debug : .warning, failure.description)
        }
    }
}

/// A worker's lock, in a class so that the queue can hold one per worker (a
/// `Mutex` cannot be copied into an array).
private final class MakingLock: Sendable {
    let mutex = Mutex(())
}
