import Glibc
import Synchronization
import Testing

@testable import PhotoFilerDaemon

@Suite struct SystemdNotifierTests {
    final class Recorder: Sendable {
        let messages = Mutex<[String]>([])
        var all: [String] { messages.withLock { $0 } }
    }

    @Test func sendsTheProtocolMessages() {
        let recorder = Recorder()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/x"]) { message in
            recorder.messages.withLock { $0.append(message) }
        }
        notifier.ready(status: "Watching 3 inboxes\nnow")
        notifier.status("Filed 1")
        notifier.watchdog()
        notifier.reloading()
        notifier.stopping()
        let messages = recorder.all
        #expect(messages[0] == "READY=1\nSTATUS=Watching 3 inboxes now")
        #expect(messages[1] == "STATUS=Filed 1")
        #expect(messages[2] == "WATCHDOG=1")
        #expect(messages[3].hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
        #expect(messages[4] == "STOPPING=1")
    }

    @Test func silentWithoutNotifySocket() {
        let recorder = Recorder()
        let notifier = SystemdNotifier(environment: [:]) { message in
            recorder.messages.withLock { $0.append(message) }
        }
        notifier.ready()
        #expect(!notifier.isEnabled)
        #expect(recorder.all.isEmpty)
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func watchdogFromEnvironment() {
        let mine = SystemdNotifier(
            environment: [
                "NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": String(getpid()),
            ]
        ) { _ in }
        #expect(mine.watchdogInterval == .seconds(30))
        #expect(mine.watchdogPingInterval == .seconds(15))
        let other = SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"]) { _ in }
        #expect(other.watchdogInterval == nil)
    }

    @Test(.enabled(if: getenv("NOTIFY_SOCKET") == nil)) func realNotifierIsANoOpHere() {
        // The test runner has no NOTIFY_SOCKET; the real notifier must not fail.
        let notifier = SystemdNotifier()
        notifier.ready(status: "test")
        notifier.watchdog()
    }
}
