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

    /// Files a look found. A look made while the watcher has events unread (a
    /// creation read after its writer's first write) may have missed that the file
    /// is being written: the filing queue arms it only once those events are in.
    private func feedFound(_ paths: [BytePath]) {
        let reads = watcher.hasUnreadEvents ? watcher.completeReads : nil
        feed(.found(paths, unreadAfter: reads))
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
                } catch {
                    log.error(
                        "The inbox folder '\(root.display)' cannot be created (\(error.errno.message)); create it or fix its permissions."
                    )
                }
            case .watch(let root):
                found += perform(inboxes.handle(.watched(root, watch(root))))
            case .watchParent(let root):
                do {
                    try watcher.watchFolderOnly(root.parent)
                } catch {
                    log.warning(
                        "'\(root.display)' is missing and its parent cannot be watched (\(error)); it is looked for again at the next rescan."
                    )
                }
            case .unwatch(let root):
                watcher.unwatch(directory: root)
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
                feedFound(files)
                found += files.count
            case .scanFolder(let folder):
                foundInBatch += scanner.scan(folder).files
            case .lookForContent(let path):
                do {
                    let status = try Sys.status(path)
                    guard status.isRegularFile, status.size > 0 else { continue }
                    // Its writer still holds it (a creation read after the first write):
                    // the close that comes files it. Not known: looked at as a candidate.
                    if try Sys.isOpenForWriting(path) == true { continue }
                    foundInBatch.append(path)
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

    /// Watches an inbox tree; a failure says whether the folder is missing or
    /// exists (or could not be looked at: that is no "missing").
    private func watch(_ root: BytePath) -> InboxSupervisor.WatchOutcome {
        do {
            try watcher.watch(directory: root, excluding: [library.layout.root])
            return .watching
        } catch {
            let looked = Result { () throws(SystemError) in try Sys.statusIfExists(root) }
            if case .success(nil) = looked { return .missing(error) }
            return .failed(error)
        }
    }

    var scanner: InboxScanner { InboxScanner(excluded: [library.layout.root]) }
}
