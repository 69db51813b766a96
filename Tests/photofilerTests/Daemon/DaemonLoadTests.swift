import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler watch` under load: thousands of files while it cannot read its
/// events, a SIGTERM in the middle of a burst. Serialized: each of these loads
/// both cores for several seconds.
@Suite(.serialized) struct DaemonLoadTests {
    /// 3,000 files written while the daemon is stopped (SIGSTOP), each in three
    /// open-write-close rounds so they make about 21,000 events, more than the
    /// kernel's default queue of 16,384: the queue overflows, the daemon
    /// rescans, and every file is filed exactly once.
    @Test func threeThousandFilesDroppedWhileStoppedAreFiledOnce() throws {
        let count = 3000
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let inbox = scene.inbox()
        let queueLimit =
            Int(
                String(
                    decoding: (try? readFile(BytePath("/proc/sys/fs/inotify/max_queued_events"))) ?? [],
                    as: UTF8.self
                ).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1

        #expect(kill(daemon.pid, SIGSTOP) == 0)
        var stopped = true
        defer { if stopped { kill(daemon.pid, SIGCONT) } }
        let writing = Date()
        var hashes: Set<String> = []
        for index in 0..<count {
            let picture = Pictures.uniqueJPEG(index, tag: "overflow")
            hashes.insert(Pictures.sha256(picture))
            let path = inbox.appending("f\(index).jpg")
            let third = picture.count / 3
            try appendFile(path, picture[..<third])
            try appendFile(path, picture[third..<(2 * third)])
            try appendFile(path, picture[(2 * third)...])
        }
        let written = Date().timeIntervalSince(writing)
        #expect(kill(daemon.pid, SIGCONT) == 0)
        stopped = false
        let resumed = Date()

        let allFiled =
            scene.waitForAlbum(count: count, timeout: 90)
            && waitUntil { LibraryContents.files(below: inbox).isEmpty }
        if !allFiled {
            let left = LibraryContents.files(below: inbox).map(\.lastComponent.display)
            let about = left.prefix(3).flatMap { daemon.logLines(containing: "/\($0)") }
            Issue.record(
                "not filed: \(left.prefix(20)); their log lines: \(about); \(daemon.logLines(containing: "overflow"))"
            )
        }
        let filed = Date().timeIntervalSince(resumed)
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        let overflowed = !daemon.logLines(containing: "overflowed").isEmpty
        if 7 * count > queueLimit && queueLimit > 0 {
            #expect(
                overflowed,
                "about \(7 * count) events for a queue of \(queueLimit), yet no overflow was logged")
        }
        print(
            "3,000 files: written in \(String(format: "%.1f", written)) s while stopped, filed in \(String(format: "%.1f", filed)) s after SIGCONT; max_queued_events \(queueLimit), overflow \(overflowed ? "seen" : "not seen")"
        )
        #expect(daemon.terminate() == 0)
    }

    /// SIGTERM while a burst of 500 files is being filed: exit 0 within 5 s,
    /// every content either still in the inbox or in the Roll exactly once, and
    /// the rest filed at the next start.
    @Test func sigtermDuringABurstLosesNothing() throws {
        let count = 500
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        var daemon = try scene.start(["--settle", "0"])
        var hashes: Set<String> = []
        for index in 0..<count {
            let picture = Pictures.uniqueJPEG(index, tag: "burst")
            hashes.insert(Pictures.sha256(picture))
            try writeFile(scene.staging.appending("b\(index).jpg"), picture)
        }
        for index in 0..<count {
            try Sys.rename(scene.staging.appending("b\(index).jpg"), to: inbox.appending("b\(index).jpg"))
        }
        #expect(scene.waitForAlbum(count: 20), "\(daemon.log)")

        let took = daemon.expectStopWithinFiveSeconds()

        let inInbox = LibraryContents.files(below: inbox).compactMap(LibraryContents.hash)
        let inRoll = scene.contents.rollHashes()
        #expect(Set(inRoll).count == inRoll.count, "a content is twice in the Roll")
        #expect(Set(inInbox).isDisjoint(with: inRoll), "a content is both filed and still in the inbox")
        #expect(
            inInbox.count + inRoll.count == count,
            "\(inInbox.count) in the inbox + \(inRoll.count) in the Roll")
        #expect(Set(inInbox).union(inRoll) == hashes)
        #expect(Set(scene.contents.albumHashes("QQ")) == Set(inRoll))
        print(
            "SIGTERM during a burst of \(count): stopped in \(String(format: "%.2f", took)) s with \(inRoll.count) filed, \(inInbox.count) left"
        )

        daemon = try scene.start(["--settle", "0"])
        #expect(scene.waitForAlbum(count: count), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty })
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        #expect(daemon.terminate() == 0)
    }

    /// Idle means idle: once a burst is filed, the daemon uses no CPU time and
    /// its threads do not wake (no polling, no timer ticking).
    @Test func anIdleDaemonUsesNoCPUAndDoesNotWake() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let inbox = scene.inbox()
        for index in 0..<50 {
            try scene.dropByRename(Pictures.uniqueJPEG(index, tag: "idle"), as: "i\(index).jpg", into: inbox)
        }
        #expect(scene.waitForAlbum(count: 50), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: inbox).isEmpty })
        // Filed and reported: the status says nothing is pending.
        #expect(
            daemon.waitForMessage(timeout: 20) { $0.hasPrefix("STATUS=50 filed, 0 pending") },
            "\(daemon.messages)")
        // And their thumbnails made (two sizes each; the desktop's `normal` and `large` for the
        // roll file and the entry).
        let thumbnails = scene.library.appending(".photofiler/thumbnails")
        let desktop = daemon.process.outputFolder.file("cache")
        #expect(
            waitUntil(timeout: 60) {
                regularFiles(under: thumbnails).count == 100 && regularFiles(under: desktop).count == 200
            }, "\(daemon.log)")

        // Dispatch retires a worker thread it no longer needs a few seconds after the
        // last work: that is once, after work, not idling. A window in which a thread
        // ended is measured again (at most three windows).
        var before = ProcessUsage(pid: daemon.pid)
        var after = before
        for _ in 0..<3 {
            before = ProcessUsage(pid: daemon.pid)
            // The measurement window itself, not a wait for a condition.
            sleep(5)
            after = ProcessUsage(pid: daemon.pid)
            if Set(after.voluntarySwitches.keys) == Set(before.voluntarySwitches.keys) { break }
        }
        let ticks = after.cpuTicks - before.cpuTicks
        var wakeups: [String] = []
        for (thread, switches) in after.voluntarySwitches.sorted(by: { $0.key < $1.key }) {
            wakeups.append("\(thread): \(switches - (before.voluntarySwitches[thread] ?? 0))")
        }
        let totalWakeups =
            after.voluntarySwitches.values.reduce(0, +) - before.voluntarySwitches.values.reduce(0, +)
        print(
            "Idle for 5 s: \(ticks) tick(s) of CPU (1 tick = \(1000 / max(sysconf(Int32(_SC_CLK_TCK)), 1)) ms); voluntary context switches per thread [\(wakeups.joined(separator: ", "))], \(after.voluntarySwitches.count) threads"
        )
        #expect(ticks <= 1, "the idle daemon used \(ticks) ticks of CPU in 5 s")
        #expect(totalWakeups <= 5, "the idle daemon's threads woke \(totalWakeups) times in 5 s: \(wakeups)")
        #expect(daemon.terminate() == 0)
    }

    /// Filing latency, rename into the inbox → album entry created, over 100
    /// drops 30 ms apart, at `--settle 0` and the default 300. Printed, not
    /// asserted: it measures, it does not judge.
    @Test(arguments: [0, 300]) func filingLatency(settle: Int) throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "\(settle)"])
        let inbox = scene.inbox()
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "warm-up"), as: "warm-up.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")

        let watcher = try AlbumEntryWatcher(scene.contents.album("QQ"))
        let count = 100
        for index in 0..<count {
            try writeFile(
                scene.staging.appending("l\(index).jpg"), Pictures.uniqueJPEG(index, tag: "latency"))
        }
        var dropped: [String: Double] = [:]
        for index in 0..<count {
            let name = "l\(index).jpg"
            dropped[name] = monotonicSeconds()
            try Sys.rename(scene.staging.appending(name), to: inbox.appending(name))
            watcher.collect(until: monotonicSeconds() + 0.030)
        }
        let deadline = monotonicSeconds() + 60
        while watcher.seen.count < count, monotonicSeconds() < deadline {
            watcher.collect(until: min(deadline, monotonicSeconds() + 0.1))
        }
        let latencies = dropped.compactMap { name, start in watcher.seen[name].map { ($0 - start) * 1000 } }
            .sorted()
        #expect(
            latencies.count == count,
            "\(count - latencies.count) drops never reached the album: \(daemon.log)")
        if !latencies.isEmpty {
            let p50 = latencies[latencies.count / 2]
            let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
            print(
                "Filing latency at --settle \(settle) over \(latencies.count) drops: p50 \(String(format: "%.1f", p50)) ms, p99 \(String(format: "%.1f", p99)) ms, max \(String(format: "%.1f", latencies.last!)) ms"
            )
        }
        #expect(daemon.terminate() == 0)
    }
}

/// CPU time and voluntary context switches of a process, from `/proc`.
struct ProcessUsage {
    /// utime + stime, in clock ticks.
    var cpuTicks: Int
    /// Thread id → voluntary context switches (each is a sleep, so a wake-up).
    var voluntarySwitches: [String: Int]

    init(pid: pid_t) {
        let stat = String(decoding: (try? readFile(BytePath("/proc/\(pid)/stat"))) ?? [], as: UTF8.self)
        // Fields after the command name (which may hold spaces) in parentheses.
        let fields = stat.split(separator: ")").last.map { $0.split(separator: " ") } ?? []
        // utime and stime are fields 14 and 15; the part after ')' starts at field 3.
        cpuTicks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        var switches: [String: Int] = [:]
        let tasks = BytePath("/proc/\(pid)/task")
        for entry in (try? Sys.listDirectory(tasks)) ?? [] {
            let status = String(
                decoding: (try? readFile(tasks.appending(entry.name).appending("status"))) ?? [],
                as: UTF8.self)
            for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
                switches[entry.name.display] = Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        voluntarySwitches = switches
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Notes when each entry appears in an album folder, with inotify in the test
/// process: the time is taken when the event is read, not at a polling tick.
final class AlbumEntryWatcher {
    private let fd: Int32
    private(set) var seen: [String: Double] = [:]

    init(_ folder: BytePath) throws {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError(Errno(rawValue: errno), call: "inotify_init1", path: folder) }
        let wd = folder.withCString { inotify_add_watch(fd, $0, UInt32(IN_CREATE | IN_MOVED_TO)) }
        guard wd >= 0 else {
            throw SystemError(Errno(rawValue: errno), call: "inotify_add_watch", path: folder)
        }
    }

    deinit { close(fd) }

    /// Reads events until `deadline` (monotonic seconds).
    func collect(until deadline: Double) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let remaining = Int32(max(0, (deadline - monotonicSeconds()) * 1000))
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, remaining) > 0 else { return }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            let now = monotonicSeconds()
            guard count > 0 else { return }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes {
                    Int($0.load(fromByteOffset: offset + 12, as: UInt32.self))
                }
                let nameBytes = buffer[(offset + header)..<(offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if seen[name] == nil { seen[name] = now }
                offset += header + length
            }
            if monotonicSeconds() >= deadline { return }
        }
    }
}
