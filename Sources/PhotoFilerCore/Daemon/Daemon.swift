import Dispatch
import Foundation
import Glibc

/// `photofiler watch`: watches the inboxes and the library, and files every file
/// that settles through the same `Filer` that `photofiler save` uses.
///
/// Thread safety: `@unchecked Sendable` is sound because every piece of mutable
/// state, the watcher (libinotifytools), the debouncer and the library (its
/// sqlite3 handle) live on one serial queue, `queue`; every entry point hops
/// onto it and checks with `dispatchPrecondition`. One queue also means a signal
/// is handled between two files, never in the middle of one.
public final class Daemon: @unchecked Sendable {
    /// How long library deletions wait before they are acted on, so that a
    /// `photofiler rm` in another process has committed its own change first.
    static let libraryEventDelay: DispatchTimeInterval = .milliseconds(250)
    /// Files filed per turn of the queue (one group: shared fsyncs and commit)
    /// before signals and events get a chance.
    static let filesPerTurn = 256
    /// How often Recently Deleted is purged while running.
    static let purgeInterval: DispatchTimeInterval = .seconds(24 * 3600)

    public let queue = DispatchQueue(label: "photofiler.daemon")
    private let library: PhotoLibrary
    private let log: Logger
    private let notifier: SystemdNotifier
    private var configuration: Configuration
    private let reloadConfiguration: () throws(ConfigurationError) -> Configuration
    private var watcher: InotifyWatcher!
    private var debounce: DebounceTimer!
    private var signals: SignalWatcher?
    private var timers: [DispatchSourceTimer] = []
    private var retryTimer: DispatchSourceTimer?

    /// Inbox roots being watched → their settings.
    private var inboxes: [BytePath: InboxConfiguration] = [:]
    /// Inbox roots that do not exist right now; re-watched when they reappear.
    private var missingInboxes: Set<BytePath> = []
    /// Settled paths waiting to be filed, in order, without repeats.
    private var work: [BytePath] = []
    private var workSet: Set<BytePath> = []
    private var working = false
    /// Library paths removed (by hand or by another process) to look at.
    private var libraryRemovals: Set<BytePath> = []
    private var libraryCheckScheduled = false
    private var reconcileScheduled = false
    /// Refusals already logged, so each bad file is reported once (path, size, mtime).
    private var reported: Set<String> = []
    private var stopping = false
    private var filedCount = 0
    /// Set while a large start-up backlog is being filed.
    private var progress: BacklogProgress?
    private var lastError: String?
    private let lock: DaemonLock

    public init(
        library: PhotoLibrary, configuration: Configuration, lock: DaemonLock, log: Logger,
        notifier: SystemdNotifier = SystemdNotifier(),
        reloadConfiguration: @escaping () throws(ConfigurationError) -> Configuration
    ) {
        self.library = library
        self.configuration = configuration
        self.lock = lock
        self.log = log
        self.notifier = notifier
        self.reloadConfiguration = reloadConfiguration
    }

