import Foundation

/// `--pairs OTHER`: the bursts of two builds interleaved (A B, B A, A B …), thumbnails
/// off, each on a fresh copy of the same files, with the daemon's and its helpers'
/// CPU a file. On a machine whose bursts move by ±15% from one minute to the next,
/// a change of a few percent shows only this way: in the same minutes, pair by pair,
/// and in the CPU a file, which moves less than the rate. It judges nothing.
enum PairedBursts {
    /// One build's burst.
    struct Burst {
        var filesPerSecond: Double
        var daemonCPUPerFile: Double
        var helperCPUPerFile: Double
    }

    /// Runs `pairs` pairs of `a` (the `--photofiler` build) and `b` and prints them
    /// and their medians.
    static func run(
        pairs: Int, a: String, b: String, work: String, workload: Workload, burst: ArraySlice<Picture>
    ) throws {
        say("  pairs: A = \(a), B = \(b), thumbnails off")
        func burstOf(_ path: String, _ folder: String) throws -> Burst {
            let run = WatcherRun(
                kind: .photofiler, work: folder, workload: workload, burst: burst, drops: [],
                photofiler: path, idleSeconds: 0, thumbnails: false, burstOnly: true)
            let result = try run.run()
            removeTree(folder)
            return Burst(
                filesPerSecond: result.filesPerSecond, daemonCPUPerFile: result.daemonCPUPerFile ?? .nan,
                helperCPUPerFile: result.helperCPUPerFile ?? .nan)
        }
        var results: [(a: Burst, b: Burst)] = []
        for pair in 1...pairs {
            // Each build goes first in every other pair: neither always gets the warmer minute.
            let first: Burst
            let second: Burst
            if pair % 2 == 1 {
                first = try burstOf(a, "\(work)/pair-\(pair)-A")
                second = try burstOf(b, "\(work)/pair-\(pair)-B")
            } else {
                second = try burstOf(b, "\(work)/pair-\(pair)-B")
                first = try burstOf(a, "\(work)/pair-\(pair)-A")
            }
            results.append((first, second))
            say(
                String(
                    format:
                        "  pair %d: A %.0f files/s (daemon %.0f, helpers %.0f µs a file), B %.0f (%.0f, %.0f)",
                    pair, first.filesPerSecond, first.daemonCPUPerFile, first.helperCPUPerFile,
                    second.filesPerSecond, second.daemonCPUPerFile, second.helperCPUPerFile))
        }
        say(summary(results))
    }

    /// The medians of both builds, B's over A's, and in how many pairs B did better.
    static func summary(_ results: [(a: Burst, b: Burst)]) -> String {
        func median(_ values: [Double]) -> Double { percentile(values, 50) }
        let rateA = median(results.map(\.a.filesPerSecond))
        let rateB = median(results.map(\.b.filesPerSecond))
        let daemonA = median(results.map(\.a.daemonCPUPerFile))
        let daemonB = median(results.map(\.b.daemonCPUPerFile))
        let faster = results.count { $0.b.filesPerSecond > $0.a.filesPerSecond }
        let leaner = results.count { $0.b.daemonCPUPerFile < $0.a.daemonCPUPerFile }
        return String(
            format:
                "  medians: A %.0f files/s, daemon %.0f µs a file; B %.0f, %.0f. B ÷ A: %.3f× the rate (faster in %d of %d pairs), %.3f× the daemon's CPU (lower in %d of %d)",
            rateA, daemonA, rateB, daemonB, rateB / rateA, faster, results.count, daemonB / daemonA, leaner,
            results.count)
    }
}
