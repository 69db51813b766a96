import Foundation
import Glibc
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

    /// One scenario: prepares a fresh library and source; `save` is the run that crashes.
    struct Scenario {
        var folder: TemporaryFolder
        var library: BytePath
        var inbox: BytePath
        var source: BytePath
        var saveArguments: [String]
        var originals: Set<String>
        var album: String
        var cleanup: () -> Void = {}
    }

    // MARK: Scenarios

    static func moveScenario() throws -> Scenario {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let bytes = Pictures.unique(1)
        let source = inbox.appending("IMG_20231201_123456.jpg")
        try writeFile(source, bytes)
        let library = folder.file("library")
        return Scenario(
            folder: folder, library: library, inbox: inbox, source: source,
            saveArguments: ["save", "--library", library.display, "--album", "QQ", "--move", source.display],
            originals: [Pictures.hash(bytes)], album: "QQ")
    }

    /// The content is already an asset in album A; the crashing run files a
    /// duplicate of it into album B.
    static func duplicateScenario() throws -> Scenario {
        var scenario = try moveScenario()
        let first = scenario.folder.file("first.jpg")
        try copyFile(scenario.source, to: first)
        let saved = try Binary.run(
            "save", "--library", scenario.library.display, "--album", "A", first.display)
        #expect(saved.status == 0, "\(saved.stderr)")
        scenario.saveArguments = [
            "save", "--library", scenario.library.display, "--album", "B", "--move", scenario.source.display,
        ]
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
        let source = inbox.appending(scenario.source.lastComponent)
        try copyFile(scenario.source, to: source)
        try Sys.unlink(scenario.source)
        scenario.inbox = inbox
        scenario.source = source
        scenario.saveArguments = [
            "save", "--library", scenario.library.display, "--album", "QQ", "--move", source.display,
        ]
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
            scenario.saveArguments.insert(contentsOf: ["--link", "symbolic"], at: 1)
            return scenario
        }
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
                    scenario.saveArguments.map { BytePath($0) },
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
                if (try? Sys.statusIfExists(scenario.source)) ?? nil != nil {
                    let again = try Binary.run(scenario.saveArguments.map { BytePath($0) })
                    #expect(again.status == 0, "after \(context), the save again failed: \(again.stderr)")
                }
                #expect(
                    (try? Sys.statusIfExists(scenario.source)) ?? nil == nil, "after \(context): source left")

                let report = try Invariants(
                    library: scenario.library, inboxes: [scenario.inbox], originals: scenario.originals
                ).check()
                filesChecked += report.filesChecked
                #expect(report.isClean, "after \(context): \(report)")
                #expect(report.rollFiles == 1, "after \(context): \(report)")
                let entries =
                    (try? Sys.listDirectory(scenario.library.appending("Albums/\(scenario.album)"))) ?? []
                #expect(entries.count == 1, "after \(context): \(entries.count) entries in \(scenario.album)")
                k += 1
            }
        }
        #expect(crashPoints[.before] ?? 0 > 5 && crashPoints[.after] ?? 0 > 5)
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
