import Dispatch
import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem
import PhotoFilerWatching
import Synchronization

/// `photofiler watch`: watches the inboxes and the library, and files every file
/// that settles through the same `Filer` that `photofiler save` uses.
///
/// Thread safety: `@unchecked Sendable` is sound because every piece of mutable
/// state, the watcher (libinotifytools), the debouncer and the library (its
/// sqlite3 handle) live on one serial queue, `queue`; every entry point hops
/// onto it and checks with `dispatchPrecondition`. One queue also means a signal
/// is handled between two files, never in the middle of one.
public final class Daemon: @unchecked Sendable {
    /// How long a removal in the library waits before it is acted on, so that a
    /// rename whose two halves come in different reads is seen as the move it is.
    /// (`photofiler rm` needs no wait: it records the deletion before any file goes.)
    package static let libraryEventDelay: DispatchTimeInterval = .milliseconds(250)
    /// Files filed per turn of the queue (one group: shared fsyncs and commit)
    /// before signals and events get a chance. A group keeps each of its files open until its sources are removed, so it is
    /// also held to a quarter of the descriptor limit (`ulimit -n`).
    package static let filesPerTurn = max(8, min(256, (Sys.openFileLimit() ?? 256) / 4))
    /// Start-up backlogs (files that arrived while the daemon was down) smaller than
    /// this are filed without progress lines.
    static let backlogProgressThreshold = 300
    /// How often Recently Deleted is purged while running.
    package static let purgeInterval: DispatchTimeInterval = .seconds(24 * 3600)

    public let queue = DispatchQueue(label: "photofiler.daemon")
    package let library: PhotoLibrary
    package let log: Logger
    package let notifier: SystemdNotifier
    package var configuration: Configuration
    package let reloadConfiguration: () throws(ConfigurationError) -> Configuration
    package var watcher: InotifyWatcher!
    package var debounce: DebounceTimer!
    package var signals: SignalWatcher?
    package var timers: [DispatchSourceTimer] = []
    package var retryTimer: DispatchSourceTimer?

    /// Inbox roots being watched → their settings.
    package var inboxes: [BytePath: InboxConfiguration] = [:]
    /// Inbox roots that do not exist right now; re-watched when they reappear.
    package var missingInboxes: Set<BytePath> = []
    /// Settled paths waiting to be filed, in order, without repeats.
    package var work: [BytePath] = []
    package var workSet: Set<BytePath> = []
    /// A group is out on `inspectionQueue` being opened, sniffed and hashed.
    package var inspecting = false
    /// Filing waits for a retry (a full disk, no descriptors left).
    package var held = false
    /// Step 1 of filing (open, sniff, hash) runs here, on the second core, while
    /// `queue` files the previous group. The inspector is used on this queue only.
    package let inspectionQueue = DispatchQueue(label: "photofiler.inspect")
    package var inspector: FileInspector!
    /// Set by SIGTERM: the inspection in flight skips the rest of its group.
    package let inspectionCancelled = Atomic<Bool>(false)
    /// Library paths removed (by hand or by another process) to look at.
    package var libraryRemovals: Set<BytePath> = []
    package var libraryCheckScheduled = false
    package var reconcileScheduled = false
    /// Refusals already logged, so each bad file is reported once (path, size, mtime).
    package var reported: Set<String> = []
    package var stopping = false
    package var filedCount = 0
    /// Set while a large start-up backlog is being filed.
    package var progress: WorkProgress?
    package var lastError: String?
    package let lock: DaemonLock
    /// Thumbnails of what was filed, made on a background thread of their own.
    package var thumbnails: ThumbnailQueue?
    /// Inbox roots that a sync engine owns (Daemon+SyncEngines).
    var syncEngines: [BytePath: SyncEngine] = [:]
    /// The state `photofiler status` reads (Daemon+State).
    var publication = StatePublication()

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

