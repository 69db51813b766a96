import Foundation

/// Every figure of one run, and how it is shown.
struct Report {
    var machine: Machine
    var files: Int
    var drops: Int
    var assets: Int
    var floorSeconds: Double
    var floorDurableSeconds: Double
    var recipe: WatcherResult
    var photofiler: WatcherResult
    /// The same burst with `PHOTOFILER_THUMBNAILS=off`.
    var photofilerWithoutThumbnails: WatcherResult
    /// The burst's rounds, the first being `floorSeconds`, `photofiler` and
    /// `photofilerWithoutThumbnails`: the burst's rows are their medians.
    var rounds: [BurstRound]
    /// `vipsthumbnail` making the burst's two sizes on every core.
    var thumbnailFloorSeconds: Double
    var startUp: LargeLibrary.StartUp
    var listSeconds: Double
    var galleryPageSeconds: Double

    /// The rounds' median floor and bursts, and each ratio's median and worst round.
    var floorRate: Double { percentile(rounds.map(\.floorRate), 50) }
    var burstRate: Double { percentile(rounds.map(\.withThumbnails), 50) }
    var burstRateWithoutThumbnails: Double { percentile(rounds.map(\.withoutThumbnails), 50) }
    var versusFloor: (median: Double, worst: Double) { medianAndWorst(rounds.map(\.versusFloor)) }
    var thumbnailsOnOverOff: (median: Double, worst: Double) {
        medianAndWorst(rounds.map(\.thumbnailsOnOverOff))
    }
    var floorDurableRate: Double { Double(files) / floorDurableSeconds }

    struct Row {
        var figure: String
        var floor: String = ""
        var floorDurable: String = ""
        var recipe: String = ""
        var photofiler: String
        var versusFloor: String = ""
        var versusRecipe: String = ""
        var target: String
        var met: Bool
    }

