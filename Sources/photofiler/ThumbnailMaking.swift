import Foundation
import Glibc
import PhotoFilerCatalog
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerSystem
import Synchronization

extension Context {
    /// Makes the thumbnails of assets this command added to the library (`save`'s
    /// filed files, `check --repair`'s adopted roll files) once they are in, never
    /// before: an asset that gives no thumbnail is still in. With a daemon watching the
    /// library they are its work (it is told, and makes them in the background), so
    /// the command ends once its files are filed; else they are made here on every
    /// core, a phase of the progress display of its own, whose last line says how many
    /// assets had them made. Each problem is one warning.
    func makeThumbnails(of assets: [AssetID], in library: PhotoLibrary, style: ProgressDisplay.Style) {
        guard !assets.isEmpty else { return }
        if handToDaemon(assets.count, library) { return }
        let display = Mutex(ProgressDisplay("Thumbnails", unit: "asset", total: assets.count, style: style))
        do {
            _ = try runThumbnails(
                library, only: assets, retryingFailure: false,
                progress: { _, _ in display.withLock { $0.advance() } })
        } catch {
            log.warning(error.description)
        }
        display.withLock { $0.finish() }
    }

    /// The one way thumbnails are made now (`save`, `check --repair`, `thumb --all`):
    /// `ThumbnailBatch` on every core, with the desktop's cache when it is on.
    func runThumbnails(
        _ library: PhotoLibrary, only: [AssetID]?, retryingFailure: Bool,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws(ThumbnailError) -> ThumbnailBatch.Outcome {
        let batch = ThumbnailBatch(
            layout: library.layout, desktop: Configuration.desktopThumbnailCache(configuration),
            workers: FaultInjection.countsCalls ? 1 : ProcessInfo.processInfo.activeProcessorCount)
        let log = self.log
        return try batch.run(
            only: only, retryingFailure: retryingFailure, progress: progress,
            report: { log.warning($0.description) })
    }

    /// Tells a daemon watching the library that assets are waiting for thumbnails;
    /// false when there is none (or it could not be told: they are made here). Only a
    /// daemon of this version, by the state it publishes, is told: SIGUSR1 would end
    /// one from before the signal was its own (a package upgraded under it).
    private func handToDaemon(_ count: Int, _ library: PhotoLibrary) -> Bool {
        guard case .running(let pid?) = try? DaemonProbe.probe(library: library.layout.root),
            let state = DaemonState.read(in: library.layout), state.pid == pid,
            state.version == PhotoFilerVersion.current
        else { return false }
        do {
            try Sys.sendSignal(SIGUSR1, to: pid)
        } catch {
            log.debug("The daemon (pid \(pid)) could not be told of new thumbnails (\(error)); made here.")
            return false
        }
        log.info("Thumbnails: the daemon (pid \(pid)) makes those of \(count) asset(s) in the background.")
        return true
    }
}
