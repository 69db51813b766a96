import Glibc
import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// The filing queue with a fake clock: each step happens at a time in
/// milliseconds, and the test holds the queue to what it must do then.
@Suite struct FilingQueueTests {
    static let a: BytePath = "/in/QQ/a.jpg"
    static let b: BytePath = "/in/QQ/b.jpg"
    static let c: BytePath = "/in/QQ/c.jpg"

    static func ns(_ ms: Int) -> UInt64 { UInt64(ms) * 1_000_000 }
    static func request(_ path: BytePath) -> FilingRequest {
        FilingRequest(
            source: path, album: try! AlbumName(validating: "QQ"), origin: "QQ", mode: .move, link: .hard)
    }
    static func fingerprint(_ path: BytePath, size: Int64 = 10) -> FileFingerprint {
        FileFingerprint(path: path, size: size)
    }

    /// A queue with settle 300 ms and groups of two; every path is in an inbox.
    struct Harness {
        var queue = FilingQueue(settle: FilingQueueTests.ns(300), groupSize: 2)

        mutating func at(_ ms: Int, _ event: FilingQueue.Event) -> [FilingQueue.Action] {
            queue.handle(event, at: FilingQueueTests.ns(ms)) { FilingQueueTests.request($0) }
        }

        /// The paths sent out to be inspected at `ms`, if any (a group's order is
        /// the order they settled in, which is not asserted for equal deadlines).
        mutating func inspected(at ms: Int) -> Set<BytePath> {
            Set(
                at(ms, .tick).flatMap { action -> [BytePath] in
                    if case .inspect(let group) = action { return group.map(\.source) }
                    return []
                })
        }

        /// Files the group that is out, each path with its outcome; returns the actions.
        mutating func file(at ms: Int, _ outcomes: [BytePath: FilingOutcome]) -> [FilingQueue.Action] {
            let back = at(ms, .inspected)
            guard case .file(let group) = back.last else {
                Issue.record("no group came back: \(back)")
                return []
            }
            #expect(Set(group.map(\.source)) == Set(outcomes.keys))
            return back.dropLast() + at(ms, .filed(group.map { ($0, outcomes[$0.source]!) }))
        }
    }

    static func logs(_ actions: [FilingQueue.Action], _ level: LogLevel) -> [String] {
        actions.compactMap {
            if case .log(let l, let line) = $0, l == level { return line }
            return nil
        }
    }

    @Test func aCandidateIsInspectedOnceItHasSettled() {
        var h = Harness()
        #expect(h.at(0, .watched([.closedWrite(Self.a)])).isEmpty)
        #expect(h.queue.nextDeadline == Self.ns(300))
        #expect(h.inspected(at: 299).isEmpty)
        #expect(h.inspected(at: 300) == [Self.a])
        #expect(h.queue.nextDeadline == nil)
        #expect(h.queue.waitingCount == 0)
    }

    @Test func aWriteAfterTheCloseStartsOver() {
        var h = Harness()
        _ = h.at(0, .watched([.closedWrite(Self.a)]))
        _ = h.at(100, .watched([.modified(Self.a)]))
        #expect(h.queue.nextDeadline == nil, "a writer holds it: nothing is due, however long it pauses")
        #expect(h.inspected(at: 5000).isEmpty)
        _ = h.at(5000, .watched([.closedWrite(Self.a)]))
        #expect(h.inspected(at: 5300) == [Self.a])
    }

    @Test func groupsGoOutOneAtATimeAndTheNextIsInspectedWhileOneIsFiled() {
        var h = Harness()
        _ = h.at(0, .found([Self.a, Self.b, Self.c]))
        #expect(h.inspected(at: 300).count == 2, "a group of two; the third waits")
        #expect(h.inspected(at: 301).isEmpty, "one group out at a time")
        #expect(h.queue.waitingCount == 1)
        let back = h.at(302, .inspected)
        guard back.count == 2, case .inspect(let next) = back[0], case .file(let filed) = back[1] else {
            Issue.record("expected the next group out, then the first filed: \(back)")
            return
        }
        #expect(next.count == 1)
        #expect(Set((next + filed).map(\.source)) == [Self.a, Self.b, Self.c])
    }

