import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem
@testable import PhotoFilerWatching

/// The inbox supervisor against a fake watcher: the test plays the shell, feeding
/// back what each `.watch` came to, and holds the supervisor to its actions.
@Suite struct InboxSupervisorTests {
    static let qq: BytePath = "/home/ann/QQ"
    static let weibo: BytePath = "/home/ann/Weibo"

    static func inbox(_ name: String, _ path: BytePath, keep: Bool? = nil) -> InboxConfiguration {
        InboxConfiguration(name: try! AlbumName(validating: name), path: path, keep: keep)
    }

    static func supervisor(_ inboxes: [InboxConfiguration] = [inbox("QQ", qq)]) -> InboxSupervisor {
        var configuration = Configuration()
        configuration.inboxes = inboxes
        var supervisor = InboxSupervisor(configuration: configuration)
        let actions = supervisor.handle(.add(inboxes))
        #expect(actions == inboxes.flatMap { [.makeFolder($0.path), .watch($0.path)] })
        for inbox in inboxes {
            #expect(
                supervisor.handle(.watched(inbox.path, .watching)) == [
                    .detectSyncEngine(inbox.path), .scanTree(inbox.path, announce: true),
                ])
        }
        return supervisor
    }

    @Test func candidatesSettleAndWritesAreKeptInOrder() {
        var supervisor = Self.supervisor()
        let a = Self.qq.appending("a.jpg")
        let actions = supervisor.handle(
            .watcher([.created(a), .modified(a), .closedWrite(a), .movedIn(Self.qq.appending("b.part"))]))
        #expect(actions == [.lookForContent(a), .settle([.modified(a), .closedWrite(a)])])
    }

    /// A `chmod` in an inbox goes to the settle rules, where a refused file is tried again.
    @Test func anAttributeChangeInAnInboxGoesToTheSettleRules() {
        var supervisor = Self.supervisor()
        let a = Self.qq.appending("a.jpg")
        #expect(supervisor.handle(.watcher([.attributesChanged(a)])) == [.settle([.attributesChanged(a)])])
    }

    @Test func temporaryNamesAndPathsOutsideTheInboxesAreNoCandidates() {
        var supervisor = Self.supervisor()
        let actions = supervisor.handle(
            .watcher([
                .created(Self.qq.appending("x.crdownload")), .closedWrite("/elsewhere/a.jpg"),
                .movedIn(Self.qq.appending(".hidden.jpg")), .directoryAppeared("/elsewhere/sub"),
                .attributesChanged("/elsewhere/b.jpg"), .attributesChanged(Self.qq.appending("b.tmp")),
            ]))
        #expect(actions == [.settle([])])
    }

    @Test func aNewSubFolderIsScannedWithTheBatch() {
        var supervisor = Self.supervisor()
        let sub = Self.qq.appending("2023")
        #expect(supervisor.handle(.watcher([.directoryAppeared(sub)])) == [.scanFolder(sub), .settle([])])
    }

    @Test func anOverflowSettlesWhatCameBeforeItThenRescans() {
        var supervisor = Self.supervisor()
        let a = Self.qq.appending("a.jpg")
        let b = Self.qq.appending("b.jpg")
        let actions = supervisor.handle(.watcher([.modified(a), .overflow, .closedWrite(b)]))
        guard actions.count == 4, case .log(.warning, _) = actions[0] else {
            Issue.record("\(actions)")
            return
        }
        #expect(
            Array(actions[1...]) == [
                .settle([.modified(a), .overflow]), .rescan(reason: "overflow"), .settle([.closedWrite(b)]),
            ])
        #expect(
            supervisor.handle(.rescan) == [.detectSyncEngine(Self.qq), .scanTree(Self.qq, announce: false)])
    }

    @Test func aRemovedInboxIsWatchedAgainWhenItIsMadeAgain() {
        var supervisor = Self.supervisor()
        let gone = supervisor.handle(.watcher([.directoryGone(Self.qq)]))
        #expect(gone.first == .watchParent(Self.qq))
        #expect(
            gone.contains(
                .watchIfPresent(Self.qq, then: "The inbox '\(Self.qq)' is back; watching it again.")))
        #expect(supervisor.states(waiting: []).map(\.state) == [.missing])
        // Not there yet: the rescan only looks.
        #expect(supervisor.handle(.rescan) == [.watchIfPresent(Self.qq, then: nil)])
        // Made again: its parent's watch sees it.
        let back = supervisor.handle(.watcher([.directoryAppeared(Self.qq)]))
        #expect(back.first == .watch(Self.qq))
        #expect(supervisor.handle(.watched(Self.qq, .watching)).contains(.scanTree(Self.qq, announce: true)))
        #expect(supervisor.states(waiting: []).map(\.state) == [.watching])
    }

    /// An inbox nested in a removed one (`~/Sync/Camera` in `~/Sync`) lost its watches
    /// with it: both are missing, and each is looked for again.
    @Test func anInboxNestedInARemovedOneIsMissingToo() {
        let camera = Self.qq.appending("Camera")
        var supervisor = Self.supervisor([Self.inbox("QQ", Self.qq), Self.inbox("Camera", camera)])
        let gone = supervisor.handle(.watcher([.directoryGone(Self.qq)]))
        for root in [Self.qq, camera] {
            #expect(gone.contains(.watchParent(root)), "\(gone)")
            #expect(
                gone.contains(.watchIfPresent(root, then: "The inbox '\(root)' is back; watching it again.")))
        }
        #expect(supervisor.states(waiting: []).map(\.state) == [.missing, .missing])
        #expect(supervisor.watchedRoots.isEmpty)
    }

    /// The inbox's parent went too: a folder made on the way back moves the watch
    /// down to it, and the inbox is looked for at once (`mkdir -p` makes both).
    @Test func aMissingInboxWhoseParentWentTooIsWatchedAgainOnTheWayBack() {
        var supervisor = Self.supervisor()
        _ = supervisor.handle(.watcher([.directoryGone(Self.qq)]))
        let back = "The inbox '\(Self.qq)' is back; watching it again."
        for event in [WatchEvent.created(Self.qq.parent), .directoryAppeared(Self.qq.parent)] {
            #expect(
                supervisor.handle(.watcher([event]))
                    == [.watchParent(Self.qq), .watchIfPresent(Self.qq, then: back), .settle([])], "\(event)")
        }
        #expect(supervisor.handle(.watcher([.created(BytePath("/elsewhere"))])) == [.settle([])])
    }

    @Test func aWatchLimitIsReportedWithItsSysctlAndTheInboxIsInError() {
        var supervisor = Self.supervisor([Self.inbox("QQ", Self.qq), Self.inbox("Weibo", Self.weibo)])
        let limit = WatchError.watchLimitReached(path: Self.weibo)
        let actions = supervisor.handle(.watched(Self.weibo, .failed(limit)))
        #expect(actions == [.recordError(limit.description), .log(.error, limit.description)])
        #expect(limit.description.contains("sudo sysctl fs.inotify.max_user_watches="))
        #expect(supervisor.states(waiting: []).map(\.state) == [.watching, .error])
        let missing = supervisor.handle(.watched(Self.weibo, .missing))
        #expect(missing.first == .watchParent(Self.weibo))
        // Made between the failed watch and the parent's: looked for once more, after it.
        #expect(
            missing.last
                == .watchIfPresent(
                    Self.weibo, then: "The inbox '\(Self.weibo.display)' is there now; watching it."))
        #expect(
            missing.contains {
                if case .log(.warning, let line) = $0 {
                    line.contains("'\(Self.weibo.display)' is not there")
                } else {
                    false
                }
            }, "one sentence with the path and the fix: \(missing)")
        #expect(supervisor.states(waiting: []).map(\.state) == [.watching, .missing])
    }

    /// The error says what to fix (the sysctl, a `chmod`); the next rescan or SIGHUP
    /// tries the watch again, says nothing while it fails the same way, and says
    /// once when it works.
    @Test func aFailingInboxIsTriedAgainAtEachRescanAndReload() {
        var supervisor = Self.supervisor([Self.inbox("QQ", Self.qq), Self.inbox("Weibo", Self.weibo)])
        let limit = WatchError.watchLimitReached(path: Self.weibo)
        #expect(supervisor.handle(.watched(Self.weibo, .failed(limit))).count == 2)

        #expect(
            supervisor.handle(.rescan) == [
                .detectSyncEngine(Self.qq), .scanTree(Self.qq, announce: false), .watch(Self.weibo),
            ])
        #expect(
            supervisor.handle(.watched(Self.weibo, .failed(limit))) == [
                .detectSyncEngine(Self.weibo), .scanTree(Self.weibo, announce: false),
            ], "failing as before: scanned as a rescan does, nothing said")
        let denied = WatchError.cannotWatch(SystemError(.permissionDenied, call: "opendir", path: Self.weibo))
        #expect(
            supervisor.handle(.watched(Self.weibo, .failed(denied))) == [
                .recordError(denied.description), .log(.error, denied.description),
            ], "another error is said")

        let reload = supervisor.handle(.reload(supervisor.configuration))
        #expect(reload.first == .watch(Self.weibo))
        #expect(
            supervisor.handle(.watched(Self.weibo, .watching)) == [
                .log(.info, "The inbox '\(Self.weibo.display)' is watched now."),
                .detectSyncEngine(Self.weibo), .scanTree(Self.weibo, announce: true),
            ])
        #expect(supervisor.states(waiting: []).map(\.state) == [.watching, .watching])
        #expect(!supervisor.handle(.rescan).contains(.watch(Self.weibo)))
    }

    @Test func aSyncEngineMakesTheInboxKeepItsFilesAndIsSaidOnce() {
        var supervisor = Self.supervisor()
        let a = Self.qq.appending("a.jpg")
        #expect(supervisor.request(for: a)?.mode == .move)
        let said = supervisor.handle(.syncEngine(Self.qq, .syncthing))
        #expect(said.count == 1)
        guard case .log(_, let line) = said.first else { return }
        #expect(line.contains("declare it in the config file with keep = false"), "an --inbox inbox: \(line)")
        #expect(supervisor.request(for: a)?.mode == .keep)
        #expect(supervisor.handle(.syncEngine(Self.qq, .syncthing)) == [], "said once")
    }

    /// The fix names the inbox's own group by its line (its header may not be its
    /// album's name, with `album = …`).
    @Test func aSyncEngineLineNamesTheInboxsGroupByItsLine() {
        var inbox = Self.inbox("QQ", Self.qq)
        inbox.source = .file("/home/ann/.config/photofiler/photofiler.conf", line: 7)
        var supervisor = Self.supervisor([inbox])
        let said = supervisor.handle(.syncEngine(Self.qq, .syncthing))
        guard case .log(_, let line) = said.first else {
            Issue.record("nothing said: \(said)")
            return
        }
        #expect(
            line.contains(
                "Set keep = false in its group (line 7 of the config file '/home/ann/.config/photofiler/photofiler.conf')"
            ),
            "\(line)")
    }

    @Test func requestsFollowTheDeepestInboxAndSkipHiddenFolders() {
        let nested = Self.qq.appending("Weibo")
        let supervisor = Self.supervisor([Self.inbox("QQ", Self.qq), Self.inbox("Weibo", nested)])
        #expect(supervisor.request(for: nested.appending("a.jpg"))?.album?.value == "Weibo")
        #expect(supervisor.request(for: Self.qq.appending("a.jpg"))?.album?.value == "QQ")
        #expect(supervisor.request(for: Self.qq.appending(".thumbs/a.jpg")) == nil)
        #expect(supervisor.request(for: "/elsewhere/a.jpg") == nil)
        let waiting = supervisor.states(waiting: [nested.appending("a.jpg"), Self.qq.appending("b.jpg")])
        #expect(waiting.map(\.waiting) == [1, 1])
    }

    @Test func aReloadDropsOldInboxesAndWatchesNewOnes() {
        var supervisor = Self.supervisor()
        var fresh = Configuration()
        fresh.inboxes = [Self.inbox("Weibo", Self.weibo)]
        let actions = supervisor.handle(.reload(fresh))
        #expect(
            actions == [
                .unwatch(Self.qq), .log(.info, "No longer watching the inbox '\(Self.qq)'."),
                .makeFolder(Self.weibo), .watch(Self.weibo),
                .log(.info, "Now watching the inbox '\(Self.weibo)' for the album Weibo."),
                .log(.info, "Configuration reloaded: 1 inbox(es)."),
            ])
        #expect(supervisor.request(for: Self.qq.appending("a.jpg")) == nil)
    }
}
