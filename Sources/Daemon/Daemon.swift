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
/// The decisions are made by three pure state machines, `InboxSupervisor` (the
/// inboxes and their events), `FilingQueue` (settling, groups, retries, reports)
/// and `LibraryMonitor` (changes made by hand in the Roll and the albums); this
/// class is the shell that feeds them watcher events, signals and the time, and
/// performs the actions they return (Daemon+Events, +Filing, +LibraryChanges).
///
/// Thread safety: `@unchecked Sendable` is sound because every piece of mutable
/// state, the machines, the watcher (libinotifytools) and the library (its
/// sqlite3 handle) live on one serial queue, `queue`: every entry point is a
/// handler that Dispatch runs on it, and the methods check with
/// `dispatchPrecondition`. The one exception, `inspector`, is used on
/// `inspectionQueue` alone. One queue also means a signal is handled between two
/// groups, never in the middle of one.
public final class Daemon: @unchecked Sendable {
    /// Files filed per turn of the queue (one group: shared fsyncs and commit)
    /// before signals and events get a chance. A group keeps each of its files open until its sources are
    /// removed, so it is also held to a quarter of the descriptor limit (`ulimit -n`).
    static let filesPerTurn = max(8, min(256, (Sys.openFileLimit() ?? 256) / 4))
    /// The descriptors a busy daemon holds at most: the group being filed and the
    /// one being inspected, plus the catalog, the watcher, the helpers' sockets and
    /// the thumbnails' files (`Sys.reserveDescriptorTable` makes room for them at start).
    public static let descriptorsWhenBusy = 2 * filesPerTurn + 128
    /// Start-up backlogs (files that arrived while the daemon was down) smaller than
    /// this are filed without progress lines.
    static let backlogProgressThreshold = 300
    /// How often Recently Deleted is purged while running.
    static let purgeInterval: DispatchTimeInterval = .seconds(24 * 3600)

    public let queue = DispatchQueue(label: "photofiler.daemon")
    let library: PhotoLibrary
    let log: Logger
    let notifier: SystemdNotifier
    let reloadConfiguration: () throws(ConfigurationError) -> Configuration
    /// Held as long as the daemon runs: one daemon per library.
    let lock: DaemonLock

    var inboxes: InboxSupervisor
    var filing: FilingQueue
    var monitor: LibraryMonitor
    var publication = StatePublication()
    var lastError: String?

    var watcher: InotifyWatcher!
    /// Wakes the machines at the earliest of their deadlines.
    var timer: DeadlineTimer!
    var signals: SignalWatcher?
    /// Hears disks mounted and unmounted (`Daemon+Mounts`).
    var mounts: MountTableWatcher?
    /// The periodic rescan, the daily purge, the systemd watchdog.
    var timers: [DispatchSourceTimer] = []
    /// Candidates found by the looks and scans of the watcher batch in hand, armed by its `.settle`.
    var foundInBatch: [BytePath] = []

    /// Step 1 of filing (open, sniff, hash) runs here, on the second core, while
    /// `queue` files the previous group. The inspector is used on this queue only.
    let inspectionQueue = DispatchQueue(label: "photofiler.inspect")
    var inspector: FileInspector!
    /// Set by SIGTERM the moment it arrives (on `signalQueue`, while `queue` may be
    /// filing a group): the inspection in flight and the group's copies give up the
    /// files they have not read to the end, so the stop comes within 5 s (photofiler(1) "The daemon").
    let stopRequested = Atomic<Bool>(false)
    /// Where signals are received: not `queue`, which a group being filed keeps busy.
    let signalQueue = DispatchQueue(label: "photofiler.signals")
    /// Thumbnails of what was filed, made on a background thread of their own.
    var thumbnails: ThumbnailQueue?

