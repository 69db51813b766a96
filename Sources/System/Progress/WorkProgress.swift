/// Progress through a known amount of work (files to file, roll files to hash):
/// count, rate and time left, due at most once per `interval` and once at the end.
///
/// Pure: it is given the time, so it is tested without a clock. The daemon logs its
/// start-up backlog with it; `save` and `check` draw it as a bar on a terminal.
public struct WorkProgress: Sendable {
    public let total: Int
    public let interval: Double
    private let started: Double
    private var lastReport: Double
    public private(set) var done = 0
    /// Whether a report was due before the end: the work was long enough to show.
    public private(set) var reportedEarly = false

    public init(total: Int, interval: Double, now: Double) {
        self.total = total
        self.interval = interval
        started = now
        lastReport = now
    }

    public var isComplete: Bool { done >= total }

    /// What one report says.
    public struct Snapshot: Sendable, Equatable {
        public var done: Int
        public var total: Int
        /// Seconds since the start.
        public var elapsed: Double
        /// Done per second so far.
        public var rate: Double
        /// At the rate so far.
        public var secondsLeft: Double
        public var isComplete: Bool { done >= total }
    }

    /// Counts `count` more done; a snapshot when a report is due.
    public mutating func advance(by count: Int, now: Double) -> Snapshot? {
        done = min(total, done + count)
        guard isComplete || now - lastReport >= interval else { return nil }
        if !isComplete { reportedEarly = true }
        lastReport = now
        let elapsed = max(now - started, 0.001)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        return Snapshot(done: done, total: total, elapsed: elapsed, rate: rate, secondsLeft: left)
    }
}

extension WorkProgress.Snapshot {
    /// One plain line, for a log or a journal: "Start-up backlog: 128 of 1000 file(s),
    /// 128 files/s, about 6.8 s left.", and at the end "… done: 1000 file(s) in 2.0 s (500 files/s)."
    public func line(_ what: String, unit: String = "file") -> String {
        let rate = "\(Int(self.rate.rounded())) \(unit)s/s"
        if isComplete {
            return "\(what) done: \(total) \(unit)(s) in \(Self.seconds(elapsed)) (\(rate))."
        }
        return "\(what): \(done) of \(total) \(unit)(s), \(rate), about \(Self.seconds(secondsLeft)) left."
    }

    /// One line for a terminal, redrawn in place:
    /// "Saving [########----------------]  128/1000  128 files/s  0:07 left".
    public func bar(_ what: String, unit: String = "file", width: Int = 24) -> String {
        let filled = total > 0 ? min(width, done * width / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = "\(Int(self.rate.rounded())) \(unit)s/s"
        let time = isComplete ? "done in \(Self.clock(elapsed))" : "\(Self.clock(secondsLeft)) left"
        return "\(what) [\(bar)] \(done)/\(total)  \(rate)  \(time)"
    }

    private static func seconds(_ value: Double) -> String {
        value < 10 ? "\(Double(Int(value * 10)) / 10) s" : "\(Int(value.rounded())) s"
    }

    /// m:ss, or h:mm:ss from an hour.
    private static func clock(_ value: Double) -> String {
        let total = Int(value.rounded(.up))
        let (hours, minutes, seconds) = (total / 3600, (total % 3600) / 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }
}
