import PhotoFilerCatalog

/// The thumbnail files already sent, by asset and size, so the many requests of a
/// grid go straight to the file: no catalog read, no turn at the thumbnail store.
///
/// Forgotten whenever the catalog changes (any commit by any process wakes the
/// event hub's watch): a deletion, a purge or a repaired hash is never answered
/// from here for longer than it takes that watch to fire. Only the whole library's
/// scope uses it; a share checks its album's membership on every request.
///
/// `@unchecked Sendable`: `files` and `generation` are guarded by `lock`.
final class KnownThumbnails: @unchecked Sendable {
    struct Key: Hashable {
        var asset: AssetID
        var size: Int
    }

    private let lock = ThreadLock()
    private var files: [Key: ThumbnailFile] = [:]
    /// Counts the forgetting, so a lookup that raced with a change is not kept.
    private var generation = 0
    private static let capacity = 100_000

    func file(_ key: Key) -> ThumbnailFile? { lock.withLock { files[key] } }

    /// What `remember` must be given: the generation before the catalog was read.
    var current: Int { lock.withLock { generation } }

    func remember(_ file: ThumbnailFile, for key: Key, readAt generation: Int) {
        lock.withLock {
            guard generation == self.generation else { return }
            if files.count >= Self.capacity { files.removeAll() }
            files[key] = file
        }
    }

    func forgetAll() {
        lock.withLock {
            generation += 1
            files.removeAll()
        }
    }
}
