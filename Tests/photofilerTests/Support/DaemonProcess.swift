import Foundation
import Glibc
import PhotoFilerCore
import TestSupport

/// A `photofiler watch` daemon started by a test, with a test-owned
/// `NOTIFY_SOCKET` (systemd's notify protocol), so the test waits for READY=1
/// instead of sleeping.
final class DaemonProcess {
    let process: Spawned
    let library: BytePath
    private let socketFolder: TemporaryFolder
    private let socket: Int32
    /// Every notify message received so far ("READY=1", "STATUS=…").
    private(set) var messages: [String] = []

    /// Starts `photofiler watch --library LIBRARY ARGS…` and waits for READY=1.
    init(
        library: BytePath, arguments: [String], environment: [String: String] = [:], waitForReady: Bool = true,
        readyTimeout: Double = 30, launcher: [String] = []
    ) throws {
        self.library = library
        socketFolder = try TemporaryFolder()
        let socketPath = socketFolder.file("notify.sock")
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.socket = socket
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
        guard bound == 0 else { throw SystemError(Errno(rawValue: errno), call: "bind", path: socketPath) }
        // Reachable by a daemon that runs as another user (the permission tests).
        _ = chmod(socketFolder.path.display, 0o755)
        _ = chmod(socketPath.display, 0o777)
        var env = environment
        env["NOTIFY_SOCKET"] = socketPath.display
        process = try Spawned(
            arguments: ["watch", "--library", library.display].map { BytePath($0) } + arguments.map { BytePath($0) },
            environment: env, launcher: launcher.map { BytePath($0) })
        if waitForReady {
            guard waitForMessage(timeout: readyTimeout, { $0.contains("READY=1") }) else {
                throw DaemonFailure.notReady(log: log)
            }
        }
    }

    deinit {
        close(socket)
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
        if messages.contains(where: matches) { return true }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            if process.wait(timeout: 0) != nil { return messages.contains(where: matches) }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 50) > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    let text = String(decoding: buffer[..<count], as: UTF8.self)
                    messages.append(contentsOf: text.split(separator: "\n").map(String.init))
                    if messages.contains(where: matches) { return true }
                }
            }
        }
        return messages.contains(where: matches)
    }

    /// SIGTERM, then waits for the exit; the exit status (nil if it did not exit in time).
    @discardableResult
    func terminate(timeout: Double = 10) -> Int32? {
        process.signal(SIGTERM)
        return process.wait(timeout: timeout)
    }
}
