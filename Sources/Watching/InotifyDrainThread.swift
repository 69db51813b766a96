import Dispatch
import Foundation
import PhotoFilerSystem
import Synchronization

/// Waits on a thread of its own until libinotifytools' fd has events, then has the
/// watcher's queue drain them, and waits for that drain before it looks again.
///
/// Not a Dispatch read source: Dispatch's event loop wakes for every event the
/// kernel queues on the fd, each wake-up waking a worker in turn, even while the
/// queue is busy and cannot drain. The daemon files a group on that same queue, and
/// filing makes two events a file (the roll link's `IN_CREATE`, the inbox's
/// `IN_DELETE` when the source goes), so a 10,000-file burst woke Dispatch's
/// manager thread about 10,000 times for its own links and removals alone
/// (`perf record -e sched:sched_wakeup`, 2026-12-06). This thread sleeps in `poll`
/// and is not polling while a drain is queued: the events that come meanwhile wake
/// no one, and the drain reads them together. Idle, it sleeps without a timeout.
///
/// `@unchecked Sendable`: its stored properties are set in `init` and never change;
/// the thread and `stop()` share only the wake-up descriptor, a kernel object
/// (`handOvers` and `stopped` are atomic).
final class InotifyDrainThread: @unchecked Sendable {
    private let events: FileDescriptor
    private let wakeup: FileDescriptor
    private let queue: DispatchQueue
    private let drain: @Sendable () -> Void
    private let finished: @Sendable () -> Void
    /// Drains handed to the queue so far: the thread's wake-ups for events (for tests).
    let handOvers = Atomic<UInt64>(0)
    /// `stop()` was called: the thread closes `wakeup` once it has seen it, so no
    /// second call may write to that descriptor's number.
    private let stopped = Atomic<Bool>(false)

    /// Starts the thread. `drain` runs on `queue` each time `events` has input (it
    /// must read it, or the thread hands it over again at once); `finished` runs on
    /// the thread once it polls `events` no more, after `stop()`.
    init(
        events: FileDescriptor, queue: DispatchQueue, drain: @escaping @Sendable () -> Void,
        finished: @escaping @Sendable () -> Void
    ) throws(SystemError) {
        self.events = events
        self.wakeup = try Sys.makeWakeup()
        self.queue = queue
        self.drain = drain
        self.finished = finished
        let thread = Thread { [self] in run() }
        thread.name = "photofiler.inotify"
        thread.start()
    }

    /// Tells the thread to end; it calls `finished` when it has. A drain already
    /// handed to the queue still runs (the watcher's `drain` returns early once stopped).
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Fails only for a bad descriptor, and this one stays open until the thread has seen it.
        try? wakeup.signalWakeup()
    }

    private func run() {
        // Signalled by each drain once it has run; the thread waits for it before it polls again.
        let drained = DispatchSemaphore(value: 0)
        while true {
            let stopping: Bool
            do {
                stopping = try Sys.waitForInput(on: events, orWakeup: wakeup)
            } catch {
                // poll fails only without memory for its table: drain anyway, so that no
                // event waits for the next one, and look again.
                stopping = false
            }
            if stopping { break }
            handOvers.add(1, ordering: .relaxed)
            queue.async { [drain] in
                drain()
                drained.signal()
            }
            drained.wait()
        }
        wakeup.close()
        finished()
    }
}
