import Dispatch
import PhotoFilerSystem

/// Drives a `Debouncer` with one `DispatchSourceTimer`, re-armed to the earliest
/// pending deadline after every change (never one timer per file, and no timer
/// firing while nothing is pending).
///
/// Thread safety: `@unchecked Sendable` is sound because the debouncer and the
/// timer are only touched on `queue` (checked with `dispatchPrecondition`);
/// give it the watcher's queue so events go straight in.
public final class DebounceTimer: @unchecked Sendable {
    public let queue: DispatchQueue
    private var debouncer: Debouncer
    private let timer: DispatchSourceTimer
    private let onDue: @Sendable ([BytePath]) -> Void
    private var armedFor: UInt64?

    /// `onDue` runs on `queue` with the paths that stayed quiet for `settle`
    /// nanoseconds; the caller then checks size and mtime and files them.
    public init(
        queue: DispatchQueue, settle: UInt64 = 300_000_000, onDue: @escaping @Sendable ([BytePath]) -> Void
    ) {
        self.queue = queue
        self.debouncer = Debouncer(settle: settle)
        self.onDue = onDue
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { @Sendable [weak self] in self?.fire() }
        timer.schedule(deadline: .distantFuture, repeating: .never)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// The monotonic clock the deadlines use (Dispatch's uptime clock).
    public static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// The settle time in nanoseconds (changeable on SIGHUP; applies to new arms).
    public var settle: UInt64 {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return debouncer.settle
        }
        set {
            dispatchPrecondition(condition: .onQueue(queue))
            debouncer.settle = newValue
        }
    }

    public var pendingCount: Int {
        dispatchPrecondition(condition: .onQueue(queue))
        return debouncer.pendingCount
    }

    /// The paths waiting to settle.
    public var pendingPaths: [BytePath] {
        dispatchPrecondition(condition: .onQueue(queue))
        return debouncer.pendingPaths
    }

    /// Feeds watcher events (see `Debouncer.apply`).
    public func apply(_ events: [WatchEvent]) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = Self.now
        for event in events { debouncer.apply(event, at: now) }
        rearm()
    }

    /// A file found by a scan or created with content (see `Debouncer.found`).
    public func found(_ paths: [BytePath]) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = Self.now
        for path in paths { debouncer.found(path, at: now) }
        rearm()
    }

    /// Stops the timer for good; pending paths are dropped.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        timer.cancel()
    }

    private func fire() {
        dispatchPrecondition(condition: .onQueue(queue))
        armedFor = nil
        let due = debouncer.due(at: Self.now)
        rearm()
        if !due.isEmpty { onDue(due) }
    }

    private func rearm() {
        let next = debouncer.nextDeadline
        guard next != armedFor else { return }
        armedFor = next
        if let next {
            timer.schedule(
                deadline: DispatchTime(uptimeNanoseconds: next), repeating: .never, leeway: .milliseconds(1))
        } else {
            timer.schedule(deadline: .distantFuture, repeating: .never)
        }
    }
}
