import Dispatch
import Foundation
import Glibc
import PhotoFilerSandbox
import PhotoFilerSystem
import PhotoFilerWatching

/// Watcher events: inbox files become candidates, library removals are checked,
/// overflows and vanished folders lead to rescans. Runs on `queue`.
extension Daemon {

    package func handle(_ events: [WatchEvent]) {
        dispatchPrecondition(condition: .onQueue(queue))
        let layout = library.layout
        var inboxEvents: [WatchEvent] = []
        var found: [BytePath] = []
        for event in events {
            switch event {
            case .overflow:
                log.warning(
                    "The inotify event queue overflowed; rescanning the inboxes and the library so nothing is missed."
                )
                // In order: the events read before the overflow, then the overflow
                // (the debouncer forgets its writers, whose closes may be lost),
                // then the rescan arms every file. Applied after the rescan, a
                // write read just before the overflow would disarm its file for good.
                debounce.apply(inboxEvents + [event])
                debounce.found(found)
                inboxEvents = []
                found = []
                rescanInboxes(reason: "overflow")
                scheduleReconcile()
            case .failed(let error):
                log.error("\(error)")
                lastError = "\(error)"
            case .directoryAppeared(let path):
                if path.isWithin(layout.root) { continue }
                if missingInboxes.contains(path) {
                    _ = watchInbox(path)
                    log.info("The inbox '\(path.display)' is back; watching it again.")
                    continue
                }
                guard inboxRoot(for: path) != nil else { continue }
                found += InboxScanner(excluded: [layout.root]).scan(path).files
            case .directoryGone(let path):
                if path.isWithin(layout.root) {
                    scheduleReconcile()
                } else if inboxes[path] != nil {
                    missingInboxes.insert(path)
                    watchParentForReappearance(path)
                    log.warning(
                        "The inbox '\(path.display)' was removed; it is watched again when it reappears.")
                    // Made again before the parent's watch existed (`rm -rf inbox;
                    // mkdir inbox`): no event will say so, so look now.
                    if (try? Sys.statusIfExists(path)) ?? nil != nil {
                        _ = watchInbox(path)
                        log.info("The inbox '\(path.display)' is back; watching it again.")
                    }
                }
            case .removed(let path), .movedOut(let path):
                if path.isWithin(layout.root) {
                    libraryRemovals.insert(path)
                    scheduleLibraryCheck()
                } else {
                    inboxEvents.append(event)
                }
            case .renamed(let from, let to):
                // Its movedOut put `from` on the removal list: a move within the
                // Roll or between albums is no removal (SPEC "Deletion").
                if isLibraryMove(from: from, to: to) {
                    libraryRemovals.remove(from)
                    libraryEntryMoved(from: from, to: to)
                }
            case .created(let path):
                if path.isWithin(layout.root) { continue }
                if missingInboxes.contains(path) {
                    _ = watchInbox(path)
                    continue
                }
                // A hard link arrives with its content: no close-after-write follows.
                // Its link count cannot tell it apart, since the original may be
                // gone by now (`ln a inbox/; rm a`): any new file with content is
                // a candidate. A writer's `modified`, handled first, keeps it unarmed.
                if inboxRoot(for: path) != nil, !TemporaryName.matches(path),
                    let status = try? Sys.status(path), status.isRegularFile, status.size > 0
                {
                    found.append(path)
                }
            case .closedWrite(let path), .movedIn(let path), .modified(let path):
                if path.isWithin(layout.root) { continue }
                if missingInboxes.contains(path) {
                    _ = watchInbox(path)
                    continue
                }
                guard inboxRoot(for: path) != nil else { continue }
                if case .modified = event {
                    inboxEvents.append(event)
                } else if !TemporaryName.matches(path) {
                    inboxEvents.append(event)
                }
            }
        }
        if !inboxEvents.isEmpty { debounce.apply(inboxEvents) }
        if !found.isEmpty { debounce.found(found) }
        // A file is on its way: start the helpers while it settles, not once it has.
        if !inboxEvents.isEmpty || !found.isEmpty { HelperPool.shared.prepare() }
        stateChanged()
    }

    package func inboxRoot(for path: BytePath) -> BytePath? {
        var best: BytePath?
        for root in inboxes.keys where path.isWithin(root) && path != root {
            if best == nil || root.bytes.count > best!.bytes.count { best = root }
        }
        return best
    }
}
