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
    /// Only make the large library there (for the gallery's browser timings) and stop.
    var makeLibrary: String?

    static let usage = """
        usage: photofiler-bench [--smoke] [--files N] [--drops N] [--idle SECONDS] [--assets N]
                                [--out DIR] [--photofiler PATH] [--cache DIR] [--keep-work]
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
            case "--files": options.files = max(try number(argument), 3)
            case "--drops": options.drops = max(try number(argument), 1)
            case "--idle": options.idleSeconds = Double(try number(argument))
            case "--assets": options.assets = max(try number(argument), 100)
            case "--out": options.output = try value(argument)
            case "--photofiler": options.photofiler = try value(argument)
            case "--cache": options.cache = try value(argument)
            case "--keep-work": options.keepWork = true
            case "--make-library": options.makeLibrary = try value(argument)
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

func main() throws {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    if let root = options.makeLibrary {
        try LargeLibrary.make(at: root, count: options.assets)
        return
    }
    let build = ownFolder()
    let photofiler = options.photofiler ?? "\(build)/photofiler"
    guard FileManager.default.isExecutableFile(atPath: photofiler) else {
        throw BenchFailure(
            "'\(photofiler)' is not there; build it first (make bench does) or pass --photofiler PATH")
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

    let cache = options.cache ?? "\((build as NSString).deletingLastPathComponent)/bench-cache"
    let total = options.files + options.drops
    let workload = try Workload.make(count: total, cacheRoot: cache)
    let burst = workload.pictures[0..<options.files]
    let drops = workload.pictures[options.files..<total]

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
    func watcher(_ kind: WatcherKind) throws -> WatcherResult {
        let result = try WatcherRun(
            kind: kind, work: work, workload: workload, burst: burst, drops: drops, photofiler: photofiler,
            idleSeconds: options.idleSeconds
        ).run()
        say(
            String(
                format: "  %@: %.2f s, %.0f files/s; latency p50 %.2f ms, p99 %.2f ms", kind.rawValue,
                result.seconds,
                result.filesPerSecond, percentile(result.latencies, 50), percentile(result.latencies, 99)))
        if !options.keepWork { removeTree("\(work)/\(kind.rawValue)") }
        return result
    }
    let recipe = try watcher(.recipe)
    let filer = try watcher(.photofiler)

    // 3. A large catalog: start-up, list, and a page of the gallery's API.
    let large = "\(work)/large-library"
    try LargeLibrary.make(at: large, count: options.assets)
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
        photofiler: filer,
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
