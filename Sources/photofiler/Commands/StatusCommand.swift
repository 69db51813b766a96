import Foundation
import PhotoFilerCatalog
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerSystem

/// `photofiler status`: is a daemon running on this library, and what is it doing.
struct StatusCommand: Command {
    static let name = "status"
    static let help = """
        usage: photofiler status [--library DIR] [--json]
        Says whether a daemon watches this library (pid, since when, its inboxes and the files waiting in
        them, its last error), the inotify watches it uses against fs.inotify.max_user_watches, and how many
        assets and albums the library holds. Exit 0 when a daemon runs, 3 when none does.
        """

    init(_ arguments: inout Arguments) throws(UsageError) {
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'status' takes no operands; see 'photofiler status --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        let report: StatusReport
        do {
            report = try StatusReport(library: library)
        } catch {
            context.fail(error.description)
            return 1
        }
        if context.json {
            Output.json(StatusJSON(report))
        } else {
            for line in lines(report, library: library.layout.root) { Output.line(line) }
        }
        // As `systemctl status`: 3 when the unit is not active.
        return report.running ? 0 : 3
    }

    private func lines(_ report: StatusReport, library: BytePath) -> [String] {
        var lines: [String] = []
        if report.running {
            let pid = report.pid.map { "pid \($0)" } ?? "pid unknown"
            let since = report.since.map { " since \(DateText.iso8601UTC($0))" } ?? ""
            lines.append(
                "photofiler \(report.version): a daemon is running on '\(library.display)' (\(pid))\(since).")
        } else {
            lines.append("photofiler \(report.version): no daemon is running on '\(library.display)'.")
        }
        for inbox in report.inboxes {
            lines.append(
                "  inbox \(inbox.name): '\(inbox.path)' \(inbox.state.rawValue), \(inbox.waiting) waiting")
        }
        if let error = report.lastError { lines.append("  last error: \(error)") }
        let limit = report.watchLimit.map(String.init) ?? "unknown"
        lines.append(
            "  inotify watches: \(report.watchesUsed) used of \(limit) (fs.inotify.max_user_watches)")
        lines.append(
            "  library: \(report.assets) asset(s), \(report.albums) album(s), \(report.thumbnailsPending) thumbnail(s) to make"
        )
        return lines
    }
}

/// The JSON shape of `status` (photofiler(1) JSON): absent values are `null`, not missing keys.
struct StatusJSON: Encodable {
    let report: StatusReport
    init(_ report: StatusReport) { self.report = report }

    private enum Keys: String, CodingKey {
        case running, pid, since, version, inboxes, lastError, watches, assets, albums, thumbnailsPending
    }
    private struct Watches: Encodable {
        var used: Int
        var limit: Int?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(used, forKey: .used)
            try container.encode(limit, forKey: .limit)
        }
        private enum CodingKeys: String, CodingKey { case used, limit }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(report.running, forKey: .running)
        try container.encode(report.pid, forKey: .pid)
        try container.encode(report.since.map(DateText.iso8601UTC), forKey: .since)
        try container.encode(report.version, forKey: .version)
        try container.encode(report.inboxes, forKey: .inboxes)
        try container.encode(report.lastError, forKey: .lastError)
        try container.encode(Watches(used: report.watchesUsed, limit: report.watchLimit), forKey: .watches)
        try container.encode(report.assets, forKey: .assets)
        try container.encode(report.albums, forKey: .albums)
        try container.encode(report.thumbnailsPending, forKey: .thumbnailsPending)
    }
}
