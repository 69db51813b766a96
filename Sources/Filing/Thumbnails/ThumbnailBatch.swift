import Dispatch
import PhotoFilerCatalog
import PhotoFilerSystem
import Synchronization

/// Thumbnails made now on `workers` threads, each with its own catalog connection
/// and its own helper's decodes: every missing one of a library (`thumb --all`), or
/// those of the assets a command just filed or adopted (`save`, `check --repair`).
public struct ThumbnailBatch: Sendable {
    public let layout: LibraryLayout
    public let desktop: DesktopThumbnailCache?
    public let workers: Int

    public init(layout: LibraryLayout, desktop: DesktopThumbnailCache?, workers: Int) {
        self.layout = layout
        self.desktop = desktop
        self.workers = max(1, workers)
    }

    public struct Outcome: Sendable {
        /// Assets decoded (something of theirs was missing).
        public var made = 0
        /// Assets that could not be decoded.
        public var undecodable = 0
        /// Assets whose thumbnails (or a folder of them) could not be looked at.
        public var unreadable = 0
        /// Assets whose thumbnails could not be made for another reason (a full disk, a
        /// thumbnail folder that cannot be written, a helper that cannot start).
        public var failed = 0
        public var total = 0
    }

    /// Makes what is missing for `only` these assets, or for every asset in the
    /// library when nil; content that failed before is tried again when
    /// `retryingFailure`. `progress` is called after each asset (done, total);
    /// `report` once per asset that gives no thumbnail, from any worker, except that
    /// a folder that could not be looked at is reported once, not once per asset in it.
    public func run(
        only: [AssetID]? = nil, retryingFailure: Bool = true,
        progress: @escaping @Sendable (Int, Int) -> Void, report: @escaping @Sendable (ThumbnailError) -> Void
    ) throws(ThumbnailError) -> Outcome {
        let assets: [AssetID]
        if let only { assets = only } else { assets = try allAssets() }
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let made = Atomic<Int>(0)
        let undecodable = Atomic<Int>(0)
        let unreadable = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let unreadableFolders = Mutex<Set<BytePath>>([])
        /// Reports a look that failed, once per folder.
        let reportOnce: @Sendable (ThumbnailError) -> Void = { error in
            if case .couldNotLook(_, let folder, _) = error,
                !unreadableFolders.withLock({ $0.insert(folder).inserted })
            {
                return
            }
            report(error)
        }
        let setupFailure = Mutex<ThumbnailError?>(nil)
        let total = assets.count
        DispatchQueue.concurrentPerform(iterations: min(workers, max(1, total))) { _ in
            let store: ThumbnailStore
            do throws(ThumbnailError) {
                store = try ThumbnailStore.opening(layout, desktop: desktop)
            } catch {
                setupFailure.withLock { $0 = error }
                return
            }
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < total else { return }
                do throws(ThumbnailError) {
                    if let asset = try store.asset(assets[index]),
                        try store.make(asset, retryingFailure: retryingFailure, desktopProblem: reportOnce)
                    {
                        made.add(1, ordering: .relaxed)
                    }
                } catch {
                    switch error {
                    case .undecodable: undecodable.add(1, ordering: .relaxed)
                    case .couldNotLook: unreadable.add(1, ordering: .relaxed)
                    default: failed.add(1, ordering: .relaxed)
                    }
                    reportOnce(error)
                }
                progress(done.add(1, ordering: .relaxed).newValue, total)
            }
        }
        if let failure = setupFailure.withLock({ $0 }) { throw failure }
        return Outcome(
            made: made.load(ordering: .relaxed), undecodable: undecodable.load(ordering: .relaxed),
            unreadable: unreadable.load(ordering: .relaxed), failed: failed.load(ordering: .relaxed),
            total: total)
    }

    private func allAssets() throws(ThumbnailError) -> [AssetID] {
        do {
            return try Catalog(path: layout.catalogPath).liveAssetHashes().map(\.id)
        } catch {
            throw .catalog(error)
        }
    }
}
