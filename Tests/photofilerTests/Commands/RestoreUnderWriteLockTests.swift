import Foundation
import PhotoFilerCatalog
import PhotoFilerSystem
import TestSupport
import Testing

/// `restore` beside another process that holds the catalog's write lock (a daemon
/// filing a group, a second command): no file of the asset comes back into the Roll
/// while the catalog still calls it deleted, so a daemon never takes it for a file
/// put there by hand (photofiler(1) "Deletion").
@Suite struct RestoreUnderWriteLockTests {
    @Test func restoreMovesNoFileBeforeItHoldsTheCatalog() throws {
        let (library, id) = try RestoreCrashTests.libraryWithADeletedAsset()
        #expect(try library.rollFiles().isEmpty)
        let other = try SQLiteConnection(path: library.catalog)
        try other.execute("BEGIN IMMEDIATE")
        let restore = try Spawned(
            arguments: [BytePath("restore"), BytePath("\(id)"), BytePath("--library"), library.root],
            environment: [:])
        // It waits for the lock in SQLite's busy handler: from then on, nothing it
        // does before the lock is taken is still to come.
        let waiting = waitUntil { Self.sleeps(restore.pid) || restore.wait(timeout: 0) != nil }
        #expect(waiting && restore.wait(timeout: 0) == nil, "restore: \(restore.stderrText())")
        #expect(try library.rollFiles().isEmpty, "a roll file came back before the restore held the catalog")
        try other.execute("ROLLBACK")
        #expect(restore.wait() == 0, "restore: \(restore.stderrText())")
        try RestoreCrashTests.expectBack(id, in: library, albums: ["QQ"], context: "restore")
    }

    /// Whether a thread of `pid` is in `nanosleep` or `clock_nanosleep`, as SQLite's
    /// busy handler is while another process writes.
    static func sleeps(_ pid: pid_t) -> Bool {
        #if arch(arm64)
            let sleepCalls: Set<Substring> = ["101", "115"]
        #else
            let sleepCalls: Set<Substring> = ["35", "230"]
        #endif
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)
            else { return false }
            return text.split(separator: " ").first.map { sleepCalls.contains($0) } ?? false
        }
    }
}
