import PhotoFilerFiling
import PhotoFilerSystem
import PhotoFilerWatching

/// The daemon's watch on its own library as a pure state machine: which watcher
/// events in the Roll and the albums may be a person's change, when to look at
/// them, and which renames are moves rather than removals (photofiler(1) "Deletion").
///
/// The daemon's own writes need no list of their own: what it adds (links, roll
/// files, temporary files in `.photofiler/`) brings only creations, closes and
/// renames-in, which change nothing here; what it removes (`rm`, purges, the
/// album links of a deleted asset) the catalog has recorded first, so looking at
/// it later finds nothing to do. A removal waits `delay` before it is looked at,
/// so a rename whose two halves come in different reads is seen as the move it is.
///
/// No I/O and no clock: events and the time in, actions out (LibraryMonitorTests).
package struct LibraryMonitor {
    package enum Event {
        /// A watcher event on a path within the library.
        case watched(WatchEvent)
        /// The queue overflowed: events were lost.
        case overflow
        /// The time has come for `nextDeadline`, or later.
        case tick
    }

    package enum Action: Equatable {
        /// Look whether this path is really gone; if so, end its asset or membership.
        case lookAtRemoval(BytePath)
        /// Record a move that keeps its asset or membership.
        case recordMove(from: BytePath, to: BytePath)
        /// Make the catalog match the Roll and the albums (folders went, events were lost).
        case reconcile(reason: String)
    }

    /// How long a removal waits before it is looked at (nanoseconds).
    package static let delay: UInt64 = 250_000_000

    package let layout: LibraryLayout
    private var removals: Set<BytePath> = []
    /// Roll files renamed away whose other half has not come (yet): moved out of the
    /// library, or into a folder made so shortly before that its watch was not there
    /// (`mkdir 2001 && mv IMG.JPG 2001/`). Only a reconcile tells the two apart.
    private var rollFilesMovedAway: Set<BytePath> = []
    private var lookAt: UInt64?
    private var reconcileAt: UInt64?

    package init(layout: LibraryLayout) {
        self.layout = layout
    }

    /// When to be woken with `.tick`.
    package var nextDeadline: UInt64? {
        switch (lookAt, reconcileAt) {
        case (let look?, let reconcile?): return min(look, reconcile)
        case (let look, let reconcile): return look ?? reconcile
        }
    }

    /// Whether the event is the library's (the monitor's) rather than an inbox's.
    package func owns(_ event: WatchEvent) -> Bool {
        switch event {
        case .renamed(let from, let to): return from.isWithin(layout.root) || to.isWithin(layout.root)
        case .overflow, .failed: return false
        default: return event.path?.isWithin(layout.root) ?? false
        }
    }

    package mutating func handle(_ event: Event, at now: UInt64) -> [Action] {
        switch event {
        case .watched(.movedOut(let path)) where isInRoll(path):
            rollFilesMovedAway.insert(path)
            if lookAt == nil { lookAt = now &+ Self.delay }
            return []
        case .watched(.removed(let path)), .watched(.movedOut(let path)):
            removals.insert(path)
            if lookAt == nil { lookAt = now &+ Self.delay }
            return []
        case .watched(.renamed(let from, let to)):
            // Its movedOut put `from` on a list: a move within the Roll or between
            // albums is no removal.
            guard isMove(from: from, to: to) else {
                if rollFilesMovedAway.remove(from) != nil { removals.insert(from) }
                return []
            }
            removals.remove(from)
            rollFilesMovedAway.remove(from)
            return [.recordMove(from: from, to: to)]
        case .watched(.directoryGone), .overflow:
            if reconcileAt == nil { reconcileAt = now &+ Self.delay }
            return []
        case .watched:
            return []
        case .tick:
            var actions: [Action] = []
            if let due = lookAt, due <= now {
                lookAt = nil
                actions += removals.sorted().map(Action.lookAtRemoval)
                removals = []
                if !rollFilesMovedAway.isEmpty {
                    rollFilesMovedAway = []
                    // The reconcile finds each one where it went (the same asset) or not at all (removed).
                    if reconcileAt == nil { actions.append(.reconcile(reason: "roll file moved away")) }
                }
            }
            if let due = reconcileAt, due <= now {
                reconcileAt = nil
                actions.append(.reconcile(reason: "library change"))
            }
            return actions
        }
    }

    private func isInRoll(_ path: BytePath) -> Bool {
        layout.relative(path)?.components.first == LibraryLayout.rollFolderName
    }

    /// True for the moves that keep an asset or a membership: a file moved within
    /// `Roll/`, or an album entry moved from one album folder into one (the same or
    /// another). Anything else (out of the Roll into an album, into Recently
    /// Deleted, to a dot name that the library's comparisons leave alone, such as a
    /// sync engine's `.stversions/`) stays the removal its first half announced.
    package func isMove(from: BytePath, to: BytePath) -> Bool {
        guard let fromParts = layout.relative(from)?.components, let toParts = layout.relative(to)?.components
        else { return false }
        if fromParts.first == LibraryLayout.rollFolderName, toParts.first == LibraryLayout.rollFolderName {
            return !toParts.dropFirst().contains(where: LibraryLayout.isForeignName)
        }
        return fromParts.first == LibraryLayout.albumsFolderName && fromParts.count == 3
            && toParts.first == LibraryLayout.albumsFolderName && toParts.count == 3
            && !LibraryLayout.isForeignName(toParts[2])
    }
}