    package func start() throws {
        dispatchPrecondition(condition: .onQueue(queue))
        signals = SignalWatcher(queue: queue) { @Sendable [unowned self] signal in
            switch signal {
            case .terminate: self.stop()
            case .reload: self.reload()
            }
        }
        inspector = try FileInspector(layout: library.layout)
        watcher = try InotifyWatcher(queue: queue) { @Sendable [unowned self] events in self.handle(events) }
        debounce = DebounceTimer(
            queue: queue, settle: UInt64(configuration.effectiveSettleMilliseconds) * 1_000_000
        ) { @Sendable [unowned self] due in self.enqueue(due) }

        // Watch first, so nothing that lands during the catch-up is missed.
        let layout = library.layout
        for folder in [layout.roll, layout.albums] {
            try watcher.watch(directory: folder, namesOnly: true)
        }
        reconcileLibrary(reason: "start-up")
        purgeRecentlyDeleted()
        var found = 0
        for inbox in configuration.inboxes { found += addInbox(inbox) }

        schedule(
            every: .seconds(max(configuration.effectiveRescanMinutes, 0) * 60),
            enabled: configuration.effectiveRescanMinutes > 0
        ) {
            [unowned self] in self.rescanInboxes(reason: "periodic rescan")
        }
        schedule(every: Self.purgeInterval, enabled: true) { [unowned self] in self.purgeRecentlyDeleted() }
        if let ping = notifier.watchdogPingInterval {
            let milliseconds = Int(
                ping.components.seconds * 1000 + ping.components.attoseconds / 1_000_000_000_000_000)
            schedule(every: .milliseconds(max(milliseconds, 100)), enabled: true) { [unowned self] in
                self.notifier.watchdog()
            }
        }
        let names = configuration.inboxes.map { "\($0.name.value)=\($0.path.display)" }.joined(
            separator: ", ")
        log.info(
            "Ready: photofiler \(PhotoFilerVersion.current) watching \(inboxes.count) inbox(es) [\(names)] for the library '\(layout.root.display)'; \(found) file(s) found at start-up are queued."
        )
        Sys.returnFreeMemory()
        thumbnails = ThumbnailQueue(
            layout: layout, desktop: Configuration.desktopThumbnailCache(configuration), log: log)
        thumbnails?.start()
        publishState()
        notifier.ready(status: statusLine())
        if found >= Self.backlogProgressThreshold {
            // A line a second on a terminal; in a journal, one every ten seconds.
            progress = WorkProgress(total: found, interval: isatty(2) == 1 ? 1 : 10, now: Self.seconds())
        }
    }

    /// Watches one inbox (creating its folder when missing) and queues what it holds.
    /// Returns how many files were found.
    @discardableResult
    package func addInbox(_ inbox: InboxConfiguration) -> Int {
        let root = inbox.path
        inboxes[root] = inbox
        do {
            try Sys.makeDirectories(root)
        } catch {
            log.error(
                "The inbox folder '\(root.display)' cannot be created (\(error.errno.message)); create it or fix its permissions."
            )
        }
        return watchInbox(root)
    }

    package func watchInbox(_ root: BytePath) -> Int {
        do {
            try watcher.watch(directory: root, excluding: [library.layout.root])
            missingInboxes.remove(root)
            publication.failedInboxes.remove(root)
            if let inbox = inboxes[root] { detectSyncEngine(inbox) }
            let files = InboxScanner(excluded: [library.layout.root]).scanTree(root)
            if files.count > 300 {
                log.info("Found \(files.count) file(s) in '\(root.display)'; filing them as they settle.")
            }
            debounce.found(files)
            return files.count
        } catch {
            if (try? Sys.statusIfExists(root)) == nil {
                missingInboxes.insert(root)
                watchParentForReappearance(root)
            } else {
                publication.failedInboxes.insert(root)
            }
            lastError = "\(error)"
            log.error("\(error)")
            return 0
        }
    }

    /// A missing inbox is noticed again when its parent gets a new entry of that name.
    package func watchParentForReappearance(_ root: BytePath) {
        do {
            try watcher.watchFolderOnly(root.parent)
        } catch {
            log.warning(
                "'\(root.display)' is missing and its parent cannot be watched (\(error)); it is looked for again at the next rescan."
            )
        }
    }
}