    /// Starts everything and never returns: exits 0 on SIGTERM/SIGINT, 1 when the
    /// watcher cannot start.
    public func run() -> Never {
        queue.async { [self] in
            do {
                try start()
            } catch {
                log.error("\(error)")
                exit(1)
            }
        }
        // Not dispatchMain(): on Linux it parks the main thread in sigsuspend() with an
        // empty mask, so a SIGTERM that lands before Dispatch has installed its own
        // handler (right after READY=1) kills the process with the default action.
        // Park with the daemon's signals still blocked; the queues do the work.
        var blocked = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &blocked)
        while true { sigsuspend(&blocked) }
    }

    // MARK: Start-up

    private func start() throws {
        dispatchPrecondition(condition: .onQueue(queue))
        signals = SignalWatcher(queue: queue) { @Sendable [unowned self] signal in
            switch signal {
            case .terminate: self.stop()
            case .reload: self.reload()
            }
        }
        watcher = try InotifyWatcher(queue: queue) { @Sendable [unowned self] events in self.handle(events) }
        debounce = DebounceTimer(
            queue: queue, settle: UInt64(configuration.effectiveSettleMilliseconds) * 1_000_000
        ) { @Sendable [unowned self] due in self.enqueue(due) }

        // Watch first, so nothing that lands during the catch-up is missed.
        let layout = library.layout
        for folder in [layout.roll, layout.albums] {
            try watcher.watch(directory: folder)
        }
        reconcileLibrary(reason: "start-up")
        purgeRecentlyDeleted()
        var found = 0
        for inbox in configuration.inboxes { found += addInbox(inbox) }

        schedule(every: .seconds(max(configuration.effectiveRescanMinutes, 0) * 60), enabled: configuration.effectiveRescanMinutes > 0) {
            [unowned self] in self.rescanInboxes(reason: "periodic rescan")
        }
        schedule(every: Self.purgeInterval, enabled: true) { [unowned self] in self.purgeRecentlyDeleted() }
        if let ping = notifier.watchdogPingInterval {
            let milliseconds = Int(ping.components.seconds * 1000 + ping.components.attoseconds / 1_000_000_000_000_000)
            schedule(every: .milliseconds(max(milliseconds, 100)), enabled: true) { [unowned self] in self.notifier.watchdog() }
        }
        let names = configuration.inboxes.map { "\($0.name.value)=\($0.path.display)" }.joined(separator: ", ")
        log.info(
            "Ready: watching \(inboxes.count) inbox(es) [\(names)] for the library '\(layout.root.display)'; \(found) file(s) found at start-up are queued.")
        Sys.returnFreeMemory()
        notifier.ready(status: statusLine())
        if found >= BacklogProgress.threshold {
            // A line a second on a terminal; in a journal, one every ten seconds.
            progress = BacklogProgress(total: found, interval: isatty(2) == 1 ? 1 : 10, now: Self.seconds())
        }
    }

    /// Watches one inbox (creating its folder when missing) and queues what it holds.
    /// Returns how many files were found.
    @discardableResult
    private func addInbox(_ inbox: InboxConfiguration) -> Int {
        let root = inbox.path
        inboxes[root] = inbox
        do {
            try Sys.makeDirectories(root)
        } catch {
            log.error("The inbox folder '\(root.display)' cannot be created (\(error.errno.message)); create it or fix its permissions.")
        }
        return watchInbox(root)
    }

    private func watchInbox(_ root: BytePath) -> Int {
        do {
            try watcher.watch(directory: root, excluding: [library.layout.root])
            missingInboxes.remove(root)
            let files = InboxScanner(excluded: [library.layout.root]).scanTree(root)
            if files.count > 300 { log.info("Found \(files.count) file(s) in '\(root.display)'; filing them as they settle.") }
            debounce.found(files)
            return files.count
        } catch {
            if (try? Sys.statusIfExists(root)) == nil {
                missingInboxes.insert(root)
                watchParentForReappearance(root)
            }
            log.error("\(error)")
            return 0
        }
    }

    /// A missing inbox is noticed again when its parent gets a new entry of that name.
    private func watchParentForReappearance(_ root: BytePath) {
        do {
            try watcher.watchFolderOnly(root.parent)
        } catch {
            log.warning("'\(root.display)' is missing and its parent cannot be watched (\(error)); it is looked for again at the next rescan.")
        }
    }

    // MARK: Events

    private func handle(_ events: [WatchEvent]) {
        dispatchPrecondition(condition: .onQueue(queue))
        let layout = library.layout
        var inboxEvents: [WatchEvent] = []
        var found: [BytePath] = []
        for event in events {
            switch event {
            case .overflow:
                log.warning("The inotify event queue overflowed; rescanning the inboxes and the library so nothing is missed.")
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
                    log.warning("The inbox '\(path.display)' was removed; it is watched again when it reappears.")
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
    }

    private func inboxRoot(for path: BytePath) -> BytePath? {
        var best: BytePath?
        for root in inboxes.keys where path.isWithin(root) && path != root {
            if best == nil || root.bytes.count > best!.bytes.count { best = root }
        }
        return best
    }

    // MARK: Filing

    private func enqueue(_ paths: [BytePath]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for path in paths where workSet.insert(path).inserted { work.append(path) }
        kick()
    }

    private func kick() {
        guard !working, !work.isEmpty, !stopping else { return }
        working = true
        queue.async { [self] in fileSome() }
    }

    /// Files a few paths, then yields the queue (signals, events) and comes back.
    private func fileSome() {
        dispatchPrecondition(condition: .onQueue(queue))
        working = false
        // One group per turn: its files share the fsyncs and the catalog commit.
        var group: [(path: BytePath, request: FilingRequest)] = []
        while group.count < Self.filesPerTurn, !stopping, !work.isEmpty {
            let path = work.removeFirst()
            workSet.remove(path)
            if let request = request(for: path) { group.append((path, request)) }
        }
        if !group.isEmpty {
            let results = library.filer.file(batch: group.map(\.request))
            for (item, result) in zip(group, results) { report(result, path: item.path, album: item.request.album) }
        }
        if var backlog = progress {
            if let line = backlog.advance(by: group.count, now: Self.seconds()) { log.info(line) }
            progress = backlog.isComplete ? nil : backlog
        }
        if work.count > 0 && work.count % 500 == 0 { notifier.status(statusLine()) }
        if work.isEmpty { notifier.status(statusLine()) }
        kick()
    }

    /// What filing `path` means, from its inbox's settings; nil when it is no longer to be filed.
    private func request(for path: BytePath) -> FilingRequest? {
        guard let root = inboxRoot(for: path), let inbox = inboxes[root] else { return nil }
        if TemporaryName.matches(path) { return nil }
        return FilingRequest(
            source: path, album: inbox.name, origin: inbox.name.value,
            mode: configuration.effectiveKeep(for: inbox) ? .keep : .move, link: configuration.effectiveLink(for: inbox))
    }

    /// Logs what filing `path` did (or handles its failure).
    private func report(_ outcome: Result<FilingResult, FilingError>, path: BytePath, album: AlbumName?) {
        let albumName = album?.value ?? ""
        let result: FilingResult
        switch outcome {
        case .success(let value):
            result = value
            reported.remove("space")  // room again: a later full disk is reported anew
        case .failure(let error):
            handleFailure(error, path: path)
            return
        }
        guard let asset = result.asset else { return }
        let rollPath = library.layout.absolute(asset.rollPath).display
        switch result.outcome {
        case .filed:
            filedCount += 1
            log.info("Filed '\(path.display)' → '\(rollPath)' (album \(albumName)).")
        case .duplicate(let joined):
            log.info(
                "'\(path.display)' is already asset \(asset.id) ('\(rollPath)')\(joined ? "; added to the album \(albumName)" : "; nothing new to file").")
        case .restored:
            filedCount += 1
            log.info("'\(path.display)' brought asset \(asset.id) back from Recently Deleted → '\(rollPath)' (album \(albumName)).")
        case .alreadySeen:
            break
        }
    }

    private func handleFailure(_ error: FilingError, path: BytePath) {
        switch error {
        case .vanished:
            return
        case .media(.empty):
            // A placeholder (a browser's, an app's) is expected, not an error:
            // its content, when it comes, brings a close or a rename.
            log.debug(error.description)
            return
        case .changedWhileFiling:
            debounce.found([path])
            return
        case .outOfSpace:
            lastError = error.description
            if reported.insert("space").inserted { log.error(error.description) }
            // Keep it and retry soon: filing resumes by itself once there is room.
            if workSet.insert(path).inserted { work.insert(path, at: 0) }
            scheduleRetry()
            return
        default:
            lastError = error.description
            let status = try? Sys.status(path)
            let key = "\(path.display)|\(status?.size ?? -1)|\(status?.modificationNanoseconds ?? -1)"
            if reported.insert(key).inserted { log.error(error.description) }
        }
    }

    private func scheduleRetry() {
        guard retryTimer == nil else { return }
        working = true  // hold the work list until the retry
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(5))
        timer.setEventHandler { @Sendable [unowned self] in
            self.retryTimer?.cancel()
            self.retryTimer = nil
            self.working = false
            self.kick()
        }
        retryTimer = timer
        timer.activate()
    }

    // MARK: Library changes made by hand

    private func scheduleLibraryCheck() {
        guard !libraryCheckScheduled else { return }
        libraryCheckScheduled = true
        queue.asyncAfter(deadline: .now() + Self.libraryEventDelay) { [self] in
            libraryCheckScheduled = false
            let removals = libraryRemovals
            libraryRemovals = []
            for path in removals.sorted() { libraryPathRemoved(path) }
        }
    }

    private func libraryPathRemoved(_ path: BytePath) {
        let layout = library.layout
        guard let relative = layout.relative(path), (try? Sys.statusIfExists(path)) ?? nil == nil else { return }
        let parts = relative.components
        do {
            if parts.first == LibraryLayout.rollFolderName {
                guard let asset = try library.catalog.asset(rollPath: relative), !asset.isDeleted else { return }
                try library.lifecycle.rollFileRemoved(asset)
                log.info("The roll file '\(path.display)' was removed; asset \(asset.id) left every album and is marked deleted.")
            } else if parts.first == LibraryLayout.albumsFolderName, parts.count == 3 {
                guard let album = try library.catalog.albums().first(where: { $0.folderName == parts[1] }) else { return }
                let memberships = try library.catalog.memberships(inAlbum: album.id)
                guard let membership = memberships.first(where: { $0.entryName == parts[2] && $0.isActive }),
                    let asset = try library.catalog.asset(id: membership.assetID), !asset.isDeleted
                else { return }
                try library.lifecycle.albumEntryRemoved(membership)
                log.info("'\(path.display)' was removed; asset \(asset.id) left the album \(album.name) (the Roll keeps it).")
            }
        } catch {
            log.error("\(error)")
        }
    }

    private func scheduleReconcile() {
        guard !reconcileScheduled else { return }
        reconcileScheduled = true
        queue.asyncAfter(deadline: .now() + Self.libraryEventDelay) { [self] in
            reconcileScheduled = false
            reconcileLibrary(reason: "library change")
        }
    }

    /// Makes the catalog match the Roll and albums (names and sizes; no hashing).
    private func reconcileLibrary(reason: String) {
        // The comparison builds tables as large as the library; give the memory back
        // to the system afterwards, or an idle daemon keeps its start-up peak resident.
        defer { Sys.returnFreeMemory() }
        do {
            let reconciler = library.reconciler
            let leftovers = try reconciler.removeTemporaryFiles()
            if leftovers > 0 { log.info("Removed \(leftovers) temporary file(s) left by an interrupted run.") }
            let differences = try reconciler.differences(verifyHashes: false).filter {
                if case .strayAlbumEntry = $0 { return false }
                return true
            }
            guard !differences.isEmpty else { return }
            for difference in differences { log.info("Reconciling (\(reason)): \(difference)") }
            try reconciler.repair(differences)
        } catch {
            log.error("\(error)")
            lastError = "\(error)"
        }
    }

    private func purgeRecentlyDeleted() {
        do {
            let purged = try library.lifecycle.purgeExpired()
            if purged > 0 { log.info("Purged \(purged) asset(s) kept in Recently Deleted for more than 30 days.") }
        } catch {
            log.error("\(error)")
        }
    }

    private func rescanInboxes(reason: String) {
        var count = 0
        for root in inboxes.keys.sorted() {
            if missingInboxes.contains(root) {
                if (try? Sys.statusIfExists(root)) ?? nil != nil { count += watchInbox(root) }
                continue
            }
            let files = InboxScanner(excluded: [library.layout.root]).scanTree(root)
            count += files.count
            debounce.found(files)
        }
        log.debug("Rescan (\(reason)): \(count) file(s) queued.")
    }

    // MARK: Signals and timers

    private func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        stopping = true
        notifier.stopping()
        log.info("Stopping: \(filedCount) file(s) filed this run; \(work.count + debounce.pendingCount) left for the next start.")
        exit(0)
    }

    private func reload() {
        dispatchPrecondition(condition: .onQueue(queue))
        notifier.reloading()
        defer { notifier.ready(status: statusLine()) }
        let fresh: Configuration
        do {
            fresh = try reloadConfiguration()
        } catch {
            log.error("The configuration was not reloaded: \(error) The running configuration stays.")
            return
        }
        let old = Set(inboxes.keys)
        let new = Set(fresh.inboxes.map(\.path))
        for root in old.subtracting(new) {
            watcher.unwatch(directory: root)
            inboxes.removeValue(forKey: root)
            missingInboxes.remove(root)
            log.info("No longer watching the inbox '\(root.display)'.")
        }
        configuration = fresh
        debounce.settle = UInt64(fresh.effectiveSettleMilliseconds) * 1_000_000
        for inbox in fresh.inboxes {
            if old.contains(inbox.path) {
                inboxes[inbox.path] = inbox
            } else {
                addInbox(inbox)
                log.info("Now watching the inbox '\(inbox.path.display)' for the album \(inbox.name.value).")
            }
        }
        log.info("Configuration reloaded: \(inboxes.count) inbox(es).")
    }

    private func schedule(every interval: DispatchTimeInterval, enabled: Bool, _ body: @escaping @Sendable () -> Void) {
        guard enabled else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .seconds(1))
        timer.setEventHandler { @Sendable in body() }
        timer.activate()
        timers.append(timer)
    }

    /// Monotonic seconds, for progress rates.
    private static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private func statusLine() -> String {
        var text = "\(filedCount) filed, \(work.count + debounce.pendingCount) pending"
        if let lastError { text += "; last error: \(lastError)" }
        return text
    }
}
