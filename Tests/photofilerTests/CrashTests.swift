import Foundation
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem
import TestSupport
import Testing

/// Crash at every step (issue 4): `PHOTOFILER_CRASH_AT=before:K|after:K` makes a
/// debug build `_exit(86)` right before or after its K-th mutating system call.
/// K goes 1, 2, 3 … until the run completes without reaching K, so every crash
/// point of the filing path is covered; after each crash the library is
/// recovered, the save run again, and the invariants checked.
@Suite struct CrashTests {

    enum Recovery: String, CaseIterable, CustomTestStringConvertible {
        /// `photofiler check --repair`.
        case repair
        /// Start the daemon (its start-up reconcile), wait for READY, stop it.
        case daemonRestart
        var testDescription: String { rawValue }
    }

    enum Moment: String, CaseIterable { case before, after }

    /// One scenario: prepares a fresh library and sources; `save` is the run that crashes.
    struct Scenario {
        var folder: TemporaryFolder
        var library: BytePath
        var inbox: BytePath
        var sources: [BytePath]
        /// `save`'s options before the sources (`--album`, `--move` …).
        var saveOptions: [String]
        var originals: Set<String>
        var album: String
        var cleanup: () -> Void = {}

        /// The `save` of the sources still in their inbox, or nil when none is.
        func saveArguments() throws -> [BytePath]? {
            let left = try sources.filter { try Sys.statusIfExists($0) != nil }
            guard !left.isEmpty else { return nil }
            return (["save", "--library", library.display] + saveOptions).map { BytePath($0) } + left
        }
    }

    // MARK: Scenarios

    static func moveScenario() throws -> Scenario {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let bytes = Pictures.unique(1)
        let source = inbox.appending("IMG_20231201_123456.jpg")
        try writeFile(source, bytes)
        return Scenario(
            folder: folder, library: folder.file("library"), inbox: inbox, sources: [source],
            saveOptions: ["--album", "QQ", "--move"], originals: [Pictures.hash(bytes)], album: "QQ")
    }

    /// A group large enough to be made durable by one `syncfs` (`GroupDurability.wholeFileSystem`).
    static func groupScenario() throws -> Scenario {
        var scenario = try moveScenario()
        let count = GroupDurability.syncfsGroupSize
        scenario.sources = []
        scenario.originals = []
        for n in 0..<count {
            let bytes = Pictures.unique(100 + n)
            let source = scenario.inbox.appending("IMG_20231201_1234\(10 + n).jpg")
            try writeFile(source, bytes)
            scenario.sources.append(source)
            scenario.originals.insert(Pictures.hash(bytes))
        }
        return scenario
    }

    /// The content is already an asset in album A; the crashing run files a
    /// duplicate of it into album B.
    static func duplicateScenario() throws -> Scenario {
        var scenario = try moveScenario()
        let first = scenario.folder.file("first.jpg")
        try copyFile(scenario.sources[0], to: first)
        let saved = try Binary.run(
            "save", "--library", scenario.library.display, "--album", "A", first.display)
        #expect(saved.status == 0, "\(saved.stderr)")
        scenario.saveOptions = ["--album", "B", "--move"]
        scenario.album = "B"
        return scenario
    }

    /// The source lives on a tmpfs: the bytes are copied through `.photofiler/tmp`.
    static func crossFileSystemScenario() throws -> Scenario? {
        var scenario = try moveScenario()
        let mount = scenario.folder.file("tmpfs")
        if Machine.mountTmpfs(mount, size: "8m") != nil { return nil }
        let inbox = mount.appending("inbox")
        try Sys.makeDirectories(inbox)
        let source = inbox.appending(scenario.sources[0].lastComponent)
        try copyFile(scenario.sources[0], to: source)
        try Sys.unlink(scenario.sources[0])
        scenario.inbox = inbox
        scenario.sources = [source]
        scenario.cleanup = { Machine.unmount(mount) }
        return scenario
    }

    // MARK: Tests

    @Test(arguments: Recovery.allCases)
    func moveOneFile(recovery: Recovery) throws {
        try crashAtEveryStep(recovery: recovery, make: Self.moveScenario)
    }

