/// Progress through a large start-up backlog (files that arrived while the daemon
/// was down): count, rate and time left, at most one line per `interval`.
///
/// Pure: it is given the time, so it is tested without a clock. A line a second on a
/// terminal, one every ten seconds in a journal (plain lines either way).
package struct BacklogProgress {
    /// Backlogs smaller than this are filed without progress lines.
    package static let threshold = 300

    package let total: Int
    package let interval: Double
    private let started: Double
    private var lastReport: Double
    package private(set) var done = 0

    package init(total: Int, interval: Double, now: Double) {
        self.total = total
        self.interval = interval
        started = now
        lastReport = now
    }

    package var isComplete: Bool { done >= total }

    /// Counts `count` more files handled; a line to log when one is due.
    package mutating func advance(by count: Int, now: Double) -> String? {
        done = min(total, done + count)
        guard isComplete || now - lastReport >= interval else { return nil }
        lastReport = now
        let elapsed = max(now - started, 0.001)
        let rate = Double(done) / elapsed
        if isComplete {
            return
                "Start-up backlog done: \(total) file(s) in \(Self.seconds(elapsed)) (\(Int(rate.rounded())) files/s)."
        }
        let left = rate > 0 ? Double(total - done) / rate : 0
        return
            "Start-up backlog: \(done) of \(total) file(s), \(Int(rate.rounded())) files/s, about \(Self.seconds(left)) left."
    }

    private static func seconds(_ value: Double) -> String {
        value < 10 ? "\(Double(Int(value * 10)) / 10) s" : "\(Int(value.rounded())) s"
    }
}