    public init(
        library: PhotoLibrary, configuration: Configuration, lock: DaemonLock, log: Logger,
        notifier: SystemdNotifier = SystemdNotifier(),
        reloadConfiguration: @escaping () throws(ConfigurationError) -> Configuration
    ) {
        self.library = library
        self.lock = lock
        self.log = log
        self.notifier = notifier
        self.reloadConfiguration = reloadConfiguration
        inboxes = InboxSupervisor(configuration: configuration)
        filing = FilingQueue(
            settle: UInt64(configuration.effectiveSettleMilliseconds) * 1_000_000,
            groupSize: Self.filesPerTurn)
        monitor = LibraryMonitor(layout: library.layout)
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

    func start() throws {
        dispatchPrecondition(condition: .onQueue(queue))
        signals = SignalWatcher(queue: signalQueue) { @Sendable [unowned self] signal in
            switch signal {
            case .terminate:
                self.stopRequested.store(true, ordering: .relaxed)
                self.queue.async { @Sendable [unowned self] in self.stop() }
            case .reload:
                self.queue.async { @Sendable [unowned self] in self.reload() }
            case .thumbnails:
                self.queue.async { @Sendable [unowned self] in self.thumbnails?.rescan() }
            }
        }
        inspector = try FileInspector(layout: library.layout)
        watcher = try InotifyWatcher(queue: queue) { @Sendable [unowned self] batch in self.handle(batch) }
        timer = DeadlineTimer(queue: queue) { @Sendable [unowned self] in self.tick() }

        // Watch first, so nothing that lands during the catch-up is missed; the mount
        // table too, so that a disk mounted during a long reconcile is looked at after it.
        let layout = library.layout
        watchMounts()
        try watchLibraryFolders()
        reconcileLibrary(reason: "start-up")
        // SIGTERM during the reconcile: `stop()` is queued next; the inboxes are not read.
        if stopRequested.load(ordering: .relaxed) { return }
        purgeRecentlyDeleted()
        // Before the catch-up finds them: a file refused by an earlier run is not reported again.
        feed(.refusedBefore(refusalsStillInPlace()))
        let configuration = inboxes.configuration
        let found = perform(inboxes.handle(.add(configuration.inboxes)))

        let rescanMinutes = configuration.effectiveRescanMinutes
        schedule(every: .seconds(max(rescanMinutes, 0) * 60), enabled: rescanMinutes > 0) {
            [unowned self] in
            self.perform([.rescan(reason: "periodic rescan")])
            self.thumbnails?.retryFailed()
            self.stateChanged()
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
        // An inbox that could not be watched has had its error line; the count says so too.
        let watched = inboxes.states(waiting: []).filter { $0.state == .watching }.count
        let count =
            watched == configuration.inboxes.count
            ? "\(watched)" : "\(watched) of \(configuration.inboxes.count)"
        log.info(
            "Ready: photofiler \(PhotoFilerVersion.current) watching \(count) inbox(es) [\(names)] for the library '\(layout.root.display)'; \(found) file(s) found at start-up are queued."
        )
        Sys.returnFreeMemory()
        // `PHOTOFILER_THUMBNAILS=off`: the benchmark's baseline for the burst without them.
        if ProcessEnvironment.current["PHOTOFILER_THUMBNAILS"] != "off" {
            thumbnails = ThumbnailQueue(
                layout: layout, desktop: Configuration.desktopThumbnailCache(configuration), log: log)
            thumbnails?.start()
        }
        publishState()
        notifier.ready(status: statusLine())
        if found >= Self.backlogProgressThreshold {
            // A line a second on a terminal; in a journal, one every ten seconds.
            feed(.backlog(files: found, interval: isatty(2) == 1 ? 1 : 10))
        }
        rearm()
    }

    /// The machines' deadline timer fired: each looks at the time.
    func tick() {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = DeadlineTimer.now
        perform(monitor.handle(.tick, at: now))
        feed(.tick, at: now)
        if publication.isDue(at: now) { publishState() }
        rearm()
    }

    /// Arms the timer for the earliest deadline of the machines (none when idle).
    func rearm() {
        dispatchPrecondition(condition: .onQueue(queue))
        let deadlines = [filing.nextDeadline, monitor.nextDeadline, publication.dueAt].compactMap { $0 }
        timer.arm(at: deadlines.min())
    }
}
