import PhotoFilerSystem

/// Pairs inotify's two halves of a rename (`IN_MOVED_FROM`, `IN_MOVED_TO`) by their
/// cookie, so a file moved within the watched trees is known as a move and not as
/// a removal plus an arrival (photofiler(1) "Deletion": a move is not a deletion).
///
/// The kernel queues both halves one after the other, but a read may end between
/// them: a `from` waits for its `to` a short while, then expires (the file left
/// the watched trees, and its `movedOut` already said so). A pure value: time is
/// passed in.
struct RenamePairing {
    /// How long a `from` waits for its `to`, in nanoseconds.
    static let expiry: UInt64 = 1_000_000_000
    /// A bound on the waiting halves (moves out of the watched trees never pair).
    static let capacity = 4096

    private var waiting: [UInt32: (path: BytePath, at: UInt64)] = [:]

    /// The first half: `path` was moved away under `cookie`.
    mutating func movedFrom(_ path: BytePath, cookie: UInt32, at now: UInt64) {
        expire(at: now)
        if waiting.count >= Self.capacity { waiting.removeAll() }
        waiting[cookie] = (path, now)
    }

    /// The second half: where the file under `cookie` came from, if that was seen.
    mutating func movedTo(cookie: UInt32, at now: UInt64) -> BytePath? {
        expire(at: now)
        return waiting.removeValue(forKey: cookie)?.path
    }

    private mutating func expire(at now: UInt64) {
        guard !waiting.isEmpty else { return }
        waiting = waiting.filter { now &- $0.value.at < Self.expiry }
    }
}
