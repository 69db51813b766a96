import Dispatch
import Foundation
import Glibc
import PhotoFilerSandbox
import PhotoFilerSystem

/// SIGTERM, SIGHUP, timers and the systemd status line. Runs on `queue`.
extension Daemon {

    func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        feed(.stop)
        publication.stopping = true
        notifier.stopping()
        // The inspection queue may be waiting on the helpers: end them (what they were
        // reading stays in its inbox for the next start) and let it finish its group,
        // which it skips the rest of; it writes nothing.
        stopRequested.store(true, ordering: .relaxed)
        thumbnails?.willStop()
        HelperPool.shared.stop()
        inspectionQueue.sync {}
        thumbnails?.stop()
        DaemonState.withdraw(in: library.layout)
        log.info(
            "Stopping: \(filing.filedCount) file(s) filed this run; \(filing.unfiledCount) left for the next start."
        )
        Sys.exitNow(0)
    }

    func reload() {
        dispatchPrecondition(condition: .onQueue(queue))
        notifier.reloading()
        thumbnails?.retryFailed()
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
        let running = inboxes.configuration
        let needRestart = [
            ("path", running.libraryPath != fresh.libraryPath),
            ("rescan", running.effectiveRescanMinutes != fresh.effectiveRescanMinutes),
            ("desktop-thumbnails", running.effectiveDesktopThumbnails != fresh.effectiveDesktopThumbnails),
        ].filter(\.1).map(\.0)
        if !needRestart.isEmpty {
            log.warning(
                "The [library] setting(s) \(needRestart.joined(separator: ", ")) changed; they take effect when photofiler is restarted (the library '\(library.layout.root.display)' is kept until then), the rest is reloaded now."
            )
        }
        // New inboxes' files settle with the new settle time.
        filing.settle = UInt64(fresh.effectiveSettleMilliseconds) * 1_000_000
        perform(inboxes.handle(.reload(fresh)))
        rearm()
    }

    func schedule(
        every interval: DispatchTimeInterval, enabled: Bool, _ body: @escaping @Sendable () -> Void
    ) {
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .seconds(1))
        timer.setEventHandler { @Sendable in body() }
        timer.activate()
        timers.append(timer)
    }

    func statusLine() -> String {
        var text = "\(filing.filedCount) filed, \(filing.waitingCount) pending"
        if let waiting = thumbnails?.pendingCount, waiting > 0 { text += ", \(waiting) thumbnail(s) to make" }
        if let lastError { text += "; last error: \(lastError)" }
        return text
    }
}
