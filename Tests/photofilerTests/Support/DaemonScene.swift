import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// One daemon test's world in a fresh temporary folder: inboxes under
/// `inboxes/`, a `staging/` folder on the same file system (for `mv` and hard
/// links from outside the inbox), and a library.
final class DaemonScene {
    let folder: TemporaryFolder
    let library: BytePath
    let staging: BytePath
    var contents: LibraryContents { LibraryContents(library: library) }

    init(library: String = "library") throws {
        folder = try TemporaryFolder()
        self.library = folder.path.appending(library)
        staging = folder.file("staging")
        try Sys.makeDirectories(staging)
    }

    func inbox(_ name: String = "QQ") -> BytePath { folder.file("inboxes").appending(name) }

    /// Starts `photofiler watch` with one `--inbox NAME=DIR` per name (the inbox
    /// folders are made by the daemon) and waits for READY=1.
    func start(_ arguments: [String] = [], inboxes: [String] = ["QQ"], waitForReady: Bool = true) throws
        -> DaemonProcess
    {
        try DaemonProcess(
            library: library, arguments: inboxArguments(inboxes) + arguments, waitForReady: waitForReady)
    }

    /// One `--inbox NAME=DIR` per name.
    func inboxArguments(_ inboxes: [String] = ["QQ"]) -> [String] {
        inboxes.flatMap { ["--inbox", "\($0)=\(inbox($0).display)"] }
    }

    /// The inotify watches the daemon holds and its inboxes' states, as `status --json` says.
    func watchesAndInboxStates() throws -> (used: Int?, states: [String]) {
        let result = try Binary.run([BytePath("status"), BytePath("--json"), BytePath("--library"), library])
        let json = try result.json() as? [String: Any]
        let inboxes = json?["inboxes"] as? [[String: Any]] ?? []
        return (
            (json?["watches"] as? [String: Any])?["used"] as? Int,
            inboxes.compactMap { $0["state"] as? String }
        )
    }

    /// Writes `bytes` in `staging/` and renames the file into `folder` as `name`
    /// (one `IN_MOVED_TO`, the file complete from the start).
    func dropByRename(_ bytes: [UInt8], as name: String, into folder: BytePath) throws {
        let staged = staging.appending("staged-\(name)")
        try writeFile(staged, bytes)
        try Sys.rename(staged, to: folder.appending(name))
    }

    /// Waits until the album has `count` entries; the daemon's log in the failure message.
    /// Waits until `count` files are filed into `album`: its entries are there and so
    /// are their catalog rows (an entry is linked before its group's commit).
    func waitForAlbum(_ album: String = "QQ", count: Int, timeout: Double = 30) -> Bool {
        waitUntil(timeout: timeout) {
            guard contents.albumEntries(album).count >= count, let rows = try? contents.assets() else {
                return false
            }
            return rows.count { ($0["albums"] as? [String])?.contains(album) == true } >= count
        }
    }
}

extension DaemonProcess {
    var pid: pid_t { process.pid }

    /// How many READY=1 the daemon has sent (one at start, one after each reload).
    var readyCount: Int { messages.filter { $0 == "READY=1" }.count }

    /// Waits until the daemon's log contains `text`.
    func waitForLog(_ text: String, timeout: Double = 20) -> Bool {
        waitUntil(timeout: timeout) { log.contains(text) }
    }

    /// Lines of the log that contain `text`.
    func logLines(containing text: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.contains(text) }
    }

    /// Whether the daemon holds a file below `folder` open (it is reading it now).
    func hasOpen(below folder: BytePath) -> Bool {
        let descriptors = BytePath("/proc/\(pid)/fd")
        guard let entries = try? Sys.listDirectory(descriptors) else { return false }
        return entries.contains { entry in
            (try? Sys.readLink(descriptors.appending(entry.name)))?.isWithin(folder) == true
        }
    }

    /// Sends SIGTERM and expects the promised stop: exit 0 within 5 s. Returns the seconds it took.
    @discardableResult
    func expectStopWithinFiveSeconds(sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        let signalled = Date()
        process.signal(SIGTERM)
        let status = process.wait(timeout: 60)
        let took = Date().timeIntervalSince(signalled)
        #expect(status == 0, "\(log)", sourceLocation: sourceLocation)
        #expect(took < 5, "took \(took) s to stop", sourceLocation: sourceLocation)
        return took
    }
}

/// Opens `path` for writing at its end (creating it when missing), writes, and
/// leaves it open: the caller closes. For writers that pause mid-file.
final class OpenWriter {
    let fd: FileDescriptor
    init(_ path: BytePath) throws {
        fd = try Sys.open(path, flags: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode: 0o644)
    }
    func write(_ bytes: ArraySlice<UInt8>) throws { try bytes.withUnsafeBytes { try fd.writeAll($0) } }
    func close() { fd.close() }
}

/// Appends `bytes` to `path` in one open-write-close (creating it when missing).
func appendFile(_ path: BytePath, _ bytes: ArraySlice<UInt8>) throws {
    let writer = try OpenWriter(path)
    defer { writer.close() }
    try writer.write(bytes)
}
