import Glibc
import Testing

@testable import PhotoFilerSystem

@Suite struct LoggerTests {
    @Test func plainLinesAndLevels() {
        let (logger, sink) = Logger.collecting(minimumLevel: .info)
        logger.debug("hidden")
        logger.info("filed /in/a.jpg → Roll/2023/12/a.jpg (QQ)")
        logger.warning("slow disk")
        logger.error("two\nlines")
        #expect(
            sink.lines == [
                "photofiler: filed /in/a.jpg → Roll/2023/12/a.jpg (QQ)",
                "photofiler: warning: slow disk",
                "photofiler: error: two\\nlines",
            ])
    }

    @Test func verboseShowsDebugAndSkipsWorkOtherwise() {
        let (verbose, sink) = Logger.collecting(minimumLevel: .debug)
        verbose.debug("details")
        #expect(sink.lines == ["photofiler: debug: details"])
        let (quiet, _) = Logger.collecting(minimumLevel: .info)
        var evaluated = false
        quiet.debug(
            {
                evaluated = true; return "x"
            }())
        #expect(!evaluated)
    }

    /// A group's lines go to the sink in one call, in order, without the disabled ones.
    @Test func aBatchIsHandedToTheSinkAtOnce() {
        final class BatchSink: LogSink, @unchecked Sendable {
            // Written only with the logger's lock held, read after.
            var batches: [[String]] = []
            func write(_ line: String) { batches.append([line]) }
            func write(lines: [String]) { batches.append(lines) }
        }
        let sink = BatchSink()
        let logger = Logger(minimumLevel: .info, format: .plain, sink: sink)
        logger.log([(.info, "a"), (.debug, "hidden"), (.error, "b"), (.info, "c\nd")])
        logger.log([(.debug, "nothing enabled")])
        #expect(sink.batches == [["photofiler: a", "photofiler: error: b", "photofiler: c\\nd"]])
        // Each level keeps its own prefix within a batch.
        let journal = BatchSink()
        Logger(
            minimumLevel: .info, format: LogFormat(timestamps: false, journalPriorities: true), sink: journal
        )
        .log([(.info, "a"), (.error, "b"), (.info, "c")])
        #expect(journal.batches == [["<6>photofiler: a", "<3>photofiler: error: b", "<6>photofiler: c"]])
    }

    @Test func journalFormatHasPrioritiesAndNoTimestamp() {
        let format = LogFormat(timestamps: false, journalPriorities: true)
        #expect(format.lines(level: .error, message: "m", time: timespec()) == ["<3>photofiler: error: m"])
        #expect(format.lines(level: .info, message: "m", time: timespec()) == ["<6>photofiler: m"])
    }

    @Test func terminalFormatHasAnISOTimestamp() {
        let format = LogFormat(timestamps: true, journalPriorities: false)
        let line = format.lines(
            level: .info, message: "ready", time: timespec(tv_sec: 1_701_428_096, tv_nsec: 5_000_000))[0]
        // 2023-12-01T…, zone of the machine: check the shape, not the zone.
        let pattern = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.005[+-]\d{2}:\d{2} photofiler: ready$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test func journalStreamOnlyWhenItIsStderr() {
        // A JOURNAL_STREAM that is not this stderr (inherited by a child) is ignored.
        let format = LogFormat.forStandardError(environment: ["JOURNAL_STREAM": "1:1"])
        #expect(format.timestamps)
        #expect(!format.journalPriorities)
    }
}
