import Dispatch
import PhotoFilerSystem
import PhotoFilerWatching

/// Disks mounted and unmounted while the daemon runs. A disk mounted on a folder of
/// the Roll or an album (one that was not mounted, told as "could not look"), or
/// where a missing inbox lives, makes no inotify event: without this, its folders
/// would go unwatched until the next start. Runs on `queue`.
extension Daemon {
    func watchMounts() {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            mounts = try MountTableWatcher(queue: queue) { @Sendable [unowned self] in self.mountsChanged() }
        } catch {
            log.warning(
                "Disks mounted while photofiler runs are not noticed until it restarts: \(error) (is /proc mounted?)."
            )
        }
    }

    /// The mount table changed. Only when a watched folder's path leads elsewhere now,
    /// or a missing inbox is there now, is anything done (a disk of no concern, a
    /// container's mounts, costs a `stat` of each watched folder): the library's
    /// folders are watched anew and reconciled, and so are the inboxes.
    func mountsChanged() {
        dispatchPrecondition(condition: .onQueue(queue))
        // Heard during a start-up cut short by SIGTERM: nothing more is done.
        if stopRequested.load(ordering: .relaxed) { return }
        let inboxAppeared = inboxes.missing.contains { (try? Sys.statusIfExists($0)) != nil }
        guard inboxAppeared || watcher.anyFolderReplaced() else { return }
        log.info("A disk was mounted or unmounted under the library or an inbox: they are looked at again.")
        do {
            try watchLibraryFolders(again: true)
        } catch {
            log.error("\(error)")
        }
        reconcileLibrary(reason: "a disk was mounted or unmounted")
        // Each inbox walked anew (and scanned); a missing one looked for, and the way
        // to it watched from the nearest folder there now (perhaps on the new disk).
        perform(
            inboxes.inboxes.keys.sorted().flatMap { root -> [InboxSupervisor.Action] in
                inboxes.missing.contains(root)
                    ? [.watchParent(root), .watchIfPresent(root, then: nil)] : [.watch(root)]
            })
        stateChanged()
        rearm()
    }
}
