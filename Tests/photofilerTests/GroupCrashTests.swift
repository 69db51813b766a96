import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// Crash points on the paths the product really takes with many files: the daemon
/// filing its catch-up scan as one group, and `save` given many files, for groups
/// of 1, 8 and 256. Each run crashes right before or after its K-th mutating system
/// call (`PHOTOFILER_CRASH_AT`, debug builds), K drawn from a seeded generator; the
/// library is then recovered by a daemon restart and the durability invariants are
/// checked. A failure names its seed: `PHOTOFILER_CRASH_SEED=N swift test --filter
/// GroupCrashTests` replays exactly the same kill points.
@Suite struct GroupCrashTests {
    /// Kill points drawn per group size and moment.
    static let pointsPerCase = 4

    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["PHOTOFILER_CRASH_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 1...UInt64(Int32.max))
    }()

    enum Runner: String, CaseIterable, CustomTestStringConvertible {
        case daemon, save
        var testDescription: String { rawValue }
    }

    @Test(arguments: Runner.allCases, [1, 8, 256])
    func crashAtSeededPoints(runner: Runner, files: Int) throws {
        var generator = SplitMix64(seed: Self.seed ^ UInt64(files) ^ (runner == .daemon ? 0 : 0x5A5A))
        // A calibration run tells how many mutating calls the whole run makes.
        var calls = 0
        _ = try crashAndRecover(runner: runner, files: files, crashAt: "count", "calibration") { log in
            calls = Self.mutatingCalls(in: log) ?? 0
        }
        try #require(calls > files, "the calibration run reported \(calls) mutating calls")
        var crashed = 0
        for moment in ["before", "after"] {
            for _ in 0..<Self.pointsPerCase {
                let point = Int.random(in: 1...calls, using: &generator)
                let context = "seed \(Self.seed), \(runner) with \(files) file(s), crash \(moment):\(point)"
                if try crashAndRecover(runner: runner, files: files, crashAt: "\(moment):\(point)", context) {
                    crashed += 1
                }
            }
        }
        // The daemon's background thumbnail writes vary a little from run to run, so a
        // point drawn near the calibrated end may land past it; most must crash.
        #expect(
            crashed >= Self.pointsPerCase, "seed \(Self.seed): most drawn points did not crash the \(runner)")
        print(
            "GroupCrashTests(\(runner), \(files) files): \(calls) mutating calls, \(crashed) crashes recovered, seed \(Self.seed)"
        )
    }

    /// "photofiler: fault injection: N mutating calls", as a `count` run ends.
    static func mutatingCalls(in log: String) -> Int? {
        guard
            let range = log.range(of: #"fault injection: (\d+) mutating calls"#, options: .regularExpression)
        else { return nil }
        return Int(log[range].split(separator: " ")[2])
    }

    /// One crashed run and its recovery; true when the run did crash. `stderrOfRun`
    /// gets that run's stderr.
    private func crashAndRecover(
        runner: Runner, files: Int, crashAt: String, _ context: String,
        stderrOfRun: (String) -> Void = { _ in }
    ) throws -> Bool {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let library = folder.file("library")
        try Sys.makeDirectories(inbox)
        var originals = Set<String>()
        var sources: [BytePath] = []
        for n in 0..<files {
            let bytes = Pictures.unique(n)
            originals.insert(Pictures.hash(bytes))
            let source = inbox.appending("IMG_20231201_\(String(format: "%06d", n)).jpg")
            try writeFile(source, bytes)
            sources.append(source)
        }
        let daemonArguments = ["--inbox", "QQ=\(inbox.display)", "--settle", "0"]
        let environment = ["PHOTOFILER_CRASH_AT": crashAt]
        let inboxIsEmpty = { ((try? Sys.listDirectory(inbox)) ?? []).isEmpty }

        let status: Int32?
        switch runner {
        case .daemon:
            // Without desktop thumbnails: the library's own are enough mutating calls after filing.
            let config = folder.file("photofiler.conf")
            try writeFile(config, Array("[library]\ndesktop-thumbnails = false\n".utf8))
            let daemon = try DaemonProcess(
                library: library, arguments: daemonArguments + ["--config", config.display],
                environment: environment, waitForReady: false)
            // Until the thumbnails are made too (two sizes an asset): their writes are
            // mutating calls that come after filing, at nice 19, and a run stopped earlier
            // would never reach a point drawn among them.
            let thumbnails = library.appending(".photofiler/thumbnails")
            _ = waitUntil(timeout: 300) {
                daemon.process.wait(timeout: 0) != nil
                    || (inboxIsEmpty()
                        && regularFiles(under: thumbnails).filter { $0.display.hasSuffix(".jpg") }.count == 2
                            * files)
            }
            status = daemon.process.wait(timeout: 0) ?? daemon.terminate()
            stderrOfRun(daemon.log)
        case .save:
            let arguments = ["save", "--library", library.display, "--album", "QQ", "--move"]
            let run = try Binary.run(
                arguments.map { BytePath($0) } + sources, environment: environment)
            status = run.status
            stderrOfRun(run.stderr)
        }
        let didCrash = status == CrashPoints.crashStatus
        #expect(didCrash || status == 0, "\(context): exit \(String(describing: status))")

        // Straight after the crash: nothing partial in the Roll.
        for file in Invariants.regularFiles(under: library.appending("Roll"), excluding: nil) {
            #expect(
                Invariants.hash(file).map(originals.contains) == true,
                "\(context): '\(file.display)' is partial")
        }

        // Recovery: the daemon's start-up reconcile, then it files what is left.
        let daemon = try DaemonProcess(library: library, arguments: daemonArguments)
        #expect(waitUntil(timeout: 60, inboxIsEmpty), "\(context): the inbox was not emptied: \(daemon.log)")
        #expect(daemon.terminate() == 0, "\(context): \(daemon.log)")

        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(context): \(report)")
        #expect(report.rollFiles == files, "\(context): \(report)")
        #expect(report.albumEntries == files, "\(context): \(report)")
        folder.remove()
        return didCrash
    }
}

/// A small seeded generator (SplitMix64), so a seed replays the same draws.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
