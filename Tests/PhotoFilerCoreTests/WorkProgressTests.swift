import Testing

@testable import PhotoFilerSystem

@Suite struct WorkProgressTests {
    @Test func reportsAtMostOncePerIntervalThenOnceWhenDone() {
        var progress = WorkProgress(total: 1000, interval: 1, now: 0)
        #expect(progress.advance(by: 64, now: 0.5) == nil)
        let line = progress.advance(by: 64, now: 1.0)?.line("Start-up backlog")
        #expect(line == "Start-up backlog: 128 of 1000 file(s), 128 files/s, about 6.8 s left.")
        #expect(progress.advance(by: 64, now: 1.5) == nil)
        #expect(progress.advance(by: 800, now: 1.9) == nil)
        #expect(!progress.isComplete)
        let done = progress.advance(by: 100, now: 2.0)?.line("Start-up backlog")
        #expect(done == "Start-up backlog done: 1000 file(s) in 2.0 s (500 files/s).")
        #expect(progress.isComplete)
        #expect(progress.reportedEarly)
    }

    @Test func aBarShowsCountRateAndTimeLeft() throws {
        var progress = WorkProgress(total: 1000, interval: 0.25, now: 0)
        let first = progress.advance(by: 250, now: 2)
        let snapshot = try #require(first)
        #expect(
            snapshot.bar("Saving", width: 20)
                == "Saving [#####---------------] 250/1000  125 files/s  0:06 left")
        let last = progress.advance(by: 750, now: 80)
        let done = try #require(last)
        #expect(
            done.bar("Saving", width: 20)
                == "Saving [####################] 1000/1000  13 files/s  done in 1:20")
    }

    @Test func shortWorkIsNeverReportedEarly() {
        var progress = WorkProgress(total: 3, interval: 1, now: 0)
        #expect(progress.advance(by: 1, now: 0.1) == nil)
        #expect(progress.advance(by: 2, now: 0.2)?.isComplete == true)
        #expect(!progress.reportedEarly)
    }
}