    var rows: [Row] {
        let p = photofiler
        let r = recipe
        let burst = burstRate
        let worstBurst = rounds.map(\.withThumbnails).min() ?? .nan
        let (floorRatio, worstFloorRatio) = versusFloor
        let onOverOff = thumbnailsOnOverOff.median
        let median = rounds.count > 1 ? ", median of \(rounds.count) rounds" : ""
        /// The worst round beside a median, when there are rounds.
        func worst(_ text: String) -> String { rounds.count > 1 ? " (worst round \(text))" : "" }
        let p50 = percentile(p.durableLatencies, 50), p99 = percentile(p.durableLatencies, 99)
        let rssMB = Double(p.peakRSSKB ?? 0) / 1024
        return [
            Row(
                figure: "burst of \(files) files, files/s\(median)", floor: f0(floorRate),
                floorDurable: f0(floorDurableRate),
                recipe: f0(r.filesPerSecond), photofiler: f0(burst),
                versusFloor:
                    "\(f2(floorRatio))×\(worst(f2(worstFloorRatio) + "×")) / \(f2(burst / floorDurableRate))×",
                versusRecipe:
                    "\(f1(burst / r.filesPerSecond))×\(worst(f1(worstBurst / r.filesPerSecond) + "×"))",
                target: "≥ 0.5× floor, ≥ 30× recipe",
                met: floorRatio >= 0.5 && burst >= 30 * r.filesPerSecond),
            Row(
                figure: "burst with thumbnails on ÷ off, files/s\(median)",
                photofiler: rounds.count > 1
                    ? "\(f2(onOverOff))× (rounds \(rounds.map { f2($0.thumbnailsOnOverOff) + "×" }.joined(separator: ", ")))"
                    : "\(f0(burst)) ÷ \(f0(burstRateWithoutThumbnails)) = \(f2(onOverOff))×",
                target: "≥ 0.9×",
                met: onOverOff >= 0.9),
            Row(
                figure:
                    "thumbnails (1024 + 256 px) of the burst done, s after it (vipsthumbnail on every core)",
                floor: f1(thumbnailFloorSeconds), photofiler: f1(p.thumbnailSeconds ?? .nan),
                versusFloor: String(format: "%.2f×", (p.thumbnailSeconds ?? .nan) / thumbnailFloorSeconds),
                target: "≤ 2× vipsthumbnail",
                met: (p.thumbnailSeconds ?? .infinity) <= 2 * thumbnailFloorSeconds),
            Row(
                figure: "latency p50, ms (rename → link / durable)", recipe: f2(percentile(r.latencies, 50)),
                photofiler: "\(f2(percentile(p.latencies, 50))) / \(f2(p50))",
                versusRecipe: String(format: "%.2f×", p50 / percentile(r.latencies, 50)),
                target: "≤ 3 ms durable",
                met: p50 <= 3),
            Row(
                figure: "latency p99, ms (rename → link / durable)", recipe: f2(percentile(r.latencies, 99)),
                photofiler: "\(f2(percentile(p.latencies, 99))) / \(f2(p99))",
                versusRecipe: String(format: "%.2f×", p99 / percentile(r.latencies, 99)),
                target: "≤ 10 ms durable",
                met: p99 <= 10),
            Row(
                figure: "first file after idle (its helper starts), ms durable",
                photofiler: p.coldDurableLatency.map(f2) ?? "not measured", target: "reported", met: true),
            Row(
                figure: "idle CPU over \(Int(idleSeconds)) s, s (wake-ups)",
                photofiler: "\(f2(p.idleCPUSeconds ?? .nan)) (\(p.idleWakeUps ?? -1))",
                target: "0 s, 0 wake-ups",
                met: (p.idleCPUSeconds ?? 1) == 0 && (p.idleWakeUps ?? 1) == 0),
            Row(
                figure: "helpers gone after the last thumbnail, s",
                photofiler: p.helpersEndedSeconds.map(f1) ?? "still running after 90",
                target: "none left after the idle minute", met: p.helpersEndedSeconds != nil),
            Row(
                figure: "CPU during the burst, µs a file: daemon (its helpers)",
                photofiler: "\(f0(p.daemonCPUPerFile ?? .nan)) (\(f0(p.helperCPUPerFile ?? .nan)))",
                target: "reported", met: true),
            Row(
                figure: "peak RSS after the burst, MB (own memory: RssAnon)",
                photofiler: "\(f1(rssMB)) (\(f1(Double(p.anonymousRSSKB ?? 0) / 1024)))", target: "≤ 40 MB",
                met: rssMB <= 40),
            Row(
                figure: "sandboxed helpers after the burst: count, RSS MB (own memory: RssAnon)",
                photofiler:
                    "\(p.helperCount ?? 0), \(f1(Double(p.helperRSSKB ?? 0) / 1024)) (\(f1(Double(p.helperAnonymousRSSKB ?? 0) / 1024)))",
                target: "reported", met: true),
            Row(
                figure: "start-up to READY, \(assets) assets, s", photofiler: f2(startUp.seconds),
                target: "≤ 1 s",
                met: startUp.seconds <= 1),
            Row(
                figure: "RSS at READY, \(assets) assets, MB (peak; own memory)",
                photofiler:
                    "\(f1(Double(startUp.rssKB) / 1024)) (\(f1(Double(startUp.peakRSSKB) / 1024)); \(f1(Double(startUp.anonymousRSSKB) / 1024)))",
                target: "≤ 60 MB", met: Double(startUp.peakRSSKB) / 1024 <= 60),
            Row(
                figure: "list --album --limit 100 --json, \(assets) assets, ms (median of 5, warm)",
                photofiler: f1(listSeconds * 1000),
                target: "≤ 50 ms", met: listSeconds <= 0.05),
            Row(
                figure:
                    "serve: GET /api/assets?album=QQ&limit=100, \(assets) assets, ms (median of 21, warm)",
                photofiler: f1(galleryPageSeconds * 1000),
                target: "≤ 20 ms", met: galleryPageSeconds <= 0.02),
        ]
    }

    var idleSeconds: Double = 10

