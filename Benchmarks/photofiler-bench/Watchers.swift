import Foundation
import Glibc

/// A contender that watches inboxes: the shell recipe or photofiler.
enum WatcherKind: String {
    case recipe, photofiler
}

/// What one watching contender did.
struct WatcherResult {
    var seconds: Double
    var filesPerSecond: Double
    /// rename → album link, milliseconds.
    var latencies: [Double]
    /// rename → inbox copy gone (everything durable, for photofiler), milliseconds.
    var durableLatencies: [Double]
    var peakRSSKB: Int?
    /// RssAnon at the same moment: the daemon's own memory, libraries' pages left out.
    var anonymousRSSKB: Int?
    /// The sandboxed helpers' RSS and own memory (RssAnon) at the same moment, summed.
    var helperRSSKB: Int?
    var helperAnonymousRSSKB: Int?
    var helperCount: Int?
    /// CPU over the burst, microseconds a file: the daemon's own, and its helpers'
    /// (those still running and those that ended). Steadier than the rate on a shared machine.
    var daemonCPUPerFile: Double?
    var helperCPUPerFile: Double?
    var idleCPUSeconds: Double?
    var idleWakeUps: Int?
    /// From the burst's last album link until no thumbnail is pending.
    var thumbnailSeconds: Double?
    /// From the last drop's thumbnails until no helper is left (nil: one still ran).
    var helpersEndedSeconds: Double?
    /// photofiler: one more file once the helpers are gone and the idle time is
    /// measured, rename → inbox copy gone, milliseconds: it waits for a helper's start.
    var coldDurableLatency: Double?
}

struct WatcherRun {
    let kind: WatcherKind
    let work: String
    let workload: Workload
    let burst: ArraySlice<Picture>
    let drops: ArraySlice<Picture>
    let photofiler: String
    let idleSeconds: Double
    /// photofiler only: false starts it with `PHOTOFILER_THUMBNAILS=off`, the burst's
    /// baseline, and times the burst alone.
    var thumbnails = true
    /// photofiler only: times the burst and stops (a round after the first, `BurstRound`).
    var burstOnly = false

    var folderName: String {
        (thumbnails ? kind.rawValue : "\(kind.rawValue)-no-thumbnails") + (burstOnly ? "-burst" : "")
    }

    func run() throws -> WatcherResult {
        let root = "\(work)/\(folderName)"
        let library = "\(root)/library"
        let inboxes = Workload.inboxNames.map { "\(root)/inboxes/\($0)" }
        for inbox in inboxes { try makeDirectories(inbox) }
        let staged = try workload.stage(into: "\(root)/staging", pictures: burst)
        let stagedDrops = try workload.stage(into: "\(root)/staging-drops", pictures: drops)

        let child: Child
        switch kind {
        case .recipe: child = try startRecipe(root: root, library: library, inboxes: inboxes)
        case .photofiler: child = try startPhotofiler(root: root, library: library, inboxes: inboxes)
        }
        defer { child.stop() }

        let watch = try LinkWatch(albums: "\(library)/Albums", inboxes: inboxes)
        defer { watch.stop() }

        // The burst: every file dropped by rename as fast as possible.
        let cpuBefore = kind == .photofiler ? CPUSample.read(daemon: child.pid) : nil
        let start = now()
        for (path, picture) in staged {
            try check(rename(path, "\(inboxes[picture.inbox])/\(picture.name)"), "rename", path)
        }
        let names = burst.map(\.name)
        guard let end = watch.waitForAll(names, timeout: 900) else {
            throw BenchFailure(
                "\(kind.rawValue): only \(watch.linkCount) of \(burst.count) album links appeared; see \(root)/log"
            )
        }
        let seconds = end - start
        var result = WatcherResult(
            seconds: seconds, filesPerSecond: Double(burst.count) / seconds, latencies: [],
            durableLatencies: [])
        if let before = cpuBefore, let after = CPUSample.read(daemon: child.pid) {
            result.daemonCPUPerFile = (after.daemon - before.daemon) / Double(burst.count) * 1e6
            result.helperCPUPerFile = (after.helpers - before.helpers) / Double(burst.count) * 1e6
        }
        if kind == .photofiler, let sample = ProcessSample.read(pid: child.pid) {
            result.peakRSSKB = sample.peakRSSKB
            result.anonymousRSSKB = sample.anonymousRSSKB
            let helpers = ProcessSample.children(of: child.pid, named: "photofiler-help").compactMap {
                ProcessSample.read(pid: $0)
            }
            result.helperCount = helpers.count
            result.helperRSSKB = helpers.reduce(0) { $0 + $1.rssKB }
            result.helperAnonymousRSSKB = helpers.reduce(0) { $0 + $1.anonymousRSSKB }
            guard thumbnails, !burstOnly else { return result }
            result.thumbnailSeconds = try ThumbnailBurst.waitForThumbnails(
                library: library, photofiler: photofiler, timeout: 1800)
        }

        // Latency: one file at a time on an idle watcher. photofiler keeps the last
        // one for after the idle time, when its helpers have ended.
        /// Drops one file and waits for it: rename → link and rename → durable, ms.
        func drop(_ path: String, _ picture: Picture) throws -> (link: Double, durable: Double) {
            let dropped = now()
            try check(rename(path, "\(inboxes[picture.inbox])/\(picture.name)"), "rename", path)
            guard watch.waitForAll([picture.name], timeout: 30) != nil,
                let link = watch.linkTime(picture.name), let gone = watch.goneTime(picture.name)
            else {
                throw BenchFailure(
                    "\(kind.rawValue): '\(picture.name)' was not filed within 30 s; see \(root)/log")
            }
            return ((link - dropped) * 1000, (max(link, gone) - dropped) * 1000)
        }
        let coldDrop = kind == .photofiler ? stagedDrops.last : nil
        for (path, picture) in coldDrop == nil ? stagedDrops[...] : stagedDrops.dropLast() {
            usleep(5_000)  // spacing between drops, so each one finds the watcher idle
            let latency = try drop(path, picture)
            result.latencies.append(latency.link)
            result.durableLatencies.append(latency.durable)
        }

        if kind == .photofiler {
            // Idle means the thumbnail queue done and the helpers gone too.
            _ = try ThumbnailBurst.waitForThumbnails(library: library, photofiler: photofiler, timeout: 120)
            result.helpersEndedSeconds = ThumbnailBurst.waitForHelpersToEnd(daemon: child.pid, timeout: 90)
        }
        if kind == .photofiler, idleSeconds > 0 {
            usleep(300_000)  // let the last log line and status update go out
            if let before = ProcessSample.read(pid: child.pid) {
                usleep(UInt32(idleSeconds * 1_000_000))
                if let after = ProcessSample.read(pid: child.pid) {
                    result.idleCPUSeconds = after.cpuSeconds - before.cpuSeconds
                    result.idleWakeUps = after.wakeUps(since: before)
                }
            }
        }
        if let (path, picture) = coldDrop, result.helpersEndedSeconds != nil {
            result.coldDurableLatency = try drop(path, picture).durable
        }
        return result
    }

