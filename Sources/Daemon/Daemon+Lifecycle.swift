import Dispatch
import Foundation
import Glibc
import PhotoFilerSandbox

/// SIGTERM, SIGHUP, timers and the systemd status line. Runs on `queue`.
extension Daemon {

    package func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        stopping = true
        notifier.stopping()
        // The inspection queue may be waiting on the helpers: end them (what they were
        // reading stays in its inbox for the next start) and let it finish its group,
        // which it skips the rest of; it writes nothing.
        inspectionCancelled.store(true, ordering: .relaxed)
        HelperPool.shared.stop()
        inspectionQueue.sync {}
        thumbnails?.stop()
        DaemonState.withdraw(in: library.layout)
        log.info(
            "Stopping: \(filedCount) file(s) filed this run; \(work.count + debounce.pendingCount) left for the next start."
        )
        exit(0)
    }

    package func reload() {
        dispatchPrecondition(condition: .onQueue(queue))
        notifier.reloading()
        defer {
            stateChanged()
            notifier.ready(status: statusLine())
        }
        let fresh: Configuration
        do {
            fresh = try reloadConfiguration()
        } catch {
            log.error("The configuration was not reloaded: \(error) The running configuration stays.")
            return
        }
        let old = Set(inboxes.keys)
        let new = Set(fresh.inboxes.map(\.path))
        for root in old.subtracting(new) {
            watcher.unwatch(directory: root)
            inboxes.removeValue(forKey: root)
            missingInboxes.remove(root)
            log.info("No longer watching the inbox '\(root.display)'.")
        }
        configuration = fresh
        debounce.settle = UInt64(fresh.effectiveSettleMilliseconds) * 1_000_000
        for inbox in fresh.inboxes {
            if old.contains(inbox.path) {
                inboxes[inbox.path] = inbox
            } else {
                addInbox(inbox)
                log.info("Now watching the inbox '\(inbox.path.display)' for the album \(inbox.name.value).")
            }
        }
        log.info("Configuration reloaded: \(inboxes.count) inbox(es).")
    }

    package func schedule(
        every interval: DispatchTimeInterval, enabled: Bool, _ body: @escaping @Sendable () -> Void
    ) {
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .seconds(1))
        timer.setEventHandler { @Sendable in body() }
        timer.activate()
        timers.append(timer)
    }

    /// Monotonic seconds, for progress rates.
    package static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    package func statusLine() -> String {
        var text = "\(filedCount) filed, \(work.count + debounce.pendingCount) pending"
        if let waiting = thumbnails?.pendingCount, waiting > 0 { text += ", \(waiting) thumbnail(s) to make" }
        if let lastError { text += "; last error: \(lastError)" }
        return text
    }
}
