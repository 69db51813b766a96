#if DEBUG
    import Glibc
    import Synchronization

    /// Crash points for the durability tests, and failing looks for the tests of
    /// what could not be looked at (debug builds only; compiled out of release builds).
    ///
    /// `PHOTOFILER_CRASH_AT=before:K` (or `after:K`) makes the process `_exit(86)`
    /// right before (or after) its K-th mutating system call: every open for
    /// writing, write, fsync, fdatasync, rename, link, symlink, unlink, mkdir and SQLite
    /// commit goes through `Sys`, which calls `FaultInjection.mutating`. A test
    /// raises K by one until the work completes, so every crash point is covered,
    /// or draws K from a seed; `count` crashes nowhere and prints the number of
    /// calls at exit, so that a draw covers the whole run; `trace` crashes nowhere
    /// and prints a line as each call starts and one as it returns, so that a test
    /// can see the order of the durable steps, whichever thread made them.
    package enum FaultInjection {
        package enum Moment: Sendable { case before, after }

        /// What `PHOTOFILER_CRASH_AT` asks for, read once.
        private enum Plan {
            case crash(Moment, at: Int)
            case count
            case trace
        }

        private static let plan: Plan? = {
            guard let raw = getenv("PHOTOFILER_CRASH_AT") else { return nil }
            let text = String(cString: raw)
            if text == "count" {
                // A calibration run: crash nowhere, say at exit how many calls there were
                // (`exit` runs this; `Sys.exitNow` calls `reportCount` itself).
                atexit { FaultInjection.reportCount() }
                return .count
            }
            if text == "trace" { return .trace }
            let parts = text.split(separator: ":")
            guard parts.count == 2, let index = Int(parts[1]), index > 0 else { return nil }
            switch parts[0] {
            case "before": return .crash(.before, at: index)
            case "after": return .crash(.after, at: index)
            default: return nil
            }
        }()

        private static let counter = Atomic<Int>(0)

        /// Whether a test counts this process's mutating calls (a crash walk, a count, a
        /// trace): their number must then be the same from run to run, so work that
        /// would spread over threads in any order (the thumbnails) keeps to one.
        package static var countsCalls: Bool { plan != nil }

        /// In a `count` run, prints how many mutating calls there were (once).
        package static func reportCount() {
            guard case .count = plan, !reported.exchange(true, ordering: .relaxed) else { return }
            say("\(counter.load(ordering: .relaxed)) mutating calls")
        }

        private static let reported = Atomic<Bool>(false)

        /// The exit status of a planned crash, so a test can tell it from a real failure.
        package static let crashStatus: CInt = 86

        /// Runs one mutating call, crashing before or after it (whether it failed or not) when planned.
        @inline(__always)
        package static func mutating<R, E: Error>(_ call: StaticString, _ body: () throws(E) -> R) throws(E)
            -> R
        {
            guard let plan else { return try body() }
            let index = counter.add(1, ordering: .relaxed).newValue
            if case .crash(.before, index) = plan { crash(call, index) }
            if case .trace = plan { say("call \(index) starts (\(call))") }
            defer { if case .trace = plan { say("call \(index) returned (\(call))") } }
            // After a call that failed too: a failure is a step of its own (a link into a
            // folder not made yet, then the folder, then the link again), and a run must
            // not end at the first one as if the work were done.
            let result = Result { () throws(E) in try body() }
            if case .crash(.after, index) = plan { crash(call, index) }
            return try result.get()
        }

        /// `PHOTOFILER_FAIL_PATH=[CALL:]ERRNO:TEXT` (CALL `stat` or `open`, both when left
        /// out; ERRNO one of EACCES, EPERM, EIO): every such call on a path whose bytes
        /// contain TEXT fails with that errno, as under a folder without permission, on a
        /// file that may not be read, or on a failing disk. The tests of "could not look
        /// is never gone" use it: they may run as root, whom permissions do not stop.
        private static let failingPath: (call: String?, errno: Errno, text: [UInt8])? = {
            guard let raw = getenv("PHOTOFILER_FAIL_PATH") else { return nil }
            var parts = String(cString: raw).split(
                separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            let call = parts.count == 3 ? String(parts.removeFirst()) : nil
            let codes: [Substring: CInt] = ["EACCES": EACCES, "EPERM": EPERM, "EIO": EIO]
            guard parts.count == 2, call == nil || call == "stat" || call == "open",
                let code = codes[parts[0]],
                !parts[1].isEmpty
            else { return nil }
            return (call, Errno(rawValue: code), Array(parts[1].utf8))
        }()

        /// Fails a call that looks at `path` (`stat`, `open`) when `PHOTOFILER_FAIL_PATH` says so.
        @inline(__always)
        package static func looking(_ call: String, _ path: BytePath) throws(SystemError) {
            guard let failingPath, failingPath.call == nil || failingPath.call == call else { return }
            let bytes = path.bytes
            let text = failingPath.text
            guard bytes.count >= text.count else { return }
            for start in 0...(bytes.count - text.count)
            where bytes[start..<(start + text.count)].elementsEqual(text) {
                throw SystemError(failingPath.errno, call: call, path: path)
            }
        }

        private static func crash(_ call: StaticString, _ index: Int) -> Never {
            say("crash at mutating call \(index) (\(call))")
            _exit(crashStatus)
        }

        /// One line on stderr, written whole (one `write`), whichever thread says it.
        private static func say(_ text: String) {
            let line = "photofiler: fault injection: \(text)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
    }
#else
    /// Release builds have no crash points: the call runs as it is.
    package enum FaultInjection {
        package static var countsCalls: Bool { false }

        @inline(__always)
        package static func mutating<R, E: Error>(_ call: StaticString, _ body: () throws(E) -> R) throws(E)
            -> R
        {
            try body()
        }

        /// Release builds fail no call on purpose.
        @inline(__always)
        package static func looking(_ call: String, _ path: BytePath) throws(SystemError) {}
    }
#endif
