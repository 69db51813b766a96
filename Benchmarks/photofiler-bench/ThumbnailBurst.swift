import Foundation
import Glibc

/// The thumbnail figures of a burst (issue 12's targets): how long after the burst
/// the daemon's background queue has made every thumbnail, against `vipsthumbnail`
/// making the same two sizes of the same files on every core (the floor: the same
/// library without photofiler around it), and whether the helpers end when idle.
enum ThumbnailBurst {
    /// How many thumbnails `photofiler status --json` says are still to make.
    static func pending(library: String, photofiler: String) throws -> Int {
        let run = try timedRun(photofiler, ["status", "--json", "--library", library])
        guard
            let object = try JSONSerialization.jsonObject(with: run.output) as? [String: Any],
            let pending = object["thumbnailsPending"] as? Int
        else {
            throw BenchFailure("photofiler status --json gave no thumbnailsPending (exit \(run.status))")
        }
        return pending
    }

    /// Waits until no thumbnail is pending; the seconds it took. The daemon gives no
    /// event for it, so this asks `status` four times a second (a benchmark, not a test).
    static func waitForThumbnails(library: String, photofiler: String, timeout: Double) throws -> Double {
        let start = now()
        while try pending(library: library, photofiler: photofiler) > 0 {
            guard now() - start < timeout else {
                throw BenchFailure("thumbnails were still pending after \(Int(timeout)) s in \(library)")
            }
            usleep(250_000)
        }
        return now() - start
    }

    /// Waits until `daemon` has no helper left (they end after a minute idle); the
    /// seconds it took, or nil when one is still there after `timeout`.
    static func waitForHelpersToEnd(daemon: pid_t, timeout: Double) -> Double? {
        let start = now()
        while !ProcessSample.children(of: daemon, named: "photofiler-help").isEmpty {
            guard now() - start < timeout else { return nil }
            usleep(250_000)
        }
        return now() - start
    }

    /// `vipsthumbnail` at 1024 and 256 px (never enlarged, Q 82, stripped, as photofiler
    /// stores them) over `files`, split over the cores; its wall time.
    static func floorSeconds(files: [String], output: String) throws -> Double {
        try makeDirectories(output)
        let cores = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let list = "\(output)/files.txt"
        try files.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let perProcess = (files.count + cores - 1) / cores
        let script = """
            xargs -a '\(list)' -d '\\n' -P \(cores) -n \(perProcess) sh -c \
            'vipsthumbnail -s "1024>" -o "\(output)/%s-1024.jpg[Q=82,strip]" "$@" && \
            vipsthumbnail -s "256>" -o "\(output)/%s-256.jpg[Q=82,strip]" "$@"' _
            """
        let run = try timedRun("/bin/sh", ["-c", script])
        guard run.status == 0 else { throw BenchFailure("vipsthumbnail failed (exit \(run.status))") }
        return run.seconds
    }
}