    /// A file that settled and waits behind a group, written again before its turn:
    /// it is not sent out while its writer holds it, only once it settles anew.
    @Test func aWaitingFileWrittenAgainWaitsToSettleAnew() throws {
        var h = Harness()
        _ = h.at(0, .found([Self.a, Self.b, Self.c]))
        let first = h.inspected(at: 300)
        let waiting = try #require(Set([Self.a, Self.b, Self.c]).subtracting(first).first)
        _ = h.at(400, .watched([.modified(waiting)]))
        let filed = h.file(at: 500, Dictionary(uniqueKeysWithValues: first.map { ($0, .alreadySeen) }))
        let sentOut = filed.contains {
            if case .inspect = $0 { return true }
            return false
        }
        #expect(!sentOut, "its writer holds it")
        #expect(h.inspected(at: 600).isEmpty)
        _ = h.at(5000, .watched([.closedWrite(waiting)]))
        #expect(h.inspected(at: 5299).isEmpty)
        #expect(h.inspected(at: 5300) == [waiting])
    }

    /// Dropped paths leave filing with nothing in hand: the thumbnails, held while
    /// they waited, are told they may go on.
    @Test func pathsWithoutARequestAreDropped() {
        var queue = FilingQueue(settle: 0, groupSize: 2)
        _ = queue.handle(.found([Self.a, Self.b]), at: 0) { _ in nil }
        #expect(queue.handle(.tick, at: 0) { _ in nil } == [.makeThumbnails([], filingBusy: false)])
        #expect(queue.waitingCount == 0)
        #expect(queue.handle(.tick, at: 1) { _ in nil } == [], "said once")
    }

    @Test func aRefusedFileIsReportedOnceUntilItChanges() {
        var h = Harness()
        let refusal = FilingError.media(.notMedia(path: Self.a, detected: "text/plain"))
        for (ms, size, expected) in [(0, 10, 1), (1000, 10, 0), (2000, 11, 1)] {
            _ = h.at(ms, .found([Self.a]))
            #expect(h.inspected(at: ms + 300) == [Self.a])
            let actions = h.file(
                at: ms + 301, [Self.a: .failed(refusal, Self.fingerprint(Self.a, size: Int64(size)))])
            #expect(Self.logs(actions, .error).count == expected, "at \(ms) ms, size \(size)")
            #expect(actions.contains(.recordError(refusal.description)))
        }
    }

    /// The same file refused for another reason is said again (a disk not mounted, then
    /// mounted and on another disk than the library's): the first sentence's fix was done.
    @Test func aRefusedFileIsReportedAgainForAnotherReason() {
        var h = Harness()
        let away = FilingError.diskNotMounted(path: Self.a, folder: "/library/Roll/2022")
        let otherDisk = FilingError.rollFolderOnAnotherDisk(path: Self.a, folder: "/library/Roll/2022")
        for (ms, refusal, expected) in [
            (0, away, 1), (1000, away, 0), (2000, otherDisk, 1), (3000, otherDisk, 0),
        ] {
            _ = h.at(ms, .found([Self.a]))
            #expect(h.inspected(at: ms + 300) == [Self.a])
            let actions = h.file(at: ms + 301, [Self.a: .failed(refusal, Self.fingerprint(Self.a))])
            #expect(Self.logs(actions, .error).count == expected, "at \(ms) ms")
        }
    }

    /// A new refusal is stored for the next run; it goes once its path is filed
    /// (or gone), so a later refusal there is reported again.
    @Test func aReportedRefusalIsStoredUntilItsPathIsFiled() {
        var h = Harness()
        let refusal = FilingError.media(.notMedia(path: Self.a, detected: "text/plain"))
        let steps: [(ms: Int, outcome: FilingOutcome, expected: [FilingQueue.Action])] = [
            (0, .failed(refusal, Self.fingerprint(Self.a)), [.rememberRefusal(Self.fingerprint(Self.a))]),
            (1000, .failed(refusal, Self.fingerprint(Self.a)), []),
            (2000, .failed(refusal, Self.fingerprint(Self.a, size: -1)), []),
            (3000, .filed(id: 7, rollPath: "/lib/Roll/a.jpg"), [.forgetRefusals([Self.a])]),
            (4000, .failed(refusal, Self.fingerprint(Self.a)), [.rememberRefusal(Self.fingerprint(Self.a))]),
            (
                5000, .failed(.vanished(path: Self.a), Self.fingerprint(Self.a, size: -1)),
                [.forgetRefusals([Self.a])]
            ),
        ]
        for step in steps {
            _ = h.at(step.ms, .found([Self.a]))
            #expect(h.inspected(at: step.ms + 300) == [Self.a])
            let stored = h.file(at: step.ms + 301, [Self.a: step.outcome]).filter {
                switch $0 {
                case .rememberRefusal, .forgetRefusals: return true
                default: return false
                }
            }
            #expect(stored == step.expected, "at \(step.ms) ms")
        }
    }

