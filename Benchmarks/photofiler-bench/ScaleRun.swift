import Foundation
import Glibc

/// `--large-only`: the large-library figures alone (start-up, list, check, the
/// catalog's size), for showing how start-up grows with the number of assets.
/// With `--large-library DIR` the library is made once and reused.
enum ScaleRun {
    static func run(options: Options, work: String, photofiler: String) throws {
        let root = try library(options: options, work: work)
        _ = try LargeLibrary.startUp(root: root, work: work, photofiler: photofiler)  // stamps, warms caches
        var startUps: [LargeLibrary.StartUp] = []
        for _ in 0..<3 {
            startUps.append(try LargeLibrary.startUp(root: root, work: work, photofiler: photofiler))
        }
        let startUp = startUps.sorted { $0.seconds < $1.seconds }[1]
        let list = try LargeLibrary.list(root: root, photofiler: photofiler)
        let check = try timedRun(photofiler, ["check", "--library", root])
        guard check.status == 0 else {
            throw BenchFailure(
                "photofiler check found differences on the large library (exit \(check.status))")
        }
        let catalog = "\(root)/.photofiler/catalog.sqlite"
        let bytes = ["", "-wal"].reduce(0) { total, suffix in
            var raw = stat()
            return total + (stat(catalog + suffix, &raw) == 0 ? Int(raw.st_size) : 0)
        }
        let assets = options.assets
        say("")
        say(
            "| assets | READY, s (median of 3) | peak RSS during start-up, MB | RSS at READY, MB | list, ms | check, s | catalog, bytes/asset |"
        )
        say("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        say(
            String(
                format: "| %d | %.2f | %.1f | %.1f | %.1f | %.1f | %.0f |", assets, startUp.seconds,
                Double(startUp.peakRSSKB) / 1024, Double(startUp.rssKB) / 1024, list * 1000, check.seconds,
                Double(bytes) / Double(assets)))
    }

    /// The kept library when it is there, else a new one (kept when asked for).
    private static func library(options: Options, work: String) throws -> String {
        guard let kept = options.largeLibrary else {
            let root = "\(work)/large-library"
            try LargeLibrary.make(at: root, count: options.assets)
            return root
        }
        var raw = stat()
        if stat("\(kept)/.photofiler/catalog.sqlite", &raw) != 0 {
            try LargeLibrary.make(at: kept, count: options.assets)
        } else {
            say("  reusing the library at \(kept)")
        }
        return kept
    }
}
