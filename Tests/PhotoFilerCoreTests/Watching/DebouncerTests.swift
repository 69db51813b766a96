import Testing

@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// Table-driven tests with a fake clock: each step happens at a time in
/// milliseconds, and `.due` steps say exactly which paths come due then.
@Suite struct DebouncerTests {
    enum Step: Sendable, CustomStringConvertible {
        case event(Int, WatchEvent)
        case found(Int, BytePath)
        /// Found while the watcher had events unread, after this many complete reads.
        case foundUnread(Int, BytePath, after: UInt64)
        /// The watcher's events are in, through this many complete reads.
        case read(Int, UInt64)
        case due(Int, [BytePath])

        var description: String {
            switch self {
            case .event(let ms, let event): return "\(ms) ms: \(event)"
            case .found(let ms, let path): return "\(ms) ms: found \(path)"
            case .foundUnread(let ms, let path, let reads):
                return "\(ms) ms: found \(path) after read \(reads)"
            case .read(let ms, let reads): return "\(ms) ms: read \(reads)"
            case .due(let ms, let paths): return "\(ms) ms: due \(paths)"
            }
        }
    }

    static let a: BytePath = "/in/a.jpg"
    static let b: BytePath = "/in/b.jpg"

    static func ns(_ ms: Int) -> UInt64 { UInt64(ms) * 1_000_000 }

    func run(_ steps: [Step], settleMS: Int = 300) {
        var debouncer = Debouncer(settle: Self.ns(settleMS))
        for step in steps {
            switch step {
            case .event(let ms, let event): debouncer.apply(event, at: Self.ns(ms))
            case .found(let ms, let path): debouncer.found(path, at: Self.ns(ms))
            case .foundUnread(let ms, let path, let reads):
                debouncer.found(path, at: Self.ns(ms), unreadAfter: reads)
            case .read(let ms, let reads): debouncer.eventsRead(reads, at: Self.ns(ms))
            case .due(let ms, let expected):
                let due = debouncer.due(at: Self.ns(ms))
                #expect(Set(due) == Set(expected), "\(step)")
                #expect(due.count == expected.count, "\(step): each path once")
            }
        }
    }

    static let tables: [(String, [Step])] = [
        (
            "rename in: due after settle",
            [.event(0, .movedIn(a)), .due(299, []), .due(300, [a]), .due(5000, [])]
        ),
        (
            "write, pause, write, close: nothing during the pause",
            [
                .event(0, .created(a)), .event(1, .modified(a)), .due(2000, []),
                .event(2000, .modified(a)), .event(2010, .closedWrite(a)), .due(2309, []), .due(2310, [a]),
            ]
        ),
        (
            "modify after close cancels; the next close re-arms",
            [
                .event(0, .closedWrite(a)), .event(100, .modified(a)), .due(1000, []),
                .event(1000, .closedWrite(a)), .due(1299, []), .due(1300, [a]),
            ]
        ),
        ("removed drops", [.event(0, .closedWrite(a)), .event(10, .removed(a)), .due(1000, [])]),
        ("moved out drops", [.event(0, .movedIn(a)), .event(10, .movedOut(a)), .due(1000, [])]),
        (
            "two renames over one name within the settle: one due path, from the last",
            [.event(0, .movedIn(a)), .event(200, .movedIn(a)), .due(300, []), .due(500, [a]), .due(9000, [])]
        ),
        (
            "independent paths keep their own deadlines",
            [.event(0, .movedIn(a)), .event(100, .closedWrite(b)), .due(300, [a]), .due(400, [b])]
        ),
        ("created alone is not a candidate", [.event(0, .created(a)), .due(1000, [])]),
        (
            "a scan does not arm a file still being written",
            [
                .event(0, .modified(a)), .found(10, a), .due(1000, []), .event(1000, .closedWrite(a)),
                .due(1300, [a]),
            ]
        ),
        ("a scan arms a quiet file", [.found(0, a), .due(299, []), .due(300, [a])]),
        (
            "overflow forgets writers (closes may be lost), so a rescan can arm",
            [.event(0, .modified(a)), .event(5, .overflow), .found(10, a), .due(310, [a])]
        ),
        (
            "a folder gone drops what is pending below it",
            [
                .event(0, .movedIn(a)), .event(0, .movedIn("/other/c.jpg")),
                .event(10, .directoryGone("/in")),
                .due(1000, ["/other/c.jpg"]),
            ]
        ),
        (
            "temporary names are never candidates",
            [
                .event(0, .movedIn("/in/x.part")), .event(0, .closedWrite("/in/y.crdownload")),
                .event(0, .movedIn("/in/.hidden.jpg")), .event(0, .movedIn("/in/~lock.jpg")),
                .event(0, .movedIn("/in/z.TMP")), .event(0, .movedIn("/in/w.download")),
                .found(0, "/in/v.part"),
                .event(0, .movedIn("/in/partial.jpg")), .due(1000, ["/in/partial.jpg"]),
            ]
        ),
    ]