    /// Start-up hands over the refusals an earlier run stored: the same file found
    /// by the catch-up is not reported again; one of another size is.
    @Test func aFileRefusedBeforeARestartIsNotReportedAgain() {
        var h = Harness()
        _ = h.at(0, .refusedBefore([Self.fingerprint(Self.a), Self.fingerprint(Self.b)]))
        let refusal = FilingError.media(.notMedia(path: Self.a, detected: "text/plain"))
        _ = h.at(0, .found([Self.a, Self.b]))
        #expect(h.inspected(at: 300) == [Self.a, Self.b])
        let changed = FilingError.media(.notMedia(path: Self.b, detected: "text/plain"))
        let actions = h.file(
            at: 301,
            [
                Self.a: .failed(refusal, Self.fingerprint(Self.a)),
                Self.b: .failed(changed, Self.fingerprint(Self.b, size: 11)),
            ])
        #expect(Self.logs(actions, .error) == [changed.description])
        #expect(actions.contains(.rememberRefusal(Self.fingerprint(Self.b, size: 11))))
        #expect(!actions.contains(.rememberRefusal(Self.fingerprint(Self.a))))
    }

    /// The refusal's message asks for read access: the `chmod` that gives it is an
    /// attribute change, and the refused file is tried again for it (said no second
    /// time while it still fails). Another file's attribute change is no candidate.
    @Test func aRefusedFileIsTriedAgainWhenItsPermissionsChange() {
        var h = Harness()
        let denied = FilingError.permissionDenied(path: Self.a, call: "open", library: nil)
        _ = h.at(0, .found([Self.a]))
        #expect(h.inspected(at: 300) == [Self.a])
        _ = h.file(at: 301, [Self.a: .failed(denied, Self.fingerprint(Self.a))])
        _ = h.at(1000, .watched([.attributesChanged(Self.b)]))
        #expect(h.queue.nextDeadline == nil, "a file never refused is not a candidate for a chmod")

        _ = h.at(2000, .watched([.attributesChanged(Self.a)]))
        #expect(h.inspected(at: 2300) == [Self.a])
        let again = h.file(at: 2301, [Self.a: .failed(denied, Self.fingerprint(Self.a))])
        #expect(Self.logs(again, .error).isEmpty, "still refused: said once")

        _ = h.at(3000, .watched([.attributesChanged(Self.a)]))
        #expect(h.inspected(at: 3300) == [Self.a])
        let filed = h.file(at: 3301, [Self.a: .filed(id: 7, rollPath: "/lib/Roll/a.jpg")])
        #expect(filed.contains(.forgetRefusals([Self.a])))
        _ = h.at(4000, .watched([.attributesChanged(Self.a)]))
        #expect(h.queue.nextDeadline == nil, "filed: no longer refused")
    }

