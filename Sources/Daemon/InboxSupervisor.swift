import Foundation
import PhotoFilerFiling
import PhotoFilerSystem
import PhotoFilerWatching

/// The daemon's inboxes as a pure state machine: which are watched, missing (to
/// be watched again when they reappear) or failing (they exist but cannot be
/// watched: permissions, the watch limit; tried again at each rescan and
/// SIGHUP, once the user has fixed what the error said), which a sync engine owns, what an
/// inbox event means (a candidate to settle, a folder to scan, a file to look
/// at), and what filing a path means (`request(for:)`).
///
/// No I/O: what needs the disk or the watcher is an action, and what the shell
/// found out comes back as an event (`.watched`, `.syncEngine`). Tested with
/// tables of events (InboxSupervisorTests).
package struct InboxSupervisor {
    package enum Event {
        /// Watch these inboxes, beside those watched already (start-up).
        case add([InboxConfiguration])
        /// What `.watch(root)` came to.
        case watched(BytePath, WatchOutcome)
        /// What `.detectSyncEngine(root)` found in the folder.
        case syncEngine(BytePath, SyncEngine?)
        /// A batch of watcher events outside the library, in order.
        case watcher([WatchEvent])
        /// Look at every inbox again (the periodic rescan, an overflow).
        case rescan
        /// SIGHUP read this configuration.
        case reload(Configuration)
    }

    package enum WatchOutcome: Equatable {
        case watching
        /// The folder does not exist (not made at start-up, or a disk mounted over it).
        case missing
        /// It exists (or could not be looked at) and cannot be watched.
        case failed(WatchError)
    }

    package enum Action: Equatable {
        /// Make the inbox folder (and its parents) when missing.
        case makeFolder(BytePath)
        /// Watch the tree (never the library within it); answer `.watched`.
        case watch(BytePath)
        /// Watch the missing inbox's nearest folder that exists (its parent, or higher
        /// when that is gone too) alone, to see the way to the inbox made again.
        case watchParent(BytePath)
        case unwatch(BytePath)
        /// Look for a sync engine's marker; answer `.syncEngine` (not when it cannot be looked at).
        case detectSyncEngine(BytePath)
        /// Every candidate file below the root, armed at once; `announce` says a large find in one line.
        case scanTree(BytePath, announce: Bool)
        /// The candidate files of one new folder, armed with the batch's `.settle`.
        case scanFolder(BytePath)
        /// A new file: a candidate (armed with the batch's `.settle`) when it is a regular file with content.
        case lookForContent(BytePath)
        /// Apply these events to the settle rules, then arm what the batch's looks and scans found.
        case settle([WatchEvent])
        /// Watch the missing inbox when it exists now (then log the line, if any).
        case watchIfPresent(BytePath, then: String?)
        /// Rescan every inbox (`.rescan`) and log how many files that queued.
        case rescan(reason: String)
        case log(LogLevel, String)
        /// `status`'s last error.
        case recordError(String)
    }

    package private(set) var configuration: Configuration
    /// Inbox roots → their settings.
    package private(set) var inboxes: [BytePath: InboxConfiguration] = [:]
    /// Inbox roots that do not exist right now.
    package private(set) var missing: Set<BytePath> = []
    /// Inbox roots that exist but could not be watched, each with the error said
    /// (a retry that fails the same way says nothing more).
    package private(set) var failing: [BytePath: String] = [:]
    /// Inbox roots watched now: neither missing nor failing.
    package var watchedRoots: Set<BytePath> {
        Set(inboxes.keys).subtracting(missing).subtracting(failing.keys)
    }
    /// Inbox roots that a sync engine owns.
    private var syncEngines: [BytePath: SyncEngine] = [:]

    package init(configuration: Configuration) {
        self.configuration = configuration
    }

    package mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .add(let added):
            return added.flatMap { add($0) }
        case .watched(let root, let outcome):
            return watched(root, outcome)
        case .syncEngine(let root, let engine):
            return syncEngineFound(engine, in: root)
        case .watcher(let events):
            return watcher(events)
        case .rescan:
            return inboxes.keys.sorted().flatMap { root -> [Action] in
                if missing.contains(root) { return [.watchIfPresent(root, then: nil)] }
                if failing[root] != nil { return [.watch(root)] }
                // A sync engine set up on the folder since it was last looked at.
                return [.detectSyncEngine(root), .scanTree(root, announce: false)]
            }
        case .reload(let fresh):
            return reload(fresh)
        }
    }

    // MARK: Watching

    private mutating func add(_ inbox: InboxConfiguration) -> [Action] {
        inboxes[inbox.path] = inbox
        return [.makeFolder(inbox.path), .watch(inbox.path)]
    }

    private mutating func watched(_ root: BytePath, _ outcome: WatchOutcome) -> [Action] {
        switch outcome {
        case .watching:
            missing.remove(root)
            let fixed: [Action] =
                failing.removeValue(forKey: root) != nil
                ? [.log(.info, "The inbox '\(root.display)' is watched now.")] : []
            let detect: [Action] = inboxes[root] != nil ? [.detectSyncEngine(root)] : []
            return fixed + detect + [.scanTree(root, announce: true)]
        case .missing:
            missing.insert(root)
            failing.removeValue(forKey: root)
            let line =
                "The inbox '\(root.display)' is not there; it is watched as soon as it is (make the folder, mount the disk it is on, or fix its path in the config file)."
            // Made between the failed watch and the parent's (a disk mounted and the
            // folder made on it at once): no event will say so, so look once more.
            return [
                .watchParent(root), .recordError(line), .log(.warning, line),
                .watchIfPresent(root, then: "The inbox '\(root.display)' is there now; watching it."),
            ]
        case .failed(let error):
            missing.remove(root)
            let said = failing.updateValue("\(error)", forKey: root)
            // Tried again and failing as before: what the rescan does for it, without a word.
            if said == "\(error)" { return [.detectSyncEngine(root), .scanTree(root, announce: false)] }
            return [.recordError("\(error)"), .log(.error, "\(error)")]
        }
    }

    private mutating func syncEngineFound(_ engine: SyncEngine?, in root: BytePath) -> [Action] {
        guard engine != syncEngines[root] else { return [] }
        syncEngines[root] = engine
        guard let engine, let inbox = inboxes[root] else { return [] }
        let folder =
            "The inbox '\(root.display)' (\(inbox.name.value)) is synced by \(engine.rawValue) (\(engine.marker))"
        if configuration.keep ?? inbox.keep == false {
            return [
                .log(.info, "\(folder); its config says keep = false, so filed files are moved out of it.")
            ]
        }
        // Where to say keep = false: its group of the config file (near its path's line),
        // or for an `--inbox` option, a group of its own to write.
        let fix: String
        if let source = inbox.source, source.file != nil {
            fix = "Set keep = false in its group (\(source)) to move them anyway."
        } else {
            fix = "To move them anyway, declare it in the config file with keep = false."
        }
        return [
            .log(
                .info,
                "\(folder): its files are left in place (keep mode), since moving them out would make \(engine.rawValue) delete them on the other device or fetch them again. \(fix)"
            )
        ]
    }

    /// One batch of watcher events. The settle rules see the batch's events first
    /// and then what its looks and scans found, so a writer's `modified` in the
    /// batch keeps a file it also created unarmed. An overflow ends a segment: the
    /// events before it, then the overflow (closes may be lost with the queue),
    /// then the rescan that arms every file.
    private mutating func watcher(_ events: [WatchEvent]) -> [Action] {
        var actions: [Action] = []
        var settling: [WatchEvent] = []
        for event in events {
            switch event {
            case .overflow:
                actions.append(
                    .log(
                        .warning,
                        "The inotify event queue overflowed; rescanning the inboxes and the library so nothing is missed."
                    ))
                actions.append(.settle(settling + [event]))
                settling = []
                actions.append(.rescan(reason: "overflow"))
            case .failed(let error):
                actions += [.log(.error, "\(error)"), .recordError("\(error)")]
            case .directoryAppeared(let path):
                if missing.contains(path) {
                    actions += [
                        .watch(path), .log(.info, "The inbox '\(path.display)' is back; watching it again."),
                    ]
                } else if inboxRoot(for: path) != nil {
                    actions.append(.scanFolder(path))
                } else {
                    actions += lookAgain(forInboxesBelow: path)
                }
            case .directoryGone(let path):
                // The inbox, and an inbox nested in it (`~/Sync/Camera` in `~/Sync`), whose
                // watches went with the folder.
                let gone = inboxes.keys.filter { $0.isWithin(path) && !missing.contains($0) }.sorted()
                guard !gone.isEmpty else {
                    // The folder watched on the way to a missing inbox went too: a higher one is.
                    actions += lookAgain(forInboxesBelow: path)
                    continue
                }
                for root in gone {
                    missing.insert(root)
                    failing.removeValue(forKey: root)
                    actions += [
                        .watchParent(root),
                        .log(
                            .warning,
                            "The inbox '\(root.display)' was removed; it is watched again when it reappears."),
                        // Made again before the parent's watch existed (`rm -rf inbox;
                        // mkdir inbox`): no event will say so, so look now.
                        .watchIfPresent(
                            root, then: "The inbox '\(root.display)' is back; watching it again."),
                    ]
                }
            case .removed, .movedOut:
                settling.append(event)
            case .renamed:
                continue
            case .created(let path):
                if missing.contains(path) {
                    actions.append(.watch(path))
                } else if missing.contains(where: { $0.isWithin(path) }) {
                    actions += lookAgain(forInboxesBelow: path)
                } else if inboxRoot(for: path) != nil, !TemporaryName.matches(path) {
                    // A hard link arrives with its content: no close-after-write follows.
                    // Its link count cannot tell it apart, since the original may be
                    // gone by now (`ln a inbox/; rm a`): any new file with content is
                    // a candidate.
                    actions.append(.lookForContent(path))
                }
            case .attributesChanged(let path):
                // Only a refused file is tried again for it (the filing queue knows which).
                if inboxRoot(for: path) != nil, !TemporaryName.matches(path) { settling.append(event) }
            case .closedWrite(let path), .movedIn(let path), .modified(let path):
                if missing.contains(path) {
                    actions.append(.watch(path))
                    continue
                }
                guard inboxRoot(for: path) != nil else { continue }
                if case .modified = event {
                    settling.append(event)
                } else if !TemporaryName.matches(path) {
                    settling.append(event)
                }
            }
        }
        actions.append(.settle(settling))
        return actions
    }

    /// A folder on the way to missing inboxes was made, or the one watched for them
    /// went too (their parent was removed with them): the watch moves to the nearest
    /// folder that is there now, and each inbox may be there already (`mkdir -p`).
    private func lookAgain(forInboxesBelow folder: BytePath) -> [Action] {
        missing.sorted().filter { $0 != folder && $0.isWithin(folder) }.flatMap { root -> [Action] in
            [
                .watchParent(root),
                .watchIfPresent(root, then: "The inbox '\(root.display)' is back; watching it again."),
            ]
        }
    }

    private mutating func reload(_ fresh: Configuration) -> [Action] {
        var actions: [Action] = []
        let old = Set(inboxes.keys)
        let new = Set(fresh.inboxes.map(\.path))
        for root in old.subtracting(new).sorted() {
            inboxes.removeValue(forKey: root)
            missing.remove(root)
            failing.removeValue(forKey: root)
            actions += [.unwatch(root), .log(.info, "No longer watching the inbox '\(root.display)'.")]
        }
        configuration = fresh
        for inbox in fresh.inboxes {
            if old.contains(inbox.path) {
                inboxes[inbox.path] = inbox
                // The user may have fixed what it said (`sysctl`, `chmod`) before the reload.
                if failing[inbox.path] != nil { actions.append(.watch(inbox.path)) }
            } else {
                actions += add(inbox)
                actions.append(
                    .log(
                        .info,
                        "Now watching the inbox '\(inbox.path.display)' for the album \(inbox.name.value)."))
            }
        }
        actions.append(.log(.info, "Configuration reloaded: \(inboxes.count) inbox(es)."))
        return actions
    }

    // MARK: Questions

    /// The inbox a path lies in (the deepest, when inboxes nest); nil for a root itself.
    package func inboxRoot(for path: BytePath) -> BytePath? {
        var best: BytePath?
        for root in inboxes.keys where path.isWithin(root) && path != root {
            if best == nil || root.bytes.count > best!.bytes.count { best = root }
        }
        return best
    }

    /// What filing `path` means, from its inbox's settings; nil when it is no longer to be filed.
    package func request(for path: BytePath) -> FilingRequest? {
        guard let root = inboxRoot(for: path), let inbox = inboxes[root] else { return nil }
        if TemporaryName.matches(path) || TemporaryName.isInHiddenFolder(path, below: root) { return nil }
        let keeps = configuration.effectiveKeep(for: inbox, syncedBy: syncEngines[root])
        return FilingRequest(
            source: path, album: inbox.name, origin: inbox.name.value, mode: keeps ? .keep : .move,
            link: configuration.effectiveLink(for: inbox))
    }

    /// What `status` shows of each configured inbox; `waiting` are the paths not filed yet.
    package func states(waiting: [BytePath]) -> [DaemonState.Inbox] {
        var counts: [BytePath: Int] = [:]
        for path in waiting {
            if let root = inboxRoot(for: path) { counts[root, default: 0] += 1 }
        }
        return configuration.inboxes.map { inbox in
            let state: DaemonState.Inbox.State =
                missing.contains(inbox.path) ? .missing : failing[inbox.path] != nil ? .error : .watching
            return DaemonState.Inbox(
                name: inbox.name.value, path: inbox.path.display,
                pathBase64: inbox.path.isValidUTF8 ? nil : Data(inbox.path.bytes).base64EncodedString(),
                state: state, waiting: counts[inbox.path, default: 0])
        }
    }
}
