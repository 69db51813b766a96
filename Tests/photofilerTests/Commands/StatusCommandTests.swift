import Foundation
import Glibc
import PhotoFilerDaemon
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler status`: the lock says whether a daemon runs, the state file it
/// publishes says what it is doing, the catalog gives the counts.
@Suite struct StatusCommandTests {
    /// `status --json --library LIBRARY` as an object, with its exit status.
    func status(_ library: BytePath) throws -> (status: Int32, json: [String: Any]) {
        let result = try Binary.run([BytePath("status"), BytePath("--json"), BytePath("--library"), library])
        let json = try #require(try result.json() as? [String: Any], "\(result.stdout)\(result.stderr)")
        return (result.status, json)
    }

    static let watchLimit: Int? = {
        guard let bytes = try? readFile("/proc/sys/fs/inotify/max_user_watches") else { return nil }
        return Int(String(decoding: bytes, as: UTF8.self).filter(\.isNumber))
    }()

    @Test func withoutADaemonItExits3WithTheLibraryCounts() throws {
        let library = try TestLibrary()
        try library.save([Fixtures.corpus("throbber.gif"), Fixtures.corpus("DNG.dng")], album: "QQ")
        let (code, json) = try status(library.root)
        #expect(code == 3)
        #expect(json["running"] as? Bool == false)
        #expect(json["pid"] is NSNull)
        #expect(json["since"] is NSNull)
        #expect(json["lastError"] is NSNull)
        #expect((json["inboxes"] as? [Any])?.isEmpty == true)
        #expect(json["assets"] as? Int == 2)
        #expect(json["albums"] as? Int == 1)
        #expect(json["thumbnailsPending"] as? Int == 0)
        #expect(json["version"] as? String == PhotoFilerVersion.current)
        let watches = try #require(json["watches"] as? [String: Any])
        #expect(watches["used"] as? Int == 0)
        #expect(watches["limit"] as? Int == Self.watchLimit)
        let text = try library.run("status")
        #expect(text.status == 3)
        #expect(text.stdout.contains("no daemon is running"), "\(text.stdout)")
    }

    /// A lock file that cannot be opened is "could not look", never "no daemon":
    /// one sentence naming it, exit 1, not 3.
    @Test func aLockFileThatCannotBeOpenedIsAnErrorNotNotRunning() throws {
        let library = try TestLibrary()
        try library.save([Fixtures.corpus("throbber.gif")], album: "QQ")
        let lock = library.root.appending(".photofiler/daemon.lock")
        try Sys.unlinkIfPresent(lock)
        try Sys.symbolicLink(target: "elsewhere", at: lock)  // opened with O_NOFOLLOW: ELOOP
        let result = try library.run("status")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("daemon.lock"), "\(result.stderr)")
    }

    @Test func aRunningDaemonShowsItsPidInboxesAndWaitingFiles() throws {
        let scene = try DaemonScene()
        // A long settle keeps a dropped file waiting for as long as the test looks.
        let daemon = try scene.start(["--settle", "600000"], inboxes: ["QQ", "WeChat"])
        let before = Date().timeIntervalSince1970
        var (code, json) = try status(scene.library)
        #expect(code == 0)
        #expect(json["running"] as? Bool == true)
        #expect(json["pid"] as? Int == Int(daemon.pid))
        #expect(json["version"] as? String == PhotoFilerVersion.current)
        let since = try #require(json["since"] as? String)
        #expect(
            ISO8601DateFormatter().date(from: since).map { $0.timeIntervalSince1970 <= before + 1 } == true)
        var inboxes = try #require(json["inboxes"] as? [[String: Any]])
        #expect(inboxes.map { $0["name"] as? String } == ["QQ", "WeChat"])
        #expect(
            inboxes.map { $0["path"] as? String } == [
                scene.inbox("QQ").display, scene.inbox("WeChat").display,
            ])
        #expect(inboxes.allSatisfy { $0["state"] as? String == "watching" && $0["waiting"] as? Int == 0 })
        let watches = try #require(json["watches"] as? [String: Any])
        #expect((watches["used"] as? Int ?? 0) >= 4, "Roll, Albums and two inboxes")

        try scene.dropByRename(
            Pictures.uniqueJPEG(1, tag: "status"), as: "a.jpg", into: scene.inbox("WeChat"))
        let waiting = try waitUntil(timeout: 10) {
            let inboxes = try status(scene.library).json["inboxes"] as? [[String: Any]] ?? []
            return inboxes.map { $0["waiting"] as? Int } == [0, 1]
        }
        #expect(waiting, "\(daemon.log)")

        TemporaryFolder.removeTree(scene.inbox("QQ"))
        let missing = try waitUntil(timeout: 10) {
            let inboxes = try status(scene.library).json["inboxes"] as? [[String: Any]] ?? []
            return inboxes.first?["state"] as? String == "missing"
        }
        #expect(missing, "\(daemon.log)")

        #expect(daemon.terminate() == 0)
        (code, json) = try status(scene.library)
        #expect(code == 3)
        #expect(json["running"] as? Bool == false)
        inboxes = try #require(json["inboxes"] as? [[String: Any]])
        #expect(inboxes.isEmpty)
        #expect(try Sys.statusIfExists(scene.library.appending(".photofiler/daemon-state.json")) == nil)
    }

    @Test func aStateFileLeftByACrashIsNotARunningDaemon() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start()
        daemon.process.signal(SIGKILL)
        daemon.process.wait()
        #expect(try Sys.statusIfExists(scene.library.appending(".photofiler/daemon-state.json")) != nil)
        let (code, json) = try status(scene.library)
        #expect(code == 3)
        #expect(json["running"] as? Bool == false)
        #expect(json["pid"] is NSNull)
    }

    @Test func versionIsOneLineFromOnePlaceAndInTheReadyLine() throws {
        let result = try Binary.run("--version")
        #expect(result.status == 0)
        #expect(result.stdout == "photofiler \(PhotoFilerVersion.current)\n")
        #expect(PhotoFilerVersion.current.split(separator: ".").count == 3)
        let scene = try DaemonScene()
        let daemon = try scene.start()
        #expect(
            daemon.logLines(containing: "Ready").first?.contains("photofiler \(PhotoFilerVersion.current)")
                == true)
        #expect(daemon.terminate() == 0)
    }

    @Test(arguments: ["watch", "save", "albums", "list", "info", "rm", "restore", "check", "status"])
    func helpCommandIsCommandHelp(command: String) throws {
        let alias = try Binary.run("help", command)
        let flag = try Binary.run(command, "--help")
        #expect(alias.status == 0)
        #expect(alias.stdout == flag.stdout)
        #expect(alias.stdout.hasPrefix("usage: photofiler \(command)"))
    }
}