    private func startPhotofiler(root: String, library: String, inboxes: [String]) throws -> Child {
        let socket = try NotifySocket(path: "\(root)/notify.sock")
        // Desktop thumbnails off, as for vipsthumbnail (it makes none), and never in the
        // user's own cache.
        let configuration = "\(root)/photofiler.conf"
        try "[library]\ndesktop-thumbnails = false\n".write(
            toFile: configuration, atomically: true, encoding: .utf8)
        var environment = ["NOTIFY_SOCKET": socket.path, "XDG_CACHE_HOME": "\(root)/cache"]
        if !thumbnails { environment["PHOTOFILER_THUMBNAILS"] = "off" }
        var arguments = ["watch", "--config", configuration, "--library", library, "--settle", "0"]
        for (name, inbox) in zip(Workload.inboxNames, inboxes) {
            arguments += ["--inbox", "\(name)=\(inbox)"]
        }
        let child = try Child(
            photofiler, arguments, environment: environment, log: "\(root)/log")
        guard socket.wait(for: "READY=1", timeout: 60, alive: { child.isRunning }) else {
            child.stop()
            throw BenchFailure("photofiler did not send READY=1; see \(root)/log")
        }
        socket.drainInBackground()
        child.keepAlive = socket
        return child
    }

    /// The recipe a user would write: inotifywait piped into a bash loop of `mv` and `ln`.
    private func startRecipe(root: String, library: String, inboxes: [String]) throws -> Child {
        let script = "\(root)/recipe.sh"
        try Self.recipe.write(toFile: script, atomically: true, encoding: .utf8)
        var arguments = ["bash", script, library]
        for (name, inbox) in zip(Workload.inboxNames, inboxes) { arguments.append("\(name)=\(inbox)") }
        // The pipeline runs in its own process group, stopped as one.
        let child = try Child("/bin/bash", Array(arguments.dropFirst()), log: "\(root)/log")
        let deadline = now() + 30
        while now() < deadline {
            if let text = try? String(contentsOfFile: "\(root)/log", encoding: .utf8),
                text.contains("Watches established")
            {
                return child
            }
            usleep(5_000)  // start-up only, before anything is timed
        }
        child.stop()
        throw BenchFailure("the recipe's inotifywait did not start; see \(root)/log")
    }

    static let recipe = #"""
        #!/bin/bash
        # The do-it-yourself recipe: file each new picture into Roll/YYYY/MM (by mtime)
        # and hard-link it into the album named after its inbox.
        # usage: recipe.sh LIBRARY NAME=INBOX...
        lib=$1; shift
        declare -A album
        dirs=()
        for spec in "$@"; do
            name=${spec%%=*}; dir=${spec#*=}
            album[$dir/]=$name; dirs+=("$dir")
            mkdir -p "$lib/Albums/$name"
        done
        inotifywait -m -r -e close_write,moved_to --format '%w|%f' "${dirs[@]}" |
        while IFS='|' read -r dir name; do
            a=${album[$dir]}
            d="$lib/Roll/$(date -r "$dir$name" +%Y/%m)"
            [[ -d $d ]] || mkdir -p "$d"
            mv -n "$dir$name" "$d/$name" && ln "$d/$name" "$lib/Albums/$a/$name"
        done
        """#
}

/// The CPU seconds a daemon and its helpers have used so far.
private struct CPUSample {
    var daemon: Double
    var helpers: Double

    static func read(daemon pid: Int32) -> CPUSample? {
        guard let sample = ProcessSample.read(pid: pid) else { return nil }
        let running = ProcessSample.children(of: pid, named: "photofiler-help").compactMap {
            ProcessSample.read(pid: $0)?.cpuSeconds
        }
        return CPUSample(
            daemon: sample.cpuSeconds, helpers: running.reduce(sample.endedChildrenCPUSeconds, +))
    }
}