    /// The album entry is a relative symbolic link: symlinkat is a crash point too.
    @Test func moveOneFileWithSymbolicLinks() throws {
        try crashAtEveryStep(recovery: .repair) { () throws -> Scenario in
            var scenario = try Self.moveScenario()
            scenario.saveOptions.insert(contentsOf: ["--link", "symbolic"], at: 0)
            return scenario
        }
    }

    /// A group made durable by one `syncfs` and one commit, as the daemon files a
    /// burst; recovered by the daemon's start-up, as the daemon's own groups are.
    @Test func moveAGroup() throws {
        try crashAtEveryStep(recovery: .daemonRestart, make: Self.groupScenario)
    }

    @Test func duplicateIntoASecondAlbum() throws {
        try crashAtEveryStep(recovery: .repair, make: Self.duplicateScenario)
    }

    @Test(.enabled(if: Machine.isRoot, "mounting a tmpfs for the source needs root"))
    func copyFromAnotherFileSystem() throws {
        try crashAtEveryStep(recovery: .repair) { () throws -> Scenario in
            try #require(try Self.crossFileSystemScenario(), "mount -t tmpfs failed")
        }
    }

    // MARK: The loop

    private func crashAtEveryStep(recovery: Recovery, make: () throws -> Scenario) throws {
        var crashPoints: [Moment: Int] = [:]
        var filesChecked = 0
        for moment in Moment.allCases {
            var k = 1
            while k < 500 {
                let scenario = try make()
                defer { scenario.cleanup() }
                let run = try Binary.run(
                    try #require(try scenario.saveArguments()),
                    environment: ["PHOTOFILER_CRASH_AT": "\(moment.rawValue):\(k)"])
                if run.status != CrashPoints.crashStatus {
                    #expect(run.status == 0, "run \(moment):\(k) failed: \(run.stderr)")
                    crashPoints[moment] = k - 1
                    break
                }
                let context = "\(moment):\(k) (\(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))"

                // Straight after the crash: nothing partial is visible in the Roll.
                for file in Invariants.regularFiles(under: scenario.library.appending("Roll"), excluding: nil)
                {
                    #expect(
                        Invariants.hash(file).map(scenario.originals.contains) == true,
                        "after \(context): '\(file.display)' is partial")
                }

                try recover(scenario.library, recovery, context: context)
                if let saveAgain = try scenario.saveArguments() {
                    let again = try Binary.run(saveAgain)
                    #expect(again.status == 0, "after \(context), the save again failed: \(again.stderr)")
                }
                #expect(try scenario.saveArguments() == nil, "after \(context): a source left")

                let report = try Invariants(
                    library: scenario.library, inboxes: [scenario.inbox], originals: scenario.originals
                ).check()
                filesChecked += report.filesChecked
                #expect(report.isClean, "after \(context): \(report)")
                #expect(report.rollFiles == scenario.sources.count, "after \(context): \(report)")
                let entries =
                    (try? Sys.listDirectory(scenario.library.appending("Albums/\(scenario.album)"))) ?? []
                #expect(
                    entries.count == scenario.sources.count,
                    "after \(context): \(entries.count) entries in \(scenario.album)")
                k += 1
            }
        }
        #expect(crashPoints[.before] ?? 0 > 5 && crashPoints[.after] ?? 0 > 5)
        // A crash after a call that failed is a crash point too: both walks cover every call.
        #expect(crashPoints[.after] == crashPoints[.before], "\(crashPoints)")
        print(
            "CrashTests(\(recovery)): \(crashPoints[.before] ?? 0) crash points before, \(crashPoints[.after] ?? 0) after; \(filesChecked) files checked"
        )
    }

    private func recover(_ library: BytePath, _ recovery: Recovery, context: String) throws {
        switch recovery {
        case .repair:
            let repaired = try Binary.run("check", "--library", library.display, "--repair")
            #expect(
                repaired.status == 0, "after \(context), check --repair: \(repaired.stdout)\(repaired.stderr)"
            )
        case .daemonRestart:
            let daemon = try DaemonProcess(library: library, arguments: [])
            #expect(daemon.terminate() == 0, "after \(context): \(daemon.log)")
        }
    }
}