    @Test(arguments: tables)
    func table(_ name: String, _ steps: [Step]) {
        run(steps)
    }

    @Test func settleZeroIsDueAtOnce() {
        run([.event(5, .closedWrite(Self.a)), .due(4, []), .due(5, [Self.a])], settleMS: 0)
        run([.event(5, .modified(Self.a)), .due(5, [])], settleMS: 0)
    }

    /// A file looked at while the watcher still had events unread: at settle 0 it
    /// would be due at once, so it waits for a read that ended after the look.
    static let unreadTables: [(String, [Step])] = [
        (
            "a creation read late: the writer's first write, unread at the look, holds it",
            [
                .foundUnread(0, a, after: 3), .due(0, []), .event(1, .modified(a)), .read(1, 4), .due(1, []),
                .due(5000, []), .event(5000, .closedWrite(a)), .due(5000, [a]),
            ]
        ),
        (
            "a hard link looked at while events were unread is due once a later read is in",
            [.foundUnread(0, a, after: 3), .read(1, 3), .due(1, []), .read(2, 4), .due(2, [a]), .due(9, [])]
        ),
        (
            "a read cut short (the same count) does not arm it; the next complete one does",
            [.foundUnread(0, a, after: 3), .read(1, 3), .read(1, 3), .due(1, []), .read(2, 5), .due(2, [a])]
        ),
        (
            "removed while it waited: nothing comes due",
            [.foundUnread(0, a, after: 3), .event(1, .removed(a)), .read(1, 4), .due(10, [])]
        ),
        (
            "its folder gone while it waited: nothing comes due",
            [.foundUnread(0, a, after: 3), .event(1, .directoryGone("/in")), .read(1, 4), .due(10, [])]
        ),
        (
            "each waits for its own look: a later look waits for a later read",
            [
                .foundUnread(0, a, after: 3), .foundUnread(1, b, after: 4), .read(2, 4), .due(2, [a]),
                .read(3, 5), .due(3, [b]),
            ]
        ),
    ]

    @Test(arguments: unreadTables)
    func unreadTable(_ name: String, _ steps: [Step]) {
        run(steps, settleMS: 0)
    }

    @Test func aFileWaitingForEventsCountsAsPending() {
        var debouncer = Debouncer(settle: 0)
        debouncer.found(Self.a, at: 0, unreadAfter: 1)
        #expect(debouncer.pendingCount == 1)
        #expect(debouncer.pendingPaths == [Self.a])
        #expect(debouncer.nextDeadline == nil, "nothing to wake for: the read itself brings it")
    }

    @Test func nextDeadlineFollowsTheEarliestLivePath() {
        var debouncer = Debouncer(settle: 100)
        #expect(debouncer.nextDeadline == nil)
        debouncer.apply(.movedIn(Self.a), at: 0)
        debouncer.apply(.movedIn(Self.b), at: 50)
        #expect(debouncer.nextDeadline == 100)
        debouncer.apply(.modified(Self.a), at: 60)
        #expect(debouncer.nextDeadline == 150, "a cancelled path no longer wakes the timer")
        #expect(debouncer.due(at: 150) == [Self.b])
        #expect(debouncer.nextDeadline == nil)
    }

    @Test func hundredThousandPendingPathsDrainOnce() {
        let count = 100_000
        var debouncer = Debouncer(settle: 1_000)
        let paths = (0..<count).map { BytePath("/in/\($0).jpg") }
        for (index, path) in paths.enumerated() { debouncer.apply(.closedWrite(path), at: UInt64(index)) }
        // Re-arm every path twice: stale heap nodes must not pile up.
        for round in 1...2 {
            for path in paths { debouncer.apply(.movedIn(path), at: UInt64(count * round)) }
        }
        #expect(debouncer.pendingCount == count)
        #expect(debouncer.nextDeadline == UInt64(count * 2 + 1_000))
        #expect(debouncer.due(at: UInt64(count * 2 + 999)).isEmpty)
        let due = debouncer.due(at: .max)
        #expect(due.count == count)
        #expect(Set(due) == Set(paths))
        #expect(debouncer.pendingCount == 0)
        #expect(debouncer.nextDeadline == nil)
    }
}

@Suite struct TemporaryNameTests {
    @Test(arguments: [
        "a.part", "a.PART", "b.crdownload", "c.tmp", "d.download", ".hidden", "~$doc.jpg", "/in/sub/x.Tmp",
    ])
    func temporary(_ name: String) {
        #expect(TemporaryName.matches(BytePath(name)))
    }

    @Test(arguments: ["a.jpg", "part", "download.jpg", "tmp.png", "/in/.dir/a.jpg", "a.jpg~"])
    func notTemporary(_ name: String) {
        #expect(!TemporaryName.matches(BytePath(name)))
    }
}
