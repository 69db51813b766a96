import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// The benchmark still works end to end (N = 200 files, 20 drops, a 2,000-asset
/// library, two rounds of the burst). It judges no speed: the numbers of a loaded
/// CI machine mean nothing.
@Suite(.serialized) struct BenchmarkSmokeTests {
    /// `photofiler-bench`, built next to `photofiler` by `swift build --build-tests`.
    static var benchPath: BytePath { Binary.path.parent.appending("photofiler-bench") }

    /// Runs the bench with `arguments`, its output in a log in `folder`: its exit
    /// status and what it said.
    static func runBench(_ arguments: [String], in folder: TemporaryFolder) throws -> (
        status: Int32, said: String
    ) {
        let bench = Process()
        bench.executableURL = URL(fileURLWithPath: benchPath.display)
        bench.arguments = arguments
        let log = folder.file("bench.log")
        try writeFile(log, [])
        bench.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log.display))
        bench.standardError = bench.standardOutput
        try bench.run()
        bench.waitUntilExit()
        return (bench.terminationStatus, String(decoding: (try? readFile(log)) ?? [], as: UTF8.self))
    }

    @Test(.timeLimit(.minutes(3))) func smokeRunWritesTheTableAndTheHistogram() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("results")
        let (status, said) = try Self.runBench(
            ["--smoke", "--rounds", "2", "--out", output.display, "--photofiler", Binary.path.display],
            in: folder)
        #expect(status == 0, "\(said)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(readFile(output.appending("latest.json"))))
                as? [String: Any])
        #expect(json["files"] as? Int == 200)
        let photofiler = try #require(json["photofiler"] as? [String: Any])
        #expect((photofiler["filesPerSecond"] as? Double ?? 0) > 0)
        // The burst's CPU: the daemon hashes and links every file, so it is never free.
        #expect((photofiler["daemonCPUMicrosecondsPerFile"] as? Double ?? 0) > 0)
        #expect(photofiler["helperCPUMicrosecondsPerFile"] as? Double != nil)
        // Each round: the floor and both bursts, all of them filed.
        let rounds = try #require(json["rounds"] as? [[String: Double]])
        #expect(rounds.count == 2)
        for round in rounds {
            #expect(round["floorFilesPerSecond"] ?? 0 > 0)
            #expect(round["filesPerSecond"] ?? 0 > 0)
            #expect(round["withoutThumbnailsFilesPerSecond"] ?? 0 > 0)
        }
        let markdown = String(decoding: try readFile(output.appending("latest.md")), as: UTF8.self)
        #expect(markdown.contains("| burst of 200 files, files/s, median of 2 rounds |"))
        #expect(markdown.contains("(worst round "))
        #expect(markdown.contains("| CPU during the burst, µs a file: daemon (its helpers) |"))
        let svg = String(decoding: try readFile(output.appending("latency.svg")), as: UTF8.self)
        #expect(svg.hasPrefix("<svg") && svg.contains("<rect"))
    }

    /// `--pairs`: two builds' bursts interleaved (here the same build twice), each pair
    /// and the medians printed.
    @Test(.timeLimit(.minutes(3))) func pairsRunBothBuildsInTurnAndPrintTheMedians() throws {
        let folder = try TemporaryFolder()
        let (status, said) = try Self.runBench(
            [
                "--files", "20", "--drops", "1", "--rounds", "2", "--cache", folder.file("cache").display,
                "--photofiler", Binary.path.display, "--pairs", Binary.path.display,
            ], in: folder)
        #expect(status == 0, "\(said)")
        let pairs = said.split(separator: "\n").filter { $0.contains("pair ") && $0.contains(" files/s") }
        #expect(pairs.count == 2, "\(said)")
        #expect(pairs.allSatisfy { $0.contains(": A ") && $0.contains(", B ") }, "\(said)")
        #expect(said.contains("medians: A ") && said.contains("of 2 pairs"), "\(said)")

        // A folder is no build: one sentence naming it, before any burst.
        let (refused, sentence) = try Self.runBench(
            ["--photofiler", Binary.path.display, "--pairs", folder.path.display], in: folder)
        #expect(
            refused != 0
                && sentence.contains("'\(folder.path.display)' (--pairs) is not an executable photofiler"))
    }
}
