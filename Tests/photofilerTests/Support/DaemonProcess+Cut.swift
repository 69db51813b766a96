import Foundation
import TestSupport

extension DaemonProcess {
    /// One run of the crash-point tests on the daemon's path: the daemon started on
    /// `library` with `PHOTOFILER_CRASH_AT=crashAt`, `change` made once it is ready
    /// (or at once, when it was cut on its way up, so that it meets the change at its
    /// next start), then left until its log says `done` or it was cut. Its exit status
    /// and its log, as a command's result.
    static func runCut(
        library: TestLibrary, crashAt: String, change: () throws -> Void, until done: String
    ) throws -> Binary.Result {
        let daemon = try DaemonProcess(
            library: library.root, arguments: [], environment: ["PHOTOFILER_CRASH_AT": crashAt],
            waitForReady: false)
        let ready = daemon.waitForMessage(timeout: 30) { $0 == "READY=1" }
        try change()
        if ready {
            waitUntil(timeout: 10) { daemon.process.wait(timeout: 0) != nil || daemon.log.contains(done) }
        }
        let status = daemon.process.wait(timeout: 0) ?? daemon.terminate() ?? -1
        return Binary.Result(status: status, stdout: "", stderr: daemon.log, stdoutBytes: [])
    }
}
