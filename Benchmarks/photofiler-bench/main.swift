import Foundation
import Glibc

// photofiler-bench: photofiler against the floor of the same work and against the
// inotifywait recipe, in one run, as ratios. `make bench` runs it; `--smoke` is the
// small version CI runs to prove it still works (it judges nothing).

struct Options {
    var files = 10_000
    var drops = 200
    var idleSeconds = 10.0
    var assets = 100_000
    var output = "bench-results"
    var photofiler: String?
    var cache: String?
    var keepWork = false
    var smoke = false
    /// Rounds of the burst: the floor and photofiler's bursts with and without
    /// thumbnails, back to back; the ratios are the rounds' medians, the worst shown.
    /// With `--pairs`, the number of pairs.
    var rounds = 3
    /// A large library kept between runs (a million assets take minutes to make):
    /// made there when missing, reused when present.
    var largeLibrary: String?
    /// Only the large-library figures (start-up, list, check), no burst.
    var largeOnly = false
    /// Only make the large library there (for the gallery's browser timings) and stop.
    var makeLibrary: String?
    /// Only the burst, of `photofiler` and of this other build in `rounds` interleaved pairs.
    var pairsAgainst: String?

    static let usage = """
        usage: photofiler-bench [--smoke] [--files N] [--drops N] [--idle SECONDS] [--assets N]
                                [--rounds N] [--out DIR] [--photofiler PATH] [--cache DIR] [--keep-work]
                                [--large-library DIR] [--large-only] [--pairs OTHER-PHOTOFILER]
               photofiler-bench --make-library DIR [--assets N]
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchFailure("\(name) needs a value\n\(usage)") }
            return next
        }
        func number(_ name: String) throws -> Int {
            guard let n = Int(try value(name)), n >= 0 else {
                throw BenchFailure("\(name) needs a number\n\(usage)")
            }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--smoke":
                options.smoke = true
                options.files = 200
                options.drops = 20
                options.idleSeconds = 1
                options.assets = 2_000
                options.rounds = 1
            case "--files": options.files = max(try number(argument), 3)
            case "--drops": options.drops = max(try number(argument), 1)
            case "--idle": options.idleSeconds = Double(try number(argument))
            case "--assets": options.assets = max(try number(argument), 100)
            case "--rounds": options.rounds = max(try number(argument), 1)
            case "--out": options.output = try value(argument)
            case "--photofiler": options.photofiler = try value(argument)
            case "--cache": options.cache = try value(argument)
            case "--keep-work": options.keepWork = true
            case "--large-library": options.largeLibrary = try value(argument)
            case "--large-only": options.largeOnly = true
            case "--make-library": options.makeLibrary = try value(argument)
            case "--pairs": options.pairsAgainst = try value(argument)
            case "-h", "--help":
                say(usage)
                exit(0)
            default: throw BenchFailure("unknown option '\(argument)'\n\(usage)")
            }
        }
        return options
    }
}

/// The folder holding this executable (`.build/release`), where `photofiler` is too.
func ownFolder() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path =
        count > 0
        ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        : CommandLine.arguments[0]
    return (path as NSString).deletingLastPathComponent
}

/// Whether `path` is a file this process may run: `isExecutableFile` alone also
/// says yes to a folder (its search permission), which then fails to start.
func isProgram(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        && FileManager.default.isExecutableFile(atPath: path)
}

func main() throws {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if let root = options.makeLibrary {
        try LargeLibrary.make(at: root, count: options.assets)
        return
    }
    let build = ownFolder()
    let photofiler = options.photofiler ?? "\(build)/photofiler"
    guard isProgram(photofiler) else {
        throw BenchFailure(
            "'\(photofiler)' is not there; build it first (make bench does) or pass --photofiler PATH")
    }
    if let other = options.pairsAgainst, !isProgram(other) {
        throw BenchFailure(
            "'\(other)' (--pairs) is not an executable photofiler; build it first or fix the path")
    }
    let machine = Machine.current()
    say("photofiler-bench: \(options.files) files, \(options.drops) drops, \(options.assets) assets")
    say("  machine: \(machine.cpus) CPUs, \(machine.cpuModel), \(machine.kernel)")
    say("  photofiler: \(photofiler)")

    // Everything lives on one file system (the temporary folder's), so drops are renames.
    var template = Array("\(NSTemporaryDirectory())/photofiler-bench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw BenchFailure("mkdtemp failed") }
    let work = String(cString: made)
    defer { if !options.keepWork { removeTree(work) } else { say("  work folder kept: \(work)") } }

    if options.largeOnly {
        try ScaleRun.run(options: options, work: work, photofiler: photofiler)
        return
    }
    let cache = options.cache ?? "\((build as NSString).deletingLastPathComponent)/bench-cache"
    let total = options.files + options.drops
    let workload = try Workload.make(count: total, cacheRoot: cache)
    let burst = workload.pictures[0..<options.files]
    let drops = workload.pictures[options.files..<total]
    if let other = options.pairsAgainst {
        try PairedBursts.run(
            pairs: options.rounds, a: photofiler, b: other, work: work, workload: workload, burst: burst)
        return
    }

    // 1. The floor, without and with fsync.
    func floor(_ durable: Bool) throws -> Double {
        let root = "\(work)/floor-\(durable ? "fsync" : "nofsync")"
        let inboxes = Workload.inboxNames.map { "\(root)/inboxes/\($0)" }
        for inbox in inboxes { try makeDirectories(inbox) }
        let staged = try workload.stage(into: "\(root)/staging", pictures: burst)
        for (path, picture) in staged {
            try check(rename(path, "\(inboxes[picture.inbox])/\(picture.name)"), "rename", path)
        }
        let seconds = try Floor.run(
            library: "\(root)/library", inboxes: inboxes, pictures: Array(burst), durable: durable)
        say(
            String(
                format: "  floor%@: %.2f s, %.0f files/s", durable ? " (fsync)" : "", seconds,
                Double(burst.count) / seconds))
        removeTree(root)
        return seconds
    }
    let floorSeconds = try floor(false)
    let floorDurableSeconds = try floor(true)

    // 2. The recipe and photofiler, each on its own fresh copy of the same files.
    func watcher(_ kind: WatcherKind, thumbnails: Bool = true, burstOnly: Bool = false) throws
        -> WatcherResult
    {
        let run = WatcherRun(
            kind: kind, work: work, workload: workload, burst: burst, drops: drops, photofiler: photofiler,
            idleSeconds: options.idleSeconds, thumbnails: thumbnails, burstOnly: burstOnly)
        let result = try run.run()
        // A run that times the burst alone has no single drops to tell.
        let latency =
            result.latencies.isEmpty
            ? ""
            : String(
                format: "; latency p50 %.2f ms, p99 %.2f ms", percentile(result.latencies, 50),
                percentile(result.latencies, 99))
        say(
            String(
                format: "  %@: %.2f s, %.0f files/s%@", run.folderName, result.seconds, result.filesPerSecond,
                latency))
        if !options.keepWork { removeTree("\(work)/\(run.folderName)") }
        return result
    }
    let recipe = try watcher(.recipe)
    let filer = try watcher(.photofiler)
    let filerWithoutThumbnails = try watcher(.photofiler, thumbnails: false)
    // More rounds of the burst, each its floor and photofiler's two bursts back to back:
    // on a shared machine one burst may run in a slower minute than its floor (±25%).
    var rounds = [
        BurstRound(
            floorRate: Double(burst.count) / floorSeconds, withThumbnails: filer.filesPerSecond,
            withoutThumbnails: filerWithoutThumbnails.filesPerSecond)
    ]
    for round in 1..<options.rounds {
        say("  round \(round + 1) of \(options.rounds):")
        let floorRate = Double(burst.count) / (try floor(false))
        let on = try watcher(.photofiler, burstOnly: true)
        let off = try watcher(.photofiler, thumbnails: false)
        rounds.append(
            BurstRound(
                floorRate: floorRate, withThumbnails: on.filesPerSecond, withoutThumbnails: off.filesPerSecond
            ))
    }
    let thumbnailFloor = try ThumbnailBurst.floorSeconds(
        files: burst.map { "\(workload.folder)/\($0.name)" }, output: "\(work)/vipsthumbnail")
    removeTree("\(work)/vipsthumbnail")
    say(
        String(
            format: "  thumbnails of the burst: photofiler %.1f s after it, vipsthumbnail %.1f s",
            filer.thumbnailSeconds ?? .nan, thumbnailFloor))

    // 3. A large catalog: start-up, list, and a page of the gallery's API.
    let large = options.largeLibrary ?? "\(work)/large-library"
    if options.largeLibrary == nil || access("\(large)/.photofiler/catalog.sqlite", F_OK) != 0 {
        try LargeLibrary.make(at: large, count: options.assets)
    }
    _ = try LargeLibrary.startUp(root: large, work: work, photofiler: photofiler)  // warm the page cache
    var startUps: [LargeLibrary.StartUp] = []
    for _ in 0..<3 {
        startUps.append(try LargeLibrary.startUp(root: large, work: work, photofiler: photofiler))
    }
    let startUp = startUps.sorted { $0.seconds < $1.seconds }[1]
    var lists: [Double] = []
    for _ in 0..<7 { lists.append(try LargeLibrary.list(root: large, photofiler: photofiler)) }
    let list = percentile(lists, 50)
    let galleryPage = try GalleryBench.assetsPage(root: large, work: work, photofiler: photofiler)

    var report = Report(
        machine: machine, files: options.files, drops: options.drops, assets: options.assets,
        floorSeconds: floorSeconds, floorDurableSeconds: floorDurableSeconds, recipe: recipe,
        photofiler: filer, photofilerWithoutThumbnails: filerWithoutThumbnails, rounds: rounds,
        thumbnailFloorSeconds: thumbnailFloor,
        startUp: startUp, listSeconds: list, galleryPageSeconds: galleryPage)
    report.idleSeconds = options.idleSeconds
    say("")
    say(report.markdown)
    try report.write(to: options.output)
    say("Wrote \(options.output)/latest.json, latest.md and latency.svg.")
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("photofiler-bench: \(error)\n".utf8))
    exit(1)
}
