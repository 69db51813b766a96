import Dispatch
import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem
import Synchronization

/// The daemon's thumbnails: made on a thread of their own at nice 19 and the idle
/// I/O class, after each group is durable, never on the filing path. It holds
/// asset ids only (bounded by the library's size, 8 bytes each), waits while
/// filing has work, and resumes after a restart from the files themselves: an
/// asset whose thumbnail files are missing (and not marked undecodable) is pending.
/// With nothing to do it sleeps on a semaphore: no timer, no polling.
///
/// Thread safety: the queue of ids and the flags are behind `state`'s mutex; the
/// store (catalog connection, decoders) is used by the worker thread alone.
package final class ThumbnailQueue: Sendable {
    private struct State: ~Copyable {
        var ids: [AssetID] = []
        var head = 0
        var queued: Set<AssetID> = []
        /// Filing has a group in hand or waiting: thumbnails wait.
        var filingBusy = false
        var stopping = false

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
    private let wake = DispatchSemaphore(value: 0)
    /// Held while one asset is being made: `stop` takes it, so exit's library
    /// destructors never run under libvips or libavcodec.
    private let making = Mutex(())
    private let layout: LibraryLayout
    private let desktop: DesktopThumbnailCache?
    private let log: Logger

    package init(layout: LibraryLayout, desktop: DesktopThumbnailCache?, log: Logger) {
        self.layout = layout
        self.desktop = desktop
        self.log = log
    }

    /// Assets still to make (queued, not counting the one in hand).
    package var pendingCount: Int { state.withLock { $0.count } }

    /// Starts the worker thread; it first queues what a previous run left pending.
    package func start() {
        let thread = Thread { [self] in run() }
        thread.name = "photofiler.thumbnails"
        thread.start()
    }

    /// Queues assets just filed (their group is durable). `filingBusy` says whether
    /// filing has more in hand; thumbnails wait until it has none.
    package func add(_ ids: [AssetID], filingBusy: Bool) {
        let wakeUp = state.withLock { state -> Bool in
            for id in ids where state.queued.insert(id).inserted { state.ids.append(id) }
            let wasBusy = state.filingBusy
            state.filingBusy = filingBusy
            return !filingBusy && (!ids.isEmpty || wasBusy)
        }
        if wakeUp { wake.signal() }
    }

    /// Waits for the asset in hand (if any), then keeps the worker from starting another.
    package func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
        making.withLock { _ in }
    }

    private func run() {
        do {
            try Sys.moveCurrentThreadToBackground()
        } catch {
            log.debug("Thumbnails run at normal priority (\(error)).")
        }
        // Opening the store starts libvips (GLib's type system): under `making` too, so
        // a stop right after start-up never lets exit's destructors race that set-up.
        let opened = making.withLock { _ -> ThumbnailStore? in
            guard !state.withLock({ $0.stopping }) else { return nil }
            do {
                return try ThumbnailStore.opening(layout, desktop: desktop)
            } catch {
                log.error("Thumbnails are not made this run: \(error)")
                return nil
            }
        }
        guard let store = opened else { return }
        // Outside `making`: with a million assets the scan takes long, and SIGTERM
        // must not wait for it (it stops at the next asset).
        do {
            let pending = try store.pending { self.state.withLock { $0.stopping } }
            add(pending, filingBusy: state.withLock { $0.filingBusy })
        } catch {
            log.error("Thumbnails are not made this run: \(error)")
            return
        }
        enum Step { case make(AssetID), wait, stop }
        while true {
            let step = state.withLock { state -> Step in
                if state.stopping { return .stop }
                if state.filingBusy { return .wait }
                return state.take().map(Step.make) ?? .wait
            }
            switch step {
            case .make(let id): make(id, store)
            case .wait: wake.wait()
            case .stop: return
            }
        }
    }

    private func make(_ id: AssetID, _ store: ThumbnailStore) {
        making.withLock { _ in
            guard !state.withLock({ $0.stopping }) else { return }
            do throws(ThumbnailError) {
                guard let asset = try store.asset(id) else { return }
                try store.make(asset, retryingFailure: false)
            } catch {
                // One line per asset: the failure marker keeps it from being tried again.
                if case .undecodable = error {
                    log.info(error.description)
                } else {
                    log.warning(error.description)
                }
            }
        }
    }
}
