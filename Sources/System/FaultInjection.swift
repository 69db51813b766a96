#if DEBUG
    import Glibc
    import Synchronization

    /// Crash points for the durability tests (debug builds only; compiled out of
    /// release builds).
    ///
    /// `PHOTOFILER_CRASH_AT=before:K` (or `after:K`) makes the process `_exit(86)`
    /// right before (or after) its K-th mutating system call: every open for
    /// writing, write, fsync, rename, link, symlink, unlink, mkdir and SQLite
    /// commit goes through `Sys`, which calls `FaultInjection.mutating`. A test
    /// raises K by one until the work completes, so every crash point is covered,
    /// or draws K from a seed; `count` crashes nowhere and prints the number of
    /// calls at exit, so that a draw covers the whole run.
    package enum FaultInjection {
        package enum Moment: Sendable { case before, after }

        private static let plan: (moment: Moment, index: Int)? = {
            guard let raw = getenv("PHOTOFILER_CRASH_AT") else { return nil }
            let text = String(cString: raw)
            if text == "count" {
                // A calibration run: crash nowhere, say at exit how many calls there were
                // (`exit` runs this; `Sys.exitNow` calls `reportCount` itself).
                atexit { FaultInjection.reportCount() }
                return (.before, Int.max)
            }
            let parts = text.split(separator: ":")
            guard parts.count == 2, let index = Int(parts[1]), index > 0 else { return nil }
            switch parts[0] {
            case "before": return (.before, index)
            case "after": return (.after, index)
            default: return nil
            }
        }()

        private static let counter = Atomic<Int>(0)

        /// In a `count` run, prints how many mutating calls there were (once).
        package static func reportCount() {
            guard let plan, plan.index == Int.max, !reported.exchange(true, ordering: .relaxed) else {
                return
            }
            let line = "photofiler: fault injection: \(counter.load(ordering: .relaxed)) mutating calls\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }

        private static let reported = Atomic<Bool>(false)

        /// The exit status of a planned crash, so a test can tell it from a real failure.
        package static let crashStatus: CInt = 86

        /// Runs one mutating call, crashing before or after it when planned.
        @inline(__always)
        package static func mutating<R, E: Error>(_ call: StaticString, _ body: () throws(E) -> R) throws(E)
            -> R
        {
            guard let plan else { return try body() }
            let index = counter.add(1, ordering: .relaxed).newValue
            if plan.index == index, plan.moment == .before { crash(call, index) }
            let result = try body()
            if plan.index == index, plan.moment == .after { crash(call, index) }
            return result
        }

        private static func crash(_ call: StaticString, _ index: Int) -> Never {
            let line = "photofiler: fault injection: crash at mutating call \(index) (\(call))\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            _exit(crashStatus)
        }
    }
#else
    /// Release builds have no crash points: the call runs as it is.
    package enum FaultInjection {
        @inline(__always)
        package static func mutating<R, E: Error>(_ call: StaticString, _ body: () throws(E) -> R) throws(E)
            -> R
        {
            try body()
        }
    }
#endif
