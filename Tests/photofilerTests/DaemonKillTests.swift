import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// SIGKILL the daemon at random moments of a 2,000-file burst, five times,
/// restarting it each time; then every file is filed exactly once (issue 4).
@Suite struct DaemonKillTests {
    static let burst = 2000
    static let kills = 5

    @Test func sigkillDuringABurstLosesNothing() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let staging = folder.file("staging")
        let library = folder.file("library")
        try Sys.makeDirectories(inbox)
        try Sys.makeDirectories(staging)
        let arguments = ["--inbox", "QQ=\(inbox.display)", "--settle", "20"]

        var originals = Set<String>()
        var daemon = try DaemonProcess(library: library, arguments: arguments)
        for n in 0..<Self.burst {
            let bytes = Pictures.unique(n)
            originals.insert(Pictures.hash(bytes))
            try Pictures.drop(bytes, at: inbox.appending("IMG_\(n).jpg"), staging: staging)
        }

        // Kill points: random numbers of filed entries, increasing, inside the burst.
        var generator = SystemRandomNumberGenerator()
        let targets = (0..<Self.kills).map { _ in Int.random(in: 50..<(Self.burst - 100), using: &generator) }
            .sorted()
        let album = library.appending("Albums/QQ")
        func filed() -> Int { (try? Sys.listDirectory(album).count) ?? 0 }
        var killedAt: [Int] = []
        for target in targets {
            let reached = waitUntil(timeout: 60) {
                filed() >= target || daemon.process.wait(timeout: 0) != nil
            }
            #expect(reached, "the daemon stopped filing before \(target): \(daemon.log)")
            daemon.process.signal(SIGKILL)
            #expect(daemon.process.wait(timeout: 10) == 128 + SIGKILL)
            killedAt.append(filed())
            daemon = try DaemonProcess(library: library, arguments: arguments)
        }
        let inboxEmpty = waitUntil(timeout: 120) { ((try? Sys.listDirectory(inbox)) ?? []).isEmpty }
        #expect(inboxEmpty, "\(daemon.log)")
        #expect(daemon.terminate() == 0, "\(daemon.log)")

        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == Self.burst, "\(report)")
        #expect(report.albumEntries == Self.burst, "\(report)")
        print("DaemonKillTests: killed at \(killedAt) filed entries; \(report)")
    }
}
