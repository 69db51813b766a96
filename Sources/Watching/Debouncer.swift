import PhotoFilerSystem

/// Decides when a file has been quiet long enough to be filed. A pure state
/// machine: it never reads a clock and never schedules anything, so tests drive
/// it with a fake clock and the daemon's `FilingQueue` drives it.
///
/// Times are nanoseconds on one monotonic clock chosen by the caller
/// (`DispatchTime.now().uptimeNanoseconds` in the daemon).
///
/// The rules follow what was measured to work (GUIDE, "Debounce"): only a
/// *candidate* event (close after writing, rename in, a hard link or a scan
/// finding the file) arms a path's deadline; a write (`modified`) disarms it, so a
/// writer that pauses longer than the settle time is never filed early; the next
/// close arms it again. Restarting the timer on every event instead filed chunked
/// writes early.
///
/// A file looked at while the watcher still had events unread (a creation read
/// late, when the writer's first write had already happened) waits for those
/// events before it is armed: its `IN_MODIFY` may be among them, and at settle 0
/// it would be due at once, while its writer still holds it.
public struct Debouncer: Sendable {
    /// How long a candidate must stay quiet, in nanoseconds (0 = due at once).
    public var settle: UInt64

    private struct Pending {
        var deadline: UInt64
        var generation: UInt64
    }

    private var pending: [BytePath: Pending] = [:]
    /// Paths written to (`IN_MODIFY`) and not closed since: a scan that finds one
    /// must not arm it, since its writer still holds it open.
    private var writing: Set<BytePath> = []
    /// Candidates found while events were unread, each with the number of complete
    /// reads of the event queue at its look: armed once a later read is applied.
    private var awaitingEvents: [BytePath: UInt64] = [:]
    private var heap = DeadlineHeap()
    private var nextGeneration: UInt64 = 0

    public init(settle: UInt64 = 300_000_000) {
        self.settle = settle
    }

    /// Number of paths waiting for their deadline or for unread events.
    public var pendingCount: Int { pending.count + awaitingEvents.count }

    /// The paths waiting to settle (for `status`'s files waiting per inbox).
    public var pendingPaths: [BytePath] { Array(pending.keys) + Array(awaitingEvents.keys) }

    /// The path is being written, or settling again: a file that settled and is
    /// waiting for its turn is not to be filed while this holds (it comes back from
    /// `due` once it settles anew).
    public func isUnsettled(_ path: BytePath) -> Bool {
        writing.contains(path) || pending[path] != nil || awaitingEvents[path] != nil
    }

    /// The earliest deadline among pending paths (when to wake next); nil when idle.
    public var nextDeadline: UInt64? {
        mutating get {
            dropStaleTop()
            return heap.first?.deadline
        }
    }

    /// Applies one watcher event at time `now`.
    ///
    /// `created` is left to the caller, who knows whether the new file has content
    /// (a hard link) and then calls `found(_:at:)`.
    public mutating func apply(_ event: WatchEvent, at now: UInt64) {
        switch event {
        case .closedWrite(let path), .movedIn(let path):
            writing.remove(path)
            arm(path, at: now)
        case .modified(let path):
            writing.insert(path)
            disarm(path)
        case .removed(let path), .movedOut(let path):
            writing.remove(path)
            awaitingEvents.removeValue(forKey: path)
            disarm(path)
        case .directoryGone(let folder):
            forgetAll(below: folder)
        case .overflow:
            // Closes may have been lost with the queue: the rescan decides anew.
            writing.removeAll()
        case .created, .attributesChanged, .directoryAppeared, .failed, .renamed:
            break
        }
    }

    /// A file found by a scan, or created with content: arms it unless its name is
    /// temporary or a writer still holds it (a write seen and no close since).
    ///
    /// `unreadAfter` is given when the watcher had events unread at the look: the
    /// number of complete reads so far. The file then waits for `eventsRead(_:at:)`
    /// to report a later one, so the events queued before the look come first.
    public mutating func found(_ path: BytePath, at now: UInt64, unreadAfter reads: UInt64? = nil) {
        guard !writing.contains(path) else { return }
        if let reads {
            awaitingEvents[path] = reads
        } else {
            arm(path, at: now)
        }
    }

    /// The watcher has read its queue empty `reads` times, and every event of those
    /// reads has been applied: the files looked at before the last of them are armed
    /// now, unless those events showed a writer holding them.
    public mutating func eventsRead(_ reads: UInt64, at now: UInt64) {
        guard !awaitingEvents.isEmpty else { return }
        for (path, lookedAt) in awaitingEvents where lookedAt < reads {
            awaitingEvents.removeValue(forKey: path)
            if !writing.contains(path) { arm(path, at: now) }
        }
    }

    /// The paths whose deadline is at or before `now`, each once, then forgotten.
    public mutating func due(at now: UInt64) -> [BytePath] {
        var result: [BytePath] = []
        while let top = heap.first, top.deadline <= now {
            heap.popFirst()
            guard let entry = pending[top.path], entry.generation == top.generation else { continue }
            pending.removeValue(forKey: top.path)
            result.append(top.path)
        }
        return result
    }

    // MARK: Internals

    private mutating func arm(_ path: BytePath, at now: UInt64) {
        guard !TemporaryName.matches(path) else { return }
        let (deadline, overflow) = now.addingReportingOverflow(settle)
        nextGeneration &+= 1
        let entry = Pending(deadline: overflow ? .max : deadline, generation: nextGeneration)
        pending[path] = entry
        heap.push(.init(deadline: entry.deadline, generation: entry.generation, path: path))
        compactIfNeeded()
    }

    private mutating func disarm(_ path: BytePath) {
        if pending.removeValue(forKey: path) != nil { compactIfNeeded() }
    }

    /// Drops every pending path under a folder that went away: O(pending), but
    /// folders vanish rarely compared with file events.
    private mutating func forgetAll(below folder: BytePath) {
        let gone = pending.keys.filter { $0.isWithin(folder) }
        for path in gone { pending.removeValue(forKey: path) }
        writing = writing.filter { !$0.isWithin(folder) }
        awaitingEvents = awaitingEvents.filter { !$0.key.isWithin(folder) }
        compactIfNeeded()
    }

    /// Stale heap nodes (re-armed or disarmed paths) are skipped lazily; once they
    /// outnumber live ones the heap is rebuilt, so memory stays O(pending) and the
    /// rebuild's cost is amortised O(1) per event.
    private mutating func compactIfNeeded() {
        guard heap.count > 2 * pending.count + 64 else { return }
        heap.rebuild(
            from: pending.map {
                .init(deadline: $0.value.deadline, generation: $0.value.generation, path: $0.key)
            })
    }

    private mutating func dropStaleTop() {
        while let top = heap.first {
            if let entry = pending[top.path], entry.generation == top.generation { return }
            heap.popFirst()
        }
    }
}