    @Test(arguments: [
        MediaError.readerFailed(path: FilingQueueTests.a, what: "crashed (SIGSEGV)"),
        MediaError.readerTimedOut(path: FilingQueueTests.a, seconds: 10),
    ])
    func aHelperThatCrashesOrHangsCostsOnlyThatFileAndIsReportedOnce(_ error: MediaError) {
        var h = Harness()
        _ = h.at(0, .found([Self.a, Self.b]))
        #expect(h.inspected(at: 300) == [Self.a, Self.b])
        let first = h.file(
            at: 301,
            [
                Self.a: .failed(.media(error), Self.fingerprint(Self.a)),
                Self.b: .filed(id: 7, rollPath: "/lib/Roll/b.jpg"),
            ])
        #expect(Self.logs(first, .error) == [error.description])
        #expect(Self.logs(first, .info) == ["Filed '\(Self.b)' → '/lib/Roll/b.jpg' (album QQ)."])
        #expect(first.contains(.makeThumbnails([7], filingBusy: false)))
        // The same file again (a rescan finds it): filed never, said never again.
        _ = h.at(1000, .found([Self.a]))
        #expect(h.inspected(at: 1300) == [Self.a])
        #expect(
            Self.logs(h.file(at: 1301, [Self.a: .failed(.media(error), Self.fingerprint(Self.a))]), .error)
                == [])
    }

    @Test func aShortageHoldsTheWorkSaysSoOnceAndRetries() {
        var h = Harness()
        let full = FilingError.outOfSpace(path: Self.a, library: "/lib")
        _ = h.at(0, .found([Self.a]))
        #expect(h.inspected(at: 300) == [Self.a])
        let first = h.file(at: 301, [Self.a: .failed(full, Self.fingerprint(Self.a))])
        #expect(Self.logs(first, .error) == [full.description])
        #expect(h.queue.waitingCount == 1, "kept, not dropped")
        _ = h.at(400, .found([Self.b]))
        #expect(h.inspected(at: 700).isEmpty, "held until the retry")
        #expect(h.queue.nextDeadline == Self.ns(301) + FilingQueue.retryDelay)
        #expect(
            h.inspected(at: 5301) == [Self.a, Self.b], "the kept file and the one that settled meanwhile")
        let second = h.file(
            at: 5302,
            [
                Self.a: .failed(full, Self.fingerprint(Self.a)),
                Self.b: .failed(full, Self.fingerprint(Self.b)),
            ])
        #expect(Self.logs(second, .error) == [], "still full: not said again")
        #expect(h.inspected(at: 10302) == [Self.a, Self.b])
        _ = h.file(
            at: 10303,
            [
                Self.a: .filed(id: 1, rollPath: "/lib/Roll/a.jpg"),
                Self.b: .failed(full, Self.fingerprint(Self.b)),
            ])
        #expect(h.inspected(at: 15303) == [Self.b])
        let third = h.file(at: 15304, [Self.b: .failed(full, Self.fingerprint(Self.b))])
        #expect(
            Self.logs(third, .error) == [full.description],
            "room came back in between: a new shortage is said anew")
    }

    @Test func aFileThatChangedWhileFilingSettlesAgain() {
        var h = Harness()
        _ = h.at(0, .found([Self.a]))
        #expect(h.inspected(at: 300) == [Self.a])
        let actions = h.file(
            at: 301, [Self.a: .failed(.changedWhileFiling(path: Self.a), Self.fingerprint(Self.a))])
        #expect(Self.logs(actions, .error) == [])
        #expect(h.inspected(at: 600).isEmpty)
        #expect(h.inspected(at: 601) == [Self.a])
    }

    @Test func placeholdersAndVanishedFilesAreNoErrors() {
        var h = Harness()
        _ = h.at(0, .found([Self.a, Self.b]))
        #expect(h.inspected(at: 300).count == 2)
        let actions = h.file(
            at: 301,
            [
                Self.a: .failed(.media(.empty(path: Self.a)), Self.fingerprint(Self.a)),
                Self.b: .failed(.vanished(path: Self.b), Self.fingerprint(Self.b)),
            ])
        #expect(Self.logs(actions, .error) == [])
        #expect(!actions.contains { if case .recordError = $0 { return true } else { return false } })
    }

    @Test func afterStopNothingGoesOutAndWhatComesBackIsNotFiled() {
        var h = Harness()
        _ = h.at(0, .found([Self.a, Self.b, Self.c]))
        #expect(h.inspected(at: 300).count == 2)
        _ = h.at(310, .stop)
        #expect(h.queue.unfiledCount == 3, "the group out is not filed either: all three are left")
        #expect(h.at(320, .inspected) == [.discardInspected])
        #expect(h.inspected(at: 400).isEmpty)
        #expect(h.queue.nextDeadline == nil)
        #expect(h.queue.waitingCount == 1, "left for the next start")
    }

    @Test func aBacklogReportsProgressAndTheEnd() {
        var h = Harness()
        _ = h.at(0, .backlog(files: 2, interval: 1))
        _ = h.at(0, .found([Self.a, Self.b]))
        #expect(h.inspected(at: 300).count == 2)
        let actions = h.file(
            at: 2300,
            [
                Self.a: .filed(id: 1, rollPath: "/r/a"),
                Self.b: .duplicate(id: 1, rollPath: "/r/a", joinedAlbum: false),
            ])
        #expect(Self.logs(actions, .info).contains { $0.hasPrefix("Start-up backlog done: 2 file(s)") })
        #expect(actions.last == .announceStatus, "all done: systemd hears the status line")
        #expect(h.queue.filedCount == 1, "a duplicate is no filed file")
    }
}
