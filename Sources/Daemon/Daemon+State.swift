import Dispatch
import Foundation
import Glibc
import PhotoFilerSystem
import PhotoFilerWatching

/// What the daemon has published of its state for `photofiler status`, and when.
struct StatePublication {
    /// Seconds since 1970 when the daemon started.
    let startedAt = Date().timeIntervalSince1970
    /// Inbox roots that exist but could not be watched.
    var failedInboxes: Set<BytePath> = []
    /// The state last written; an unchanged state is not written again.
    var published: DaemonState?
    /// A write is scheduled on the queue.
    var scheduled = false
    /// Monotonic time of the last write, in nanoseconds.
    var lastWrite: UInt64 = 0

    /// During a burst the file is rewritten at most this often.
    static let minimumInterval: UInt64 = 1_000_000_000
}

/// Publishing `DaemonState`: only when something changed, at most once a second,
/// from the queue's own work. No timer runs while nothing happens, so idle stays idle.
extension Daemon {
    /// Something `status` shows may have changed: publish soon (coalesced).
    func stateChanged() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !publication.scheduled, !stopping else { return }
        publication.scheduled = true
        let due = publication.lastWrite + StatePublication.minimumInterval
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: max(due, DebounceTimer.now))) {
            @Sendable [unowned self] in
            self.publication.scheduled = false
            self.publishState()
        }
    }

    /// Writes the state now when it differs from the last one written.
    func publishState() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !stopping else { return }
        let state = currentState()
        guard state != publication.published else { return }
        do {
            try state.publish(in: library.layout)
            publication.published = state
            publication.lastWrite = DebounceTimer.now
        } catch {
            log.debug("The daemon state for 'photofiler status' was not written: \(error)")
        }
    }

    func currentState() -> DaemonState {
        var waiting: [BytePath: Int] = [:]
        for path in work + debounce.pendingPaths {
            if let root = inboxRoot(for: path) { waiting[root, default: 0] += 1 }
        }
        let inboxStates = configuration.inboxes.map { inbox in
            let state: DaemonState.Inbox.State =
                missingInboxes.contains(inbox.path)
                ? .missing : publication.failedInboxes.contains(inbox.path) ? .error : .watching
            return DaemonState.Inbox(
                name: inbox.name.value, path: inbox.path.display,
                pathBase64: inbox.path.isValidUTF8 ? nil : Data(inbox.path.bytes).base64EncodedString(),
                state: state, waiting: waiting[inbox.path, default: 0])
        }
        return DaemonState(
            pid: getpid(), since: publication.startedAt, version: PhotoFilerVersion.current,
            inboxes: inboxStates, lastError: lastError, watches: watcher.watchedFolderCount)
    }
}
