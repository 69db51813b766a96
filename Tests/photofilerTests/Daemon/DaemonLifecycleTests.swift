import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `photofiler watch` as a service: one per library, SIGHUP re-reads the
/// config file, and a library inside an inbox is never refiled.
@Suite struct DaemonLifecycleTests {
    @Test func aSecondDaemonOnTheSameLibraryExits1NamingTheFirst() throws {
        let scene = try DaemonScene()
        let first = try scene.start(["--settle", "50"])
        let second = try Spawned(
            arguments: [
                "watch", "--library", scene.library.display, "--inbox",
                "Other=\(scene.inbox("Other").display)",
            ]
            .map { BytePath($0) }, environment: [:])
        #expect(second.wait(timeout: 20) == 1, "\(second.stderrText())")
        #expect(second.stderrText().contains("pid \(first.pid)"), "\(second.stderrText())")
        // The first one goes on filing.
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "first"), as: "a.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(first.log)")
        #expect(first.terminate() == 0)
    }

    /// An inbox that names a file is one clear error with its fix; the other inboxes are filed.
    @Test func anInboxThatIsAFileSaysSoAndTheOthersAreWatched() throws {
        let scene = try DaemonScene()
        try Sys.makeDirectories(scene.inbox().parent)
        try writeFile(scene.inbox("Odd"), Array("not a folder".utf8))
        let daemon = try scene.start(["--settle", "50"], inboxes: ["QQ", "Odd"])
        let expected = "Cannot watch '\(scene.inbox("Odd").display)': it is not a folder"
        #expect(
            daemon.log.contains(expected) && daemon.log.contains("point the inbox at a folder"),
            "\(daemon.log)")
        #expect(!daemon.log.contains("cannot be created"), "\(daemon.log)")
        #expect(daemon.log.contains("watching 1 of 2 inbox(es)"), "\(daemon.log)")
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "beside-a-file"), as: "a.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// The descriptor table is grown at start, while the daemon has one thread
    /// (a multi-threaded process waits for RCU at each growth): by READY it holds
    /// two groups' files and the rest (`Daemon.descriptorsWhenBusy`, 640 with the
    /// default 256-file groups), so the first burst never grows it.
    /// glibc reads its malloc tunables only as a process starts: the daemon starts
    /// again with photofiler's (`MallocTunables`), the same process, unless the
    /// user set that tunable, which is then left as it is.
    @Test(arguments: [nil, "glibc.malloc.tcache_count=64"])
    func theDaemonRunsWithTheMallocTunables(users: String?) throws {
        let scene = try DaemonScene()
        let daemon = try DaemonProcess(
            library: scene.library, arguments: scene.inboxArguments() + ["--settle", "50"],
            environment: users.map { ["GLIBC_TUNABLES": $0] } ?? [:])
        defer { daemon.terminate() }
        let environment = try readFile(BytePath("/proc/\(daemon.pid)/environ")).split(separator: 0).map {
            String(decoding: $0, as: UTF8.self)
        }
        let tunables = environment.filter { $0.hasPrefix("GLIBC_TUNABLES=") }
        #expect(tunables == ["GLIBC_TUNABLES=\(users ?? MallocTunables.setting)"], "\(tunables)")
        // Started again, it is the process that was started: it answers as the daemon.
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "tunables"), as: "a.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum(count: 1, timeout: 30), "\(daemon.log)")
    }

    @Test func theDescriptorTableIsGrownBeforeTheFirstBurst() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "50"])
        let status = String(decoding: try readFile(BytePath("/proc/\(daemon.pid)/status")), as: UTF8.self)
        let size = status.split(separator: "\n").first { $0.hasPrefix("FDSize:") }.flatMap {
            Int($0.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces))
        }
        #expect((size ?? 0) >= 640, "\(status)")
        #expect(daemon.terminate() == 0)
    }

    /// Under a limit of 512 descriptors (a container, a `LimitNOFILE=512`), a group
    /// holds a quarter of it open (128 files, the next group's as many): a burst of
    /// 400 files is filed whole, without one "Too many open files".
    @Test func aBurstUnderALowDescriptorLimitIsFiledWhole() throws {
        let scene = try DaemonScene()
        let daemon = try DaemonProcess(
            library: scene.library, arguments: scene.inboxArguments() + ["--settle", "20"],
            launcher: ["/usr/bin/prlimit", "--nofile=512:512", "--"])
        #expect(try Self.openFileLimits(of: daemon.pid) == ["512", "512"])
        for index in 0..<400 {
            try writeFile(
                scene.staging.appending("f\(index).jpg"), Pictures.uniqueJPEG(index, tag: "low-limit"))
        }
        for index in 0..<400 {
            try Sys.rename(
                scene.staging.appending("f\(index).jpg"), to: scene.inbox().appending("f\(index).jpg"))
        }
        #expect(scene.waitForAlbum(count: 400, timeout: 120), "\(daemon.log.suffix(2000))")
        #expect(!daemon.log.contains("Too many open files"), "\(daemon.log.suffix(2000))")
        #expect(daemon.terminate() == 0)
        #expect(scene.contents.rollFiles().count == 400)
    }

    /// The soft and hard limits of the "Max open files" line of `/proc/PID/limits`.
    static func openFileLimits(of pid: pid_t) throws -> [Substring] {
        let limits = String(decoding: try readFile(BytePath("/proc/\(pid)/limits")), as: UTF8.self)
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        return Array(line.dropFirst("Max open files".count).split(separator: " ").prefix(2))
    }

    /// SIGHUP after an inbox is added to the config file: the new inbox is
    /// watched. A bad file on SIGHUP is logged and the running configuration
    /// stays, both inboxes still filing.
    @Test func sighupReReadsTheConfigFile() throws {
        let scene = try DaemonScene()
        let config = scene.folder.file("photofiler.conf")
        let qq = scene.inbox("QQ")
        let weibo = scene.inbox("Weibo")
        try scene.folder.write("[library]\nsettle = 50\n\n[inbox QQ]\npath = \(qq.display)\n", to: config)
        let daemon = try scene.start(["--config", config.display], inboxes: [])
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "hup"), as: "q0.jpg", into: qq)
        #expect(scene.waitForAlbum("QQ", count: 1), "\(daemon.log)")

        try scene.folder.write(
            "[library]\nsettle = 50\n\n[inbox QQ]\npath = \(qq.display)\n\n[inbox Weibo]\npath = \(weibo.display)\n",
            to: config)
        daemon.process.signal(SIGHUP)
        // systemd's reload protocol: RELOADING=1, then READY=1 again.
        #expect(
            daemon.waitForMessages(timeout: 20) { $0.filter { $0 == "READY=1" }.count >= 2 }, "\(daemon.log)")
        #expect(daemon.messages.contains("RELOADING=1"))
        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "hup"), as: "w1.jpg", into: weibo)
        #expect(scene.waitForAlbum("Weibo", count: 1), "\(daemon.log)")

        try scene.folder.write("[library]\nsettle = fast\n\n[inbox QQ]\npath = \(qq.display)\n", to: config)
        daemon.process.signal(SIGHUP)
        #expect(
            daemon.waitForMessages(timeout: 20) { $0.filter { $0 == "READY=1" }.count >= 3 }, "\(daemon.log)")
        let refusal = daemon.logLines(containing: "The configuration was not reloaded")
        #expect(refusal.count == 1, "\(daemon.log)")
        #expect(refusal.first?.contains(config.display) == true, "the message names the file: \(refusal)")
        #expect(
            refusal.first?.lowercased().contains("line 2") == true, "the message names the line: \(refusal)")
        try scene.dropByRename(Pictures.uniqueJPEG(2, tag: "hup"), as: "q2.jpg", into: qq)
        try scene.dropByRename(Pictures.uniqueJPEG(3, tag: "hup"), as: "w3.jpg", into: weibo)
        #expect(scene.waitForAlbum("QQ", count: 2), "\(daemon.log)")
        #expect(scene.waitForAlbum("Weibo", count: 2), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// An inbox inside the library could file nothing (the library is never inbox
    /// content): it is refused at start-up, exit 2, with the fix.
    @Test func anInboxInsideTheLibraryIsRefused() throws {
        let scene = try DaemonScene()
        let inside = scene.library.appending("Roll")
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "R=\(inside.display)"], waitForReady: false)
        #expect(daemon.process.wait(timeout: 20) == 2, "\(daemon.log)")
        #expect(
            daemon.log.contains("The inbox '\(inside.display)' (R) is inside the library")
                && daemon.log.contains("point it at a folder outside the library"), "\(daemon.log)")
    }

    /// An inbox whose path is a symbolic link to a folder (`~/Downloads` on another
    /// disk) is watched: the folder it leads to.
    @Test func anInboxThatIsALinkToAFolderIsWatched() throws {
        let scene = try DaemonScene()
        let real = scene.folder.file("other-disk").appending("Downloads")
        try Sys.makeDirectories(real)
        let link = scene.folder.file("Downloads")
        try Sys.symbolicLink(target: real, at: link)
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(link.display)", "--settle", "50"])
        #expect(daemon.log.contains("watching 1 inbox(es)"), "\(daemon.log)")
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "linked inbox"), as: "a.jpg", into: link)
        #expect(scene.waitForAlbum("QQ", count: 1), "\(daemon.log)")
        #expect(waitUntil { LibraryContents.files(below: real).isEmpty }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// An inbox removed with its parent (`rm -rf "WeChat Files"`) and made again
    /// with it (`mkdir -p`) is watched again at once, not at the next rescan; the
    /// watches on the way back to it go then (the daemon holds as many as before:
    /// one left on a folder a disk is mounted on later would make every change of
    /// the mount table re-walk the library).
    @Test func anInboxRemovedWithItsParentIsWatchedAgainWhenMadeAgain() throws {
        let scene = try DaemonScene()
        let inbox = scene.folder.file("WeChat Files").appending("Saved")
        try Sys.makeDirectories(inbox)
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "50"])
        let before = try scene.watchesAndInboxStates()
        try #require(before.states == ["watching"], "\(before)")
        TemporaryFolder.removeTree(inbox.parent)
        #expect(daemon.waitForLog("was removed"), "\(daemon.log)")
        // Said by `status` before the inbox comes back: what it says next is newer.
        #expect(try waitUntil { try scene.watchesAndInboxStates().states == ["missing"] })
        try Sys.makeDirectories(inbox)
        #expect(daemon.waitForLog("is back; watching it again"), "\(daemon.log)")
        let settled = try waitUntil { try scene.watchesAndInboxStates().states == ["watching"] }
        let after = try scene.watchesAndInboxStates()
        #expect(
            settled && after.used == before.used,
            "\(after), \(before) before (nothing filed yet): \(daemon.log)")
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "parent back"), as: "a.jpg", into: inbox)
        #expect(scene.waitForAlbum("QQ", count: 1), "\(daemon.log)")
        #expect(
            daemon.logLines(containing: "is back; watching it again").count == 1, "said once: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// `mv apps apps.old; mkdir -p apps/QQ`: the inbox's watch hears nothing of its
    /// parent's rename, the parent's does. The inbox is missing, then the new folder at
    /// its path is watched and filed from at once; the moved one is an inbox no more.
    @Test func anInboxWhoseParentIsRenamedIsWatchedAtItsPathAgain() throws {
        let scene = try DaemonScene()
        let apps = scene.folder.file("apps")
        let inbox = apps.appending("QQ")
        try Sys.makeDirectories(inbox)
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "50"])
        let moved = scene.folder.file("apps.old")
        try Sys.rename(apps, to: moved)
        #expect(daemon.waitForLog("was removed"), "\(daemon.log)")
        let left = moved.appending("QQ").appending("old.jpg")
        try scene.dropByRename(Pictures.uniqueJPEG(1, tag: "moved away"), as: "old.jpg", into: left.parent)
        try Sys.makeDirectories(inbox)
        #expect(daemon.waitForLog("is back; watching it again"), "\(daemon.log)")
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "parent renamed"), as: "a.jpg", into: inbox)
        #expect(scene.waitForAlbum("QQ", count: 1), "\(daemon.log)")
        #expect(
            try Sys.statusIfExists(left) != nil, "not filed from a folder that is no inbox: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// Started without a config file, the daemon reads the default one on SIGHUP
    /// once it is written; a [library] setting that needs a restart says so.
    @Test func sighupReadsADefaultConfigFileWrittenSinceTheStart() throws {
        let scene = try DaemonScene()
        let configHome = scene.folder.file("xdg-config")
        let weibo = scene.inbox("Weibo")
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(scene.inbox().display)", "--settle", "50"],
            environment: ["XDG_CONFIG_HOME": configHome.display])
        try Sys.makeDirectories(configHome.appending("photofiler"))
        try scene.folder.write(
            "[library]\nrescan = 5\n\n[inbox Weibo]\npath = \(weibo.display)\n",
            to: configHome.appending("photofiler").appending("photofiler.conf"))
        daemon.process.signal(SIGHUP)
        #expect(
            daemon.waitForMessages(timeout: 20) { $0.filter { $0 == "READY=1" }.count >= 2 }, "\(daemon.log)")
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "default config"), as: "w.jpg", into: weibo)
        #expect(scene.waitForAlbum("Weibo", count: 1), "\(daemon.log)")
        #expect(
            daemon.log.contains(
                "The [library] setting(s) rescan changed; they take effect when photofiler is restarted"),
            "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// `--library INBOX/Library`: the library's own files (Roll, albums, its
    /// temporary folder, the catalog) are never taken for inbox content.
    @Test func aLibraryInsideAnInboxIsNeverRefiled() throws {
        let scene = try DaemonScene(library: "inboxes/QQ/Library")
        let inbox = scene.inbox()
        let daemon = try scene.start(["--settle", "50"])
        var hashes: Set<String> = []
        for index in 0..<5 {
            let picture = Pictures.uniqueJPEG(index, tag: "nested")
            hashes.insert(Pictures.sha256(picture))
            try scene.dropByRename(picture, as: "n\(index).jpg", into: inbox)
        }
        #expect(scene.waitForAlbum(count: 5), "\(daemon.log)")
        // A file put into the library by hand is not inbox content either.
        try writeFile(scene.library.appending("by-hand.jpg"), Pictures.uniqueJPEG(99, tag: "nested"))
        try scene.dropByRename(Pictures.uniqueJPEG(5, tag: "nested"), as: "sentinel.jpg", into: inbox)
        hashes.insert(Pictures.sha256(Pictures.uniqueJPEG(5, tag: "nested")))
        #expect(scene.waitForAlbum(count: 6), "\(daemon.log)")
        #expect(daemon.terminate() == 0)

        // And a restart's catch-up scan does not take it for inbox content.
        let again = try scene.start(["--settle", "50"])
        #expect(
            again.logLines(containing: "Ready:").first?.contains("0 file(s) found at start-up") == true,
            "\(again.log)")
        #expect(again.terminate() == 0)
        try scene.contents.expectFiledOnce(hashes, album: "QQ")
        let outsideLibrary = LibraryContents.files(below: inbox).filter { !$0.isWithin(scene.library) }
        #expect(outsideLibrary.isEmpty)
        #expect((try? Sys.status(scene.library.appending("by-hand.jpg"))) != nil, "left where it was put")
        #expect(daemon.logLines(containing: "Filed '\(scene.library.display)").isEmpty, "\(daemon.log)")
        #expect(daemon.logLines(containing: "Filed '").count == 6, "\(daemon.log)")
    }
}