    var markdown: String {
        var lines = [
            "| figure | floor | floor, fsync | recipe | photofiler | photofiler / floor (no fsync / fsync) | photofiler / recipe | target | met |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | :---: |",
        ]
        for row in rows {
            lines.append(
                "| \(row.figure) | \(row.floor) | \(row.floorDurable) | \(row.recipe) | \(row.photofiler) | \(row.versusFloor) | \(row.versusRecipe) | \(row.target) | \(row.met ? "yes" : "**no**") |"
            )
        }
        lines.append("")
        lines.append(
            "Machine: \(machine.cpus) CPUs (\(machine.cpuModel)), \(machine.memoryGB) GB, \(machine.kernel). "
                + "Latency: \(drops) single drops on an idle watcher; \"durable\" is until the inbox copy is removed."
        )
        if rounds.count > 1 {
            lines.append("")
            lines.append(
                "Bursts: \(rounds.count) rounds, each the floor (no fsync) and photofiler's bursts with and without "
                    + "thumbnails back to back (the recipe and the fsync floor once); the burst rows are the rounds' "
                    + "medians, each ratio's worst round beside it (a ratio is the median of the rounds' ratios, "
                    + "not the ratio of the medians). Rounds: "
                    + rounds.map {
                        String(
                            format: "%.0f / %.0f / %.0f", $0.floorRate, $0.withThumbnails,
                            $0.withoutThumbnails)
                    }
                    .joined(separator: "; ") + " files/s (floor / on / off).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: [String: Any] {
        func watcher(_ w: WatcherResult) -> [String: Any] {
            var object: [String: Any] = ["seconds": w.seconds, "filesPerSecond": w.filesPerSecond]
            if !w.latencies.isEmpty {  // the baseline without thumbnails times the burst alone
                object["latencyMs"] = [
                    "p50": percentile(w.latencies, 50), "p99": percentile(w.latencies, 99),
                ]
                object["durableLatencyMs"] = [
                    "p50": percentile(w.durableLatencies, 50), "p99": percentile(w.durableLatencies, 99),
                ]
            }
            if let rss = w.peakRSSKB { object["peakRSSKB"] = rss }
            if let rss = w.helperRSSKB { object["helperRSSKB"] = rss }
            if let own = w.anonymousRSSKB { object["anonymousRSSKB"] = own }
            if let cpu = w.idleCPUSeconds { object["idleCPUSeconds"] = cpu }
            if let cpu = w.daemonCPUPerFile { object["daemonCPUMicrosecondsPerFile"] = cpu }
            if let cpu = w.helperCPUPerFile { object["helperCPUMicrosecondsPerFile"] = cpu }
            if let wakeUps = w.idleWakeUps { object["idleWakeUps"] = wakeUps }
            return object
        }
        return [
            "date": ISO8601DateFormatter().string(from: Date()),
            "machine": [
                "cpus": machine.cpus, "cpuModel": machine.cpuModel, "kernel": machine.kernel,
                "memoryGB": machine.memoryGB,
            ],
            "files": files, "drops": drops, "assets": assets,
            "floor": ["seconds": floorSeconds, "filesPerSecond": Double(files) / floorSeconds],
            "floorFsync": ["seconds": floorDurableSeconds, "filesPerSecond": floorDurableRate],
            "recipe": watcher(recipe),
            "photofiler": watcher(photofiler),
            "photofilerWithoutThumbnails": watcher(photofilerWithoutThumbnails),
            "thumbnails": [
                "secondsAfterBurst": photofiler.thumbnailSeconds ?? -1,
                "vipsthumbnailSeconds": thumbnailFloorSeconds,
                "helpersEndedSeconds": photofiler.helpersEndedSeconds ?? -1,
            ],
            "coldDurableMs": photofiler.coldDurableLatency ?? -1,
            "largeLibrary": [
                "startUpSeconds": startUp.seconds, "rssKB": startUp.rssKB, "peakRSSKB": startUp.peakRSSKB,
                "anonymousRSSKB": startUp.anonymousRSSKB,
                "listSeconds": listSeconds,
                "galleryPageSeconds": galleryPageSeconds,
            ],
            "rounds": rounds.map {
                [
                    "floorFilesPerSecond": $0.floorRate, "filesPerSecond": $0.withThumbnails,
                    "withoutThumbnailsFilesPerSecond": $0.withoutThumbnails,
                ]
            },
            "ratios": [
                "photofilerOverFloor": versusFloor.median,
                "photofilerOverFloorWorstRound": versusFloor.worst,
                "photofilerOverFloorFsync": burstRate / floorDurableRate,
                "photofilerOverRecipe": burstRate / recipe.filesPerSecond,
                "thumbnailsOnOverOff": thumbnailsOnOverOff.median,
                "thumbnailsOnOverOffWorstRound": thumbnailsOnOverOff.worst,
            ],
            "targetsMet": Dictionary(uniqueKeysWithValues: rows.map { ($0.figure, $0.met) }),
        ]
    }

    /// A histogram of single-file latencies (rename → album link), photofiler against the recipe.
    var latencySVG: String {
        let binWidth = 0.5
        let top = max(20.0, (percentile(recipe.latencies, 99) / binWidth).rounded(.up) * binWidth)
        let bins = Int(top / binWidth) + 1  // the last bin holds everything above `top`
        func histogram(_ values: [Double]) -> [Int] {
            var counts = [Int](repeating: 0, count: bins)
            for value in values { counts[min(Int(value / binWidth), bins - 1)] += 1 }
            return counts
        }
        let series = [
            ("photofiler (durable)", histogram(photofiler.durableLatencies), "#2b7bb9"),
            ("inotifywait + mv + ln recipe", histogram(recipe.latencies), "#d9822b"),
        ]
        let maxCount = max(series.flatMap(\.1).max() ?? 1, 1)
        let width = 720.0, height = 320.0, left = 50.0, bottom = 40.0, topMargin = 40.0
        let plotWidth = width - left - 20, plotHeight = height - bottom - topMargin
        let slot = plotWidth / Double(bins)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="20" font-size="14">Single-file latency, \(drops) drops on an idle watcher (ms, bins of \(binWidth) ms)</text>

            """
        for (index, (name, counts, colour)) in series.enumerated() {
            for (bin, count) in counts.enumerated() where count > 0 {
                let barHeight = plotHeight * Double(count) / Double(maxCount)
                let x = left + Double(bin) * slot + Double(index) * slot / 2
                svg += String(
                    format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%@\"/>\n", x,
                    topMargin + plotHeight - barHeight, slot / 2, barHeight, colour)
            }
            svg += String(
                format:
                    "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" height=\"12\" fill=\"%@\"/><text x=\"%.0f\" y=\"%.0f\">%@</text>\n",
                width - 260, topMargin + Double(index) * 18, colour, width - 242,
                topMargin + 10 + Double(index) * 18, name)
        }
        let axisY = topMargin + plotHeight
        svg +=
            "<line x1=\"\(left)\" y1=\"\(axisY)\" x2=\"\(left + plotWidth)\" y2=\"\(axisY)\" stroke=\"black\"/>\n"
        svg += "<line x1=\"\(left)\" y1=\"\(topMargin)\" x2=\"\(left)\" y2=\"\(axisY)\" stroke=\"black\"/>\n"
        var tick = 0.0
        while tick <= top {
            let x = left + tick / binWidth * slot
            svg += String(
                format: "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.0f</text>\n", x, axisY + 16,
                tick)
            tick += top > 40 ? 10 : 2
        }
        svg += String(
            format: "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">≥%.0f</text>\n", left + plotWidth,
            axisY + 32, top)
        svg += "<text x=\"\(left - 8)\" y=\"\(topMargin + 4)\" text-anchor=\"end\">\(maxCount)</text>\n"
        svg += "<text x=\"\(left - 8)\" y=\"\(axisY)\" text-anchor=\"end\">0</text>\n"
        svg += "</svg>\n"
        return svg
    }

    func write(to folder: String) throws {
        try makeDirectories(folder)
        let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: "\(folder)/latest.json"))
        try markdown.write(toFile: "\(folder)/latest.md", atomically: true, encoding: .utf8)
        try latencySVG.write(toFile: "\(folder)/latency.svg", atomically: true, encoding: .utf8)
    }
}

/// One round of the burst: the floor and photofiler's bursts, back to back.
struct BurstRound {
    var floorRate: Double
    var withThumbnails: Double
    var withoutThumbnails: Double

    var versusFloor: Double { withThumbnails / floorRate }
    var thumbnailsOnOverOff: Double { withThumbnails / withoutThumbnails }
}

/// The median of ratios where more is better, and the lowest.
private func medianAndWorst(_ ratios: [Double]) -> (median: Double, worst: Double) {
    (percentile(ratios, 50), ratios.min() ?? .nan)
}

private func f0(_ value: Double) -> String { String(format: "%.0f", value) }
private func f1(_ value: Double) -> String { String(format: "%.1f", value) }
private func f2(_ value: Double) -> String { String(format: "%.2f", value) }
