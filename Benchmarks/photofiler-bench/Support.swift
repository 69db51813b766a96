import Foundation
import Glibc
import Synchronization

/// Monotonic seconds.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a libc call that returns -1 on failure; throws with the call and path.
@discardableResult
func check(_ result: CInt, _ call: String, _ path: String) throws -> CInt {
    if result == -1 { throw BenchFailure("\(call) '\(path)': \(String(cString: strerror(errno)))") }
    return result
}

func makeDirectories(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

/// Copies a small file with read/write (no fsync: the caller syncs once at the end).
func copyFile(_ from: String, to: String, buffer: UnsafeMutableRawBufferPointer) throws {
    let input = try check(open(from, O_RDONLY | O_CLOEXEC), "open", from)
    defer { close(input) }
    let output = try check(open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644), "open", to)
    defer { close(output) }
    while true {
        let count = read(input, buffer.baseAddress, buffer.count)
        if count < 0 { throw BenchFailure("read '\(from)': \(String(cString: strerror(errno)))") }
        if count == 0 { return }
        var done = 0
        while done < count {
            let written = write(output, buffer.baseAddress! + done, count - done)
            if written < 0 { throw BenchFailure("write '\(to)': \(String(cString: strerror(errno)))") }
            done += written
        }
    }
}

func removeTree(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// Median and percentiles of a sample (nearest rank).
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

// MARK: /proc

/// What /proc says about one process (all its threads).
struct ProcessSample {
    /// User + system CPU seconds.
    var cpuSeconds: Double
    /// The same of its children that ended and were waited for (helpers retired mid-burst).
    var endedChildrenCPUSeconds: Double
    /// Voluntary + involuntary context switches per thread: each is a wake-up.
    var switchesByThread: [String: Int]
    var rssKB: Int
    var peakRSSKB: Int
    /// The process's own memory (RssAnon): RSS less the shared libraries' mapped pages.
    var anonymousRSSKB: Int

    static func read(pid: Int32) -> ProcessSample? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state(0) … utime(11) stime(12) cutime(13) cstime(14).
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let cpu = ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
        let children = ((Double(fields[13]) ?? 0) + (Double(fields[14]) ?? 0)) / ticks
        var switches: [String: Int] = [:]
        if let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            for task in tasks {
                guard
                    let status = try? String(
                        contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
                else { continue }
                switches[task] =
                    statusField(status, "voluntary_ctxt_switches")
                    + statusField(status, "nonvoluntary_ctxt_switches")
            }
        }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return ProcessSample(
            cpuSeconds: cpu, endedChildrenCPUSeconds: children, switchesByThread: switches,
            rssKB: statusField(status, "VmRSS"),
            peakRSSKB: statusField(status, "VmHWM"), anonymousRSSKB: statusField(status, "RssAnon"))
    }

    /// The pids of `parent`'s children whose name (cut at 15 bytes) starts with `name`.
    static func children(of parent: Int32, named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"), stat.contains("(\(name)")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    /// Wake-ups since `earlier`: threads that ended meanwhile drop out, new ones count whole.
    func wakeUps(since earlier: ProcessSample) -> Int {
        switchesByThread.reduce(0) { $0 + $1.value - (earlier.switchesByThread[$1.key] ?? 0) }
    }

    private static func statusField(_ text: String, _ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter { $0.isNumber }
            return Int(digits) ?? 0
        }
        return 0
    }
}

// MARK: The machine

struct Machine: Codable {
    var cpus: Int
    var cpuModel: String
    var kernel: String
    var memoryGB: Int

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
            ?? "unknown"
        var names = utsname()
        uname(&names)
        let release = withUnsafePointer(to: &names.release) {
            $0.withMemoryRebound(to: CChar.self, capacity: 65) { String(cString: $0) }
        }
        return Machine(
            cpus: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model, kernel: "Linux \(release)",
            memoryGB: Int((Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824).rounded()))
    }
}

// MARK: A notify socket the bench owns

/// A datagram socket for systemd's notify protocol, so the bench knows when the
/// daemon is READY without sleeping.
final class NotifySocket {
    let path: String
    private let fd: CInt

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try check(bound, "bind", path)
    }

    deinit {
        draining.value.store(false, ordering: .relaxed)
        drainer?.join()
        close(fd)
        unlink(path)
    }

    private final class Flag: Sendable { let value = Atomic<Bool>(false) }
    private let draining = Flag()
    private var drainer: DrainThread?

    /// Reads and drops every later message (STATUS=…) on a thread of its own, as
    /// systemd does: a full socket buffer would block the daemon's next sd_notify.
    func drainInBackground() {
        draining.value.store(true, ordering: .relaxed)
        let fd = self.fd
        drainer = DrainThread { [draining] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while draining.value.load(ordering: .relaxed) {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 100) > 0 {
                    _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                }
            }
        }
    }

    /// Waits for a message containing `text`; false on timeout or when `alive` says the process died.
    func wait(for text: String, timeout: Double, alive: () -> Bool) -> Bool {
        let deadline = now() + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while now() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0, String(decoding: buffer[..<count], as: UTF8.self).contains(text) { return true }
            } else if !alive() {
                return false
            }
        }
        return false
    }
}

/// A child process (posix_spawn, its own process group) with stdout and stderr
/// sent to a file; reaped with waitpid.
final class Child {
    let pid: pid_t
    /// Something that must live as long as the child (its notify socket).
    var keepAlive: AnyObject?
    private var status: CInt?

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], log: String) throws
    {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw BenchFailure("posix_spawn '\(executable)': \(String(cString: strerror(result)))")
        }
        self.pid = pid
    }

    var isRunning: Bool {
        if status != nil { return false }
        var raw: CInt = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = raw
            return false
        }
        return true
    }

    /// SIGTERM to the child's whole process group (a shell pipeline stops as one), then waits.
    func stop() {
        guard isRunning else { return }
        kill(-pid, SIGTERM)
        let deadline = now() + 10
        while isRunning && now() < deadline { usleep(5_000) }
        if isRunning {
            kill(-pid, SIGKILL)
            var raw: CInt = 0
            waitpid(pid, &raw, 0)
            status = raw
        }
    }
}

/// Runs a command to the end; returns its wall time in seconds and its stdout.
///
/// posix_spawn and waitpid, not Foundation's `Process`: on Linux its
/// `waitUntilExit` polls a run loop and added about 50 ms to every timed command.
func timedRun(_ executable: String, _ arguments: [String]) throws -> (
    seconds: Double, status: Int32, output: Data
) {
    var pipeEnds: [Int32] = [0, 0]
    try check(pipe(&pipeEnds), "pipe", executable)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
    argv.append(nil)
    defer { for pointer in argv { free(pointer) } }
    let start = now()
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(pipeEnds[1])
    guard spawned == 0 else {
        close(pipeEnds[0])
        throw BenchFailure("cannot start '\(executable)': \(String(cString: strerror(spawned)))")
    }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(pipeEnds[0], &buffer, buffer.count)
        if count > 0 {
            output.append(contentsOf: buffer[..<count])
        } else if count == 0 || errno != EINTR {
            break
        }
    }
    close(pipeEnds[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let seconds = now() - start
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return (seconds, code, output)
}

/// A line on stdout, written at once (progress shows even when stdout is a file).
func say(_ text: String = "") {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// A joinable pthread running one closure.
final class DrainThread {
    private var thread = pthread_t()
    private final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

    init(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { pointer in
                let box = Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue()
                box.body()
                return nil
            }, box)
    }

    func join() { pthread_join(thread, nil) }
}
