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
    private var heap = DeadlineHeap()
    private var nextGeneration: UInt64 = 0

    public init(settle: UInt64 = 300_000_000) {
        self.settle = settle
    }

    /// Number of paths waiting for their deadline.
    public var pendingCount: Int { pending.count }

    /// The paths waiting to settle (for `status`'s files waiting per inbox).
    public var pendingPaths: [BytePath] { Array(pending.keys) }

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
            disarm(path)
        case .directoryGone(let folder):
            forgetAll(below: folder)
        case .overflow:
            // Closes may have been lost with the queue: the rescan decides anew.
            writing.removeAll()
        case .created, .directoryAppeared, .failed, .renamed:
            break
        }
    }

    /// A file found by a scan, or created with content: arms it unless its name is
    /// temporary or a writer still holds it (a write seen and no close since).
    public mutating func found(_ path: BytePath, at now: UInt64) {
        guard !writing.contains(path) else { return }
        arm(path, at: now)
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
