import Dispatch
import Glibc
import Synchronization
import TestSupport

@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// Collects a watcher's batches and lets a test wait for a condition on them,
/// with a generous timeout and no fixed sleeps: each batch wakes the waiter.
final class EventLog: Sendable {
    private let events = Mutex<[WatchEvent]>([])
    private let lastReads = Mutex<UInt64>(0)
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ batch: [WatchEvent], reads: UInt64 = 0) {
        events.withLock { $0.append(contentsOf: batch) }
        lastReads.withLock { $0 = reads }
        arrived.signal()
    }

    var all: [WatchEvent] { events.withLock { $0 } }
    /// The `reads` of the last batch.
    var reads: UInt64 { lastReads.withLock { $0 } }

    /// Waits until `condition` holds for the events so far; false on timeout.
    @discardableResult
    func wait(timeout seconds: Double = 10, until condition: ([WatchEvent]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while true {
            if condition(all) { return true }
            if arrived.wait(timeout: deadline) == .timedOut { return condition(all) }
        }
    }

    func wait(for event: WatchEvent, timeout seconds: Double = 10) -> Bool {
        wait(timeout: seconds) { $0.contains(event) }
    }
}

/// Runs `body` with a started watcher and its log; stops the watcher after.
func withWatcher(_ body: (InotifyWatcher, EventLog) throws -> Void) throws {
    let log = EventLog()
    let watcher = try InotifyWatcher { log.append($0.events, reads: $0.reads) }
    defer { watcher.queue.sync { watcher.stop() } }
    try body(watcher, log)
}

extension InotifyWatcher {
    /// `watch(directory:excluding:)` from a test thread, on the watcher's queue.
    @discardableResult
    func watchSync(_ directory: BytePath, excluding: [BytePath] = []) throws -> [BytePath] {
        try queue.sync { try watch(directory: directory, excluding: excluding) }
    }
}
