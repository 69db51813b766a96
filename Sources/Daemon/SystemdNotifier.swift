import CSystemd
import Glibc

/// Tells systemd how the daemon is doing, through its notify protocol.
///
/// With `Type=notify` systemd counts the service as started only on `READY=1`,
/// so `systemctl --user start photofiler` returns once every inbox is watched;
/// with `WatchdogSec=` it restarts a daemon that stops pinging. Every call is a
/// no-op when `NOTIFY_SOCKET` is unset (run from a terminal), so the daemon
/// calls these unconditionally.
public struct SystemdNotifier: Sendable {
    /// Sends one notify message; `sd_notify` in production, a recorder in tests.
    private let send: @Sendable (String) -> Void

    /// True when systemd is listening (`NOTIFY_SOCKET` set).
    public let isEnabled: Bool

    /// The watchdog timeout systemd enforces (`WatchdogSec=`), or nil when
    /// there is none for this process. Ping at `watchdogPingInterval`.
    public let watchdogInterval: Duration?

    /// Half the timeout, as sd_watchdog_enabled(3) recommends, so that one
    /// late ping does not get the daemon killed.
    public var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// The notifier for this process, reading its real environment.
    public init() {
        isEnabled = getenv("NOTIFY_SOCKET") != nil
        var microseconds: UInt64 = 0
        // 0: keep the variables, so that the watchdog settings stay readable.
        if sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 {
            watchdogInterval = .microseconds(Int64(clamping: microseconds))
        } else {
            watchdogInterval = nil
        }
        let enabled = isEnabled
        send = { message in
            guard enabled else { return }
            _ = sd_notify(0, message)
        }
    }

    /// A notifier that hands its messages to `send`, with the watchdog read from
    /// `environment` as sd_watchdog_enabled(3) does (`WATCHDOG_USEC`, and
    /// `WATCHDOG_PID` when set must be this process); for tests.
    public init(environment: [String: String], send: @escaping @Sendable (String) -> Void) {
        isEnabled = environment["NOTIFY_SOCKET"] != nil
        watchdogInterval = Self.watchdog(environment: environment)
        let enabled = isEnabled
        self.send = { message in if enabled { send(message) } }
    }

    package static func watchdog(environment: [String: String]) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0
        else {
            return nil
        }
        if let pid = environment["WATCHDOG_PID"], pid != String(getpid()) { return nil }
        return .microseconds(Int64(clamping: microseconds))
    }

    /// Every inbox is watched and the catch-up scan done ("ready" in photofiler(1) "The daemon");
    /// also sent after a reload completes. `status` shows in `systemctl status`.
    public func ready(status: String? = nil) {
        send(
            ["READY=1", status.map { "STATUS=" + Self.oneLine($0) }].compactMap { $0 }.joined(separator: "\n")
        )
    }

    /// A one-line state for `systemctl status` ("Watching 3 inboxes; 12 filed").
    public func status(_ text: String) {
        send("STATUS=" + Self.oneLine(text))
    }

    /// Shutdown has begun, so systemd does not mistake the wait for a hang.
    public func stopping() {
        send("STOPPING=1")
    }

    /// A SIGHUP re-read has begun; call `ready()` when it is done. The
    /// timestamp is what `Type=notify-reload` (systemd ≥ 253) requires; older
    /// systemd ignores it.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        send("RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }

    /// The daemon is alive; call every `watchdogPingInterval`.
    public func watchdog() {
        send("WATCHDOG=1")
    }

    /// A newline would start another assignment of the protocol: keep text on one line.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
