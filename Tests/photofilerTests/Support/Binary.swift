import Foundation
import Glibc
import TestSupport

@testable import PhotoFilerSystem

/// The built `photofiler` binary, run the way a user runs it: a separate process,
/// arguments as bytes (so a non-UTF-8 file name reaches it intact), output
/// captured from files.
enum Binary {
    /// The package root, found from this file's own path.
    static let packageRoot: BytePath = {
        var path = BytePath(#filePath)
        for _ in 0..<4 { path = path.parent }  // Support → photofilerTests → Tests → root
        return path
    }()

    /// `.build/debug/photofiler` (or `$PHOTOFILER_BINARY`), built by `swift build --build-tests`.
    static let path: BytePath = {
        if let override = ProcessInfo.processInfo.environment["PHOTOFILER_BINARY"] {
            return BytePath(override)
        }
        let candidates = [".build/debug/photofiler", ".build/x86_64-unknown-linux-gnu/debug/photofiler"]
        for candidate in candidates where (try? Sys.status(packageRoot.appending(candidate))) != nil {
            return packageRoot.appending(candidate)
        }
        return packageRoot.appending(candidates[0])
    }()

    /// One finished run.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: [UInt8]

        /// stdout parsed as JSON.
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(stdoutBytes), options: [.fragmentsAllowed])
        }
    }

    /// Runs `photofiler ARGS…` to the end (`LAUNCHER… photofiler ARGS…` when given, e.g. `setpriv …`).
    static func run(
        _ arguments: [BytePath], environment: [String: String] = [:], in folder: BytePath? = nil,
        launcher: [BytePath] = []
    ) throws -> Result {
        let process = try Spawned(arguments: arguments, environment: environment, launcher: launcher)
        let status = process.wait()
        return Result(
            status: status, stdout: String(decoding: process.stdoutBytes(), as: UTF8.self),
            stderr: process.stderrText(), stdoutBytes: process.stdoutBytes())
    }

    static func run(_ arguments: String..., environment: [String: String] = [:]) throws -> Result {
        try run(arguments.map { BytePath($0) }, environment: environment)
    }
}

/// A running `photofiler` process with its stdout and stderr going to files.
final class Spawned {
    let pid: pid_t
    let outputFolder: TemporaryFolder
    private(set) var exitStatus: Int32?

    /// `launcher` runs first with the binary as its operand (e.g. `setpriv --reuid=65534 …`).
    init(
        arguments: [BytePath], environment: [String: String], inheritedDescriptors: [Int32] = [],
        launcher: [BytePath] = []
    ) throws {
        outputFolder = try TemporaryFolder()
        let stdoutPath = outputFolder.file("stdout")
        let stderrPath = outputFolder.file("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        _ = stdoutPath.withCString {
            posix_spawn_file_actions_addopen(&actions, 1, $0, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        _ = stderrPath.withCString {
            posix_spawn_file_actions_addopen(&actions, 2, $0, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        _ = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "PHOTOFILER_LIBRARY")
        env["XDG_CONFIG_HOME"] = outputFolder.file("config").display  // no stray user config
        env["XDG_CACHE_HOME"] = outputFolder.file("cache").display  // desktop thumbnails stay here
        for (key, value) in environment { env[key] = value }

        let argv = launcher + [Binary.path] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { path in
            path.withCString { strdup($0) }
        }
        cArguments.append(nil)
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") }
        cEnvironment.append(nil)
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, cArguments[0]!, &actions, nil, cArguments, cEnvironment)
        guard result == 0 else {
            throw SystemError(Errno(rawValue: result), call: "posix_spawn", path: Binary.path)
        }
        pid = child
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// Waits for the process to end; its exit status (128+N when killed by signal N).
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        return code
    }

    /// Waits up to `timeout` seconds; nil when still running.
    func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {  // at least once: wait(timeout: 0) asks whether it has ended
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                exitStatus = code
                return code
            }
            if timeout > 0 { usleep(5_000) }
        } while Date() < deadline
        return nil
    }

    func signal(_ number: Int32) { kill(pid, number) }

    func stdoutBytes() -> [UInt8] { (try? readFile(outputFolder.file("stdout"))) ?? [] }
    func stderrText() -> String {
        String(decoding: (try? readFile(outputFolder.file("stderr"))) ?? [], as: UTF8.self)
    }
}
