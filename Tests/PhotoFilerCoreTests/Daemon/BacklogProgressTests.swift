import Testing

@testable import PhotoFilerDaemon

@Suite struct BacklogProgressTests {
    @Test func reportsAtMostOncePerIntervalThenOnceWhenDone() {
        var progress = BacklogProgress(total: 1000, interval: 1, now: 0)
        #expect(progress.advance(by: 64, now: 0.5) == nil)
        let line = progress.advance(by: 64, now: 1.0)
        #expect(line == "Start-up backlog: 128 of 1000 file(s), 128 files/s, about 6.8 s left.")
        #expect(progress.advance(by: 64, now: 1.5) == nil)
        #expect(progress.advance(by: 800, now: 1.9) == nil)
        #expect(!progress.isComplete)
        let done = progress.advance(by: 100, now: 2.0)
        #expect(done == "Start-up backlog done: 1000 file(s) in 2.0 s (500 files/s).")
        #expect(progress.isComplete)
    }
}
