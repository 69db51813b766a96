import PhotoFilerSystem

/// One change the watcher saw, already translated from inotify's bit masks.
///
/// Paths are absolute `BytePath`s built from the watched folder's path and the
/// event's name bytes, so a name that is not UTF-8 arrives intact.
public enum WatchEvent: Sendable, Hashable {
    /// A file opened for writing was closed (`IN_CLOSE_WRITE`): a candidate.
    case closedWrite(BytePath)
    /// A file was renamed into a watched folder (`IN_MOVED_TO`): a candidate.
    case movedIn(BytePath)
    /// A file was created (`IN_CREATE`). Usually empty; a hard link (`ln`) arrives
    /// with its content, so the caller looks (size, link count) and decides.
    case created(BytePath)
    /// A file was written to (`IN_MODIFY`): it is still being written.
    case modified(BytePath)
    /// A file's permissions, owner or times were changed (`IN_ATTRIB`): not a
    /// candidate by itself, but a file refused because it could not be read may
    /// be readable now (a `chmod`, as the refusal's message asks).
    case attributesChanged(BytePath)
    /// A file was deleted (`IN_DELETE`).
    case removed(BytePath)
    /// A file was renamed out of (or within) a watched folder (`IN_MOVED_FROM`).
    case movedOut(BytePath)
    /// Both halves of one rename of a file, paired by inotify's cookie: it was at
    /// `from` and is now at `to`, both in watched folders. It follows the
    /// `movedOut(from)` and `movedIn(to)` it pairs, which are reported as well.
    case renamed(from: BytePath, to: BytePath)
    /// A folder is now watched that was not before: a new sub-folder, one moved in,
    /// or one found again after an overflow. Files created in it before its watch
    /// existed produce no events, so the caller scans it (only it: every newly
    /// watched sub-folder gets its own event).
    case directoryAppeared(BytePath)
    /// A watched folder was deleted, moved away or unmounted, with everything below
    /// it. When it is a watch root, the caller calls `watch(directory:)` again once
    /// it exists again.
    case directoryGone(BytePath)
    /// The kernel's event queue overflowed: events were lost, rescan every root.
    /// Folders that appeared meanwhile are already watched again (and reported as
    /// `directoryAppeared` just before this event).
    case overflow
    /// A folder below a root could not be watched (permission, watch limit).
    case failed(WatchError)

    /// The path the event is about, if any.
    public var path: BytePath? {
        switch self {
        case .closedWrite(let path), .movedIn(let path), .created(let path), .modified(let path),
            .attributesChanged(let path), .removed(let path), .movedOut(let path),
            .directoryAppeared(let path), .directoryGone(let path),
            .renamed(_, let path):
            return path
        case .overflow, .failed:
            return nil
        }
    }
}

/// What one drain of the watcher read, in order.
public struct WatchBatch: Sendable {
    public var events: [WatchEvent]
    /// How many drains had read the queue empty once this one ended: every event
    /// queued before a look made while `InotifyWatcher.completeReads` was lower is
    /// in this batch or an earlier one.
    public var reads: UInt64

    public init(events: [WatchEvent], reads: UInt64) {
        self.events = events
        self.reads = reads
    }
}
