import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// The library monitor with a fake clock: tables of (time, event) and what the
/// monitor asks for at each `tick`.
@Suite struct LibraryMonitorTests {
    enum Step: Sendable, CustomStringConvertible {
        case event(Int, WatchEvent)
        case overflow(Int)
        case tick(Int, [LibraryMonitor.Action])

        var description: String {
            switch self {
            case .event(let ms, let event): return "\(ms) ms: \(event)"
            case .overflow(let ms): return "\(ms) ms: overflow"
            case .tick(let ms, let actions): return "\(ms) ms: tick → \(actions)"
            }
        }
    }

    static let layout = LibraryLayout(root: "/lib")
    static let rollA: BytePath = "/lib/Roll/2023/12/a.jpg"
    static let rollB: BytePath = "/lib/Roll/2024/01/a.jpg"
    static let qqA: BytePath = "/lib/Albums/QQ/a.jpg"
    static let weiboA: BytePath = "/lib/Albums/Weibo/a.jpg"

    static func ns(_ ms: Int) -> UInt64 { UInt64(ms) * 1_000_000 }

    func run(_ steps: [Step]) {
        var monitor = LibraryMonitor(layout: Self.layout)
        for step in steps {
            switch step {
            case .event(let ms, let event):
                #expect(monitor.owns(event), "\(step)")
                let actions = monitor.handle(.watched(event), at: Self.ns(ms))
                if case .renamed(let from, let to) = event, monitor.isMove(from: from, to: to) {
                    #expect(actions == [.recordMove(from: from, to: to)], "\(step)")
                } else {
                    #expect(actions == [], "\(step)")
                }
            case .overflow(let ms):
                #expect(monitor.handle(.overflow, at: Self.ns(ms)) == [])
            case .tick(let ms, let expected):
                #expect(monitor.handle(.tick, at: Self.ns(ms)) == expected, "\(step)")
            }
        }
        #expect(monitor.nextDeadline == nil, "nothing left waiting: idle")
    }

    static let tables: [(String, [Step])] = [
        (
            "a removal is looked at once the delay has passed",
            [.event(0, .removed(rollA)), .tick(249, []), .tick(250, [.lookAtRemoval(rollA)]), .tick(900, [])]
        ),
        (
            "removals close together are looked at together, in order",
            [
                .event(0, .removed(qqA)), .event(100, .removed(rollA)),
                .tick(250, [.lookAtRemoval(qqA), .lookAtRemoval(rollA)]),
            ]
        ),
        (
            "a roll file renamed away without its other half (out of the library, or into a folder made too recently to be watched) is looked for by a reconcile",
            [
                .event(0, .movedOut(rollA)), .tick(250, [.reconcile(reason: "roll file moved away")]),
                .tick(900, []),
            ]
        ),
        (
            "a roll file or an album entry moved to a dot name (Syncthing's .stversions/): a removal",
            [
                .event(0, .movedOut(rollA)),
                .event(0, .renamed(from: rollA, to: "/lib/Roll/.stversions/a.jpg")),
                .event(10, .movedOut(qqA)), .event(10, .renamed(from: qqA, to: "/lib/Albums/QQ/.a.jpg")),
                .tick(250, [.lookAtRemoval(qqA), .lookAtRemoval(rollA)]),
            ]
        ),
        (
            "a move within the Roll is no removal, even with its halves in two reads",
            [
                .event(0, .movedOut(rollA)), .event(200, .movedIn(rollB)),
                .event(200, .renamed(from: rollA, to: rollB)),
                .tick(250, []),
            ]
        ),
        (
            "an album entry moved into another album is a move",
            [.event(0, .movedOut(qqA)), .event(0, .renamed(from: qqA, to: weiboA)), .tick(250, [])]
        ),
        (
            "a roll file moved into an album stays the removal its first half announced",
            [
                .event(0, .movedOut(rollA)), .event(0, .renamed(from: rollA, to: qqA)),
                .tick(250, [.lookAtRemoval(rollA)]),
            ]
        ),
        (
            "a roll file moved into Recently Deleted stays a removal",
            [
                .event(0, .movedOut(rollA)),
                .event(0, .renamed(from: rollA, to: "/lib/Recently Deleted/a.jpg")),
                .tick(250, [.lookAtRemoval(rollA)]),
            ]
        ),
        (
            "the daemon's own writes (links, roll files, temporary files) ask for nothing",
            [
                .event(0, .created(rollA)), .event(0, .closedWrite("/lib/.photofiler/tmp/x")),
                .event(0, .movedIn(qqA)), .event(0, .modified(rollA)),
                .event(0, .directoryAppeared("/lib/Roll/2025")),
                .tick(1000, []),
            ]
        ),
        (
            "a folder gone, or an overflow, reconciles once",
            [
                .event(0, .directoryGone("/lib/Albums/QQ")), .overflow(10), .tick(249, []),
                .tick(250, [.reconcile(reason: "library change")]), .tick(2000, []),
            ]
        ),
    ]

    @Test(arguments: tables)
    func table(_ name: String, _ steps: [Step]) {
        run(steps)
    }

    @Test func inboxEventsAreNotTheMonitors() {
        let monitor = LibraryMonitor(layout: Self.layout)
        #expect(!monitor.owns(.closedWrite("/in/QQ/a.jpg")))
        #expect(!monitor.owns(.overflow))
        #expect(!monitor.owns(.renamed(from: "/in/a", to: "/in/b")))
        #expect(monitor.owns(.renamed(from: "/in/a", to: Self.qqA)))
    }
}
