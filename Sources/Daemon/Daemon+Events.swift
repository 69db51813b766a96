import Dispatch
import Glibc
import PhotoFilerSandbox
import PhotoFilerSystem
import PhotoFilerWatching

/// Watcher events go to the machine they concern, and the inbox supervisor's
/// actions are performed here: watching, scanning, looking at files. Runs on `queue`.
extension Daemon {

    /// One batch from the watcher: the library's events to the monitor, the rest
    /// (in order) to the inbox supervisor; an overflow concerns both. Then the
    /// files looked at before the batch was read, which waited for its events.
    func handle(_ batch: WatchBatch) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = DeadlineTimer.now
        var inboxEvents: [WatchEvent] = []
        for event in batch.events {
            if case .overflow = event {
                perform(monitor.handle(.overflow, at: now))
                inboxEvents.append(event)
            } else if monitor.owns(event) {
                perform(monitor.handle(.watched(event), at: now))
            } else {
                inboxEvents.append(event)
            }
        }
        if !inboxEvents.isEmpty { perform(inboxes.handle(.watcher(inboxEvents))) }
        feed(.eventsRead(batch.reads))
        stateChanged()
    }

    /// Files a look or a scan found, with no close or rename to say they are done.
    /// One that someone holds open for writing (a creation read after its writer's
    /// first write, a hard link to a file still written elsewhere) is left to the
    /// close that comes, or to the next rescan. A look made while the watcher has
    /// events unread may have missed a write: the filing queue arms the rest only
    /// once those events are in.
    /// Returns how many were queued.
    @discardableResult
    private func feedFound(_ paths: [BytePath]) -> Int {
        let reads = watcher.hasUnreadEvents ? watcher.completeReads : nil
        let quiet = paths.filter { !isHeldByAWriter($0) }
        feed(.found(quiet, unreadAfter: reads))
        return quiet.count
    }

    /// True only when the kernel says a writer holds `path`: a file that cannot be
    /// looked at, or of which the kernel will not say, stays a candidate, and filing
    /// it says what is wrong.
    private func isHeldByAWriter(_ path: BytePath) -> Bool {
        do {
            guard try Sys.isOpenForWriting(path) == true else { return false }
            log.debug("'\(path.display)' is held open for writing; it is filed once its writer is done.")
            return true
        } catch {
            return false
        }
    }

    /// Performs the supervisor's actions in order, each with what it leads to.
    /// Returns how many files the scans among them found.
    @discardableResult
    func perform(_ actions: [InboxSupervisor.Action]) -> Int {
        dispatchPrecondition(condition: .onQueue(queue))
        var found = 0
        for action in actions {
            switch action {
            case .makeFolder(let root):
                do {
                    try Sys.makeDirectories(root)
                } catch  where error.errno == .notDirectory || error.errno == .exists {
                    // A file is in the way: the watch that follows fails and says so.
                } catch {
                    log.error(
                        "The inbox folder '\(root.display)' cannot be created (\(error.errno.message)); create it or fix its permissions."
                    )
                }
            case .watch(let root):
                found += perform(inboxes.handle(.watched(root, watch(root))))
                watchTheWaysToInboxes()
            case .watchParent(let root):
                do {
                    // A folder made on the way between the look and the watch makes no
                    // event for it (`mkdir -p` racing this): looked for again once the
                    // watch is there, and watched in turn, until nothing deeper is there.
                    var folder = nearestExistingFolder(above: root)
                    while true {
                        try watcher.watchFolderOnly(folder)
                        let deeper = nearestExistingFolder(above: root)
                        guard deeper != folder, deeper.isWithin(folder) else { break }
                        folder = deeper
                    }
                } catch {
                    log.warning(
                        "'\(root.display)' is missing and its parent cannot be watched (\(error)); it is looked for again at the next rescan."
                    )
                }
            case .unwatch(let root):
                do {
                    try watcher.unwatch(directory: root)
                } catch {
                    // An inbox nested with this one could not be watched again: said, as at its start.
                    log.error("\(error)")
                    lastError = "\(error)"
                }
                watchTheWaysToInboxes()
            case .detectSyncEngine(let root):
                do {
                    found += perform(inboxes.handle(.syncEngine(root, try SyncEngine.owning(root))))
                } catch {
                    // What could not be looked at is not "no engine": the last word stays.
                    log.debug("'\(root.display)' could not be listed for a sync engine's marker: \(error)")
                }
            case .scanTree(let root, let announce):
                let files = scanner.scanTree(root)
                if announce, files.count > 300 {
                    log.info("Found \(files.count) file(s) in '\(root.display)'; filing them as they settle.")
                }
                found += feedFound(files)
            case .scanFolder(let folder):
                foundInBatch += scanner.scan(folder).files
            case .lookForContent(let path):
                do {
                    let status = try Sys.status(path)
                    if status.isRegularFile, status.size > 0 { foundInBatch.append(path) }
                } catch  where error.errno == .noSuchFile {
                    // Gone already: nothing to file.
                } catch {
                    // Not looked at is not empty: filing it says what is wrong, once.
                    foundInBatch.append(path)
                }
            case .settle(let events):
                let candidates = foundInBatch
                foundInBatch = []
                if !events.isEmpty { feed(.watched(events)) }
                if !candidates.isEmpty { feedFound(candidates) }
                // A file is on its way: start the helpers while it settles, not once it has.
                if !events.isEmpty || !candidates.isEmpty { HelperPool.shared.prepare() }
            case .watchIfPresent(let root, let line):
                // Watched again meanwhile (an earlier event of the same return): said once.
                guard inboxes.missing.contains(root) else { continue }
                do {
                    guard try Sys.statusIfExists(root) != nil else { continue }
                    found += perform([.watch(root)])
                    if let line { log.info(line) }
                } catch {
                    log.warning(
                        "The inbox '\(root.display)' cannot be looked at (\(error.errno.message)); it is looked for again at the next rescan."
                    )
                }
            case .rescan(let reason):
                let count = perform(inboxes.handle(.rescan))
                log.debug("Rescan (\(reason)): \(count) file(s) queued.")
            case .log(let level, let line):
                log.log(level, line)
            case .recordError(let text):
                lastError = text
            }
        }
        return found
    }

    /// The folders above the inboxes, watched so that a parent renamed or removed
    /// (`mv apps apps.old`) makes its inboxes missing, and the folder-only watch on the
    /// way to a missing inbox, dropped once it is found.
    private func watchTheWaysToInboxes() {
        watcher.dropFolderOnlyWatches(keepingWaysTo: inboxes.missing)
        watcher.watchAncestors(of: inboxes.watchedRoots)
    }

    /// Watches an inbox tree; a failure says whether the folder is missing or
    /// exists (or could not be looked at: that is no "missing").
    private func watch(_ root: BytePath) -> InboxSupervisor.WatchOutcome {
        do {
            try watcher.watch(directory: root, excluding: [library.layout.root])
            return .watching
        } catch {
            let looked = Result { () throws(SystemError) in try Sys.statusIfExists(root) }
            if case .success(nil) = looked { return .missing }
            return .failed(error)
        }
    }

    var scanner: InboxScanner { InboxScanner(excluded: [library.layout.root]) }

    /// The missing inbox's parent, or the nearest folder above it that exists (one
    /// that cannot be looked at is taken as there: its watch then says why).
    private func nearestExistingFolder(above root: BytePath) -> BytePath {
        var folder = root.parent
        while folder != BytePath("/"), folder.bytes.first == UInt8(ascii: "/") {
            do {
                if try Sys.statusIfExists(folder) != nil { return folder }
            } catch {
                return folder
            }
            folder = folder.parent
        }
        return folder
    }
}
