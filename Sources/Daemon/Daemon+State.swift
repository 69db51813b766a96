import Foundation
import Glibc
import PhotoFilerSystem

/// When the daemon publishes its state for `photofiler status`: only when
/// something changed, at most once a second during a burst, from the daemon's one
/// timer. Nothing is due while nothing happens, so idle stays idle. Pure: the
/// time is passed in.
struct StatePublication {
    /// Seconds since 1970 when the daemon started.
    let startedAt = Date().timeIntervalSince1970
    /// The state last written; an unchanged state is not written again.
    var published: DaemonState?
    /// When the next write is due; nil while none is.
    private(set) var dueAt: UInt64?
    /// When the last write was, in nanoseconds.
    private var lastWrite: UInt64 = 0
    /// Set at SIGTERM: nothing more is written (the file is withdrawn).
    var stopping = false

    /// During a burst the file is rewritten at most this often.
    static let minimumInterval: UInt64 = 1_000_000_000

    /// Something `status` shows may have changed: a write is due soon (coalesced).
    mutating func changed(at now: UInt64) {
        guard dueAt == nil, !stopping else { return }
        dueAt = max(lastWrite + Self.minimumInterval, now)
    }

    /// Whether the write is due now; it then counts as done.
    mutating func isDue(at now: UInt64) -> Bool {
        guard let due = dueAt, due <= now, !stopping else { return false }
        dueAt = nil
        return true
    }

    mutating func wrote(_ state: DaemonState, at now: UInt64) {
        published = state
        lastWrite = now
    }
}

/// Publishing `DaemonState` (a file beside the catalog). Runs on `queue`.
extension Daemon {
    /// Something `status` shows may have changed: publish soon.
    func stateChanged() {
        dispatchPrecondition(condition: .onQueue(queue))
        publication.changed(at: DeadlineTimer.now)
        rearm()
    }

    /// Writes the state now when it differs from the last one written.
    func publishState() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !publication.stopping else { return }
        let state = currentState()
        guard state != publication.published else { return }
        do {
            try state.publish(in: library.layout)
            publication.wrote(state, at: DeadlineTimer.now)
        } catch {
            log.debug("The daemon state for 'photofiler status' was not written: \(error)")
        }
    }

    func currentState() -> DaemonState {
        DaemonState(
            pid: getpid(), since: publication.startedAt, version: PhotoFilerVersion.current,
            inboxes: inboxes.states(waiting: filing.waitingPaths), lastError: lastError,
            watches: watcher.watchedFolderCount)
    }
}
