import Dispatch
import Glibc

/// What a signal asks of the daemon.
public enum DaemonSignal: Sendable, Hashable {
    /// SIGTERM or SIGINT: finish the file in hand and exit 0.
    case terminate
    /// SIGHUP: re-read the config file.
    case reload
    /// SIGUSR1: another process (`save`, `check --repair`) filed assets; their
    /// thumbnails are looked for and made in the background.
    case thumbnails
}

/// Delivers SIGTERM, SIGINT, SIGHUP and SIGUSR1 as `DaemonSignal`s on a queue of the
/// daemon's choosing, where they can be handled like any other event instead
/// of in an async-signal-unsafe handler.
///
/// `@unchecked Sendable`: its only state is the array of sources, set in `init`
/// and only read after (by `cancel` and `deinit`); Dispatch sources themselves
/// are thread-safe.
public final class SignalWatcher: @unchecked Sendable {
    /// The signals the daemon handles; all four must stay blocked.
    public static let signals: [CInt] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    private let sources: [any DispatchSourceSignal]
    private let handler: @Sendable (DaemonSignal) -> Void

    /// Blocks the daemon's signals in the calling thread, and so in every
    /// thread created after. Call first thing in `main`, before Dispatch starts
    /// a thread: Dispatch reads blocked signals from its signalfd, and a signal
    /// not blocked in some thread would be delivered there with its default
    /// action (SIGTERM kills the process at once, mid-write).
    public static func blockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts watching; `handler` runs on `queue`, once per signal received.
    /// Keep the watcher alive as long as signals should be handled.
    public init(queue: DispatchQueue, handler: @escaping @Sendable (DaemonSignal) -> Void) {
        self.handler = handler
        var sources: [any DispatchSourceSignal] = []
        for signal in Self.signals {
            sources.append(DispatchSource.makeSignalSource(signal: signal, queue: queue))
        }
        self.sources = sources
        for (signal, source) in zip(Self.signals, sources) {
            let event: DaemonSignal =
                switch signal {
                case SIGHUP: .reload
                case SIGUSR1: .thumbnails
                default: .terminate
                }
            // @Sendable so the compiler checks the closure as running off the
            // creating actor (Dispatch does not say so on Linux); weak so that
            // a source does not keep its watcher alive.
            source.setEventHandler { @Sendable [weak self] in
                self?.handler(event)
            }
            source.resume()
        }
    }

    /// Stops delivering signals (they stay blocked, so they are then ignored).
    public func cancel() {
        for source in sources where !source.isCancelled { source.cancel() }
    }

    deinit {
        cancel()
    }
}
