import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport

/// A `photofiler watch` daemon started by a test, with a test-owned
/// `NOTIFY_SOCKET` (systemd's notify protocol), so the test waits for READY=1
/// instead of sleeping.
final class DaemonProcess {
    let process: Spawned
    let library: BytePath
    private let socketFolder: TemporaryFolder
    private let reader: NotifyReader
    /// Every notify message received so far ("READY=1", "STATUS=…").
    var messages: [String] { reader.messages }

    /// Starts `photofiler watch --library LIBRARY ARGS… BYTEARGS…` and waits for READY=1.
    init(
        library: BytePath, arguments: [String], byteArguments: [BytePath] = [],
        environment: [String: String] = [:],
        waitForReady: Bool = true,
        readyTimeout: Double = 30, launcher: [String] = []
    ) throws {
        self.library = library
        socketFolder = try TemporaryFolder()
        let socketPath = socketFolder.file("notify.sock")
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = socketPath.bytes
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            close(socket)
            throw SystemError(Errno(rawValue: errno), call: "bind", path: socketPath)
        }
        // Reachable by a daemon that runs as another user (the permission tests).
        _ = chmod(socketFolder.path.display, 0o755)
        _ = chmod(socketPath.display, 0o777)
        reader = NotifyReader(socket: socket)
        var env = environment
        env["NOTIFY_SOCKET"] = socketPath.display
        process = try Spawned(
            arguments: ["watch", "--library", library.display].map { BytePath($0) }
                + arguments.map { BytePath($0) } + byteArguments,
            environment: env, launcher: launcher.map { BytePath($0) })
        if waitForReady {
            guard waitForMessage(timeout: readyTimeout, { $0.contains("READY=1") }) else {
                throw DaemonFailure.notReady(log: log)
            }
        }
    }

    deinit {
        reader.stop()
    }

    enum DaemonFailure: Error, CustomStringConvertible {
        case notReady(log: String)
        var description: String {
            switch self {
            case .notReady(let log): return "the daemon did not send READY=1; its log:\n\(log)"
            }
        }
    }

    /// What the daemon wrote to stderr so far.
    var log: String { process.stderrText() }

    /// Waits for a notify message that satisfies `matches`.
    func waitForMessage(timeout: Double, _ matches: (String) -> Bool) -> Bool {
        waitForMessages(timeout: timeout) { $0.contains(where: matches) }
    }

    /// Waits until every notify message received so far satisfies `condition`
    /// taken together (say, a second READY=1 after a RELOADING=1).
    func waitForMessages(timeout: Double, _ condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(messages) { return true }
            if process.wait(timeout: 0) != nil { break }
            usleep(10_000)
        }
        return condition(messages)
    }

    /// SIGTERM, then waits for the exit; the exit status (nil if it did not exit in time).
    @discardableResult
    func terminate(timeout: Double = 10) -> Int32? {
        process.signal(SIGTERM)
        return process.wait(timeout: timeout)
    }
}

/// Reads the notify socket on a thread of its own for the daemon's whole life,
/// as systemd does. A daemon whose messages nobody reads blocks in `sd_notify`
/// once the socket's queue is full (`net.unix.max_dgram_qlen`, 10 datagrams),
/// and it sends a STATUS after each burst it files.
///
/// `@unchecked Sendable`: `received` and `stopped` are only touched under `lock`;
/// the socket is read, and closed, only by the reading thread.
private final class NotifyReader: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [String] = []
    private var stopped = false

    init(socket: Int32) {
        let thread = Thread { [self] in run(socket) }
        thread.start()
    }

    var messages: [String] { lock.withLock { received } }

    /// The thread closes the socket and ends within one poll interval.
    func stop() { lock.withLock { stopped = true } }

    private func run(_ socket: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopped }) {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let lines = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(
                String.init)
            lock.withLock { received.append(contentsOf: lines) }
        }
        close(socket)
    }
}
