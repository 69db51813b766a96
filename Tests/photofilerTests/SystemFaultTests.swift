import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// Faults of the machine (issue 4): a full disk, another file system, permissions,
/// inotify limits, inherited descriptors. These mount file systems and change
/// sysctls, which affects every test running at the same time, so they run in
/// this one serialized suite, on their own (`make test` runs it after the rest),
/// and restore what they change in a `defer`. They need root; CI is root.
@Suite(
    .serialized,
    .enabled(if: Machine.isRoot, "needs root: mounts a tmpfs, changes sysctls, runs as another user"))
struct SystemFaultTests {
    static let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]

    /// A picture of about `kilobytes` KiB, unique by `n` (COM segments of filler).
    static func bigPicture(_ n: Int, kilobytes: Int) -> [UInt8] {
        var bytes = Pictures.unique(n)
        var filler: [UInt8] = []
        var left = kilobytes * 1024
        while left > 0 {
            let count = min(left, 60_000)
            filler += [0xFF, 0xFE, UInt8((count + 2) >> 8), UInt8((count + 2) & 0xFF)]
            filler += [UInt8](repeating: 0x41, count: count)
            left -= count
        }
        bytes.insert(contentsOf: filler, at: 2)
        return bytes
    }

    /// Drops `count` unique pictures into `inbox`; their hashes.
    static func drop(_ count: Int, into inbox: BytePath, staging: BytePath, from: Int = 0, kilobytes: Int = 0)
        throws -> Set<String>
    {
        var hashes = Set<String>()
        for n in from..<(from + count) {
            let bytes = kilobytes > 0 ? bigPicture(n, kilobytes: kilobytes) : Pictures.unique(n)
            hashes.insert(Pictures.hash(bytes))
            try Pictures.drop(bytes, at: inbox.appending("IMG_\(n).jpg"), staging: staging)
        }
        return hashes
    }

    static func inboxCount(_ inbox: BytePath) -> Int {
        Invariants.regularFiles(under: inbox, excluding: nil).count
    }

    // MARK: Disk full

    @Test func diskFullStopsFilingAndResumesOnceThereIsRoom() throws {
        let folder = try TemporaryFolder()
        let mount = folder.file("small")
        if let failure = Machine.mountTmpfs(mount, size: "2m") { Issue.record("\(failure)"); return }
        defer { Machine.unmount(mount) }
        let library = mount.appending("library")
        let inbox = folder.file("inbox")
        let staging = folder.file("staging")
        try Sys.makeDirectories(inbox)
        try Sys.makeDirectories(staging)
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        defer { daemon.terminate() }

        let originals = try Self.drop(16, into: inbox, staging: staging, kilobytes: 200)  // 3.2 MB > 2 MB
        #expect(waitUntil(timeout: 30) { daemon.log.contains("is full") }, "\(daemon.log)")
        let fullLines = daemon.log.split(separator: "\n").filter { $0.contains("is full") }
        #expect(fullLines.count == 1, "one clear error, not \(fullLines.count): \(fullLines)")
        #expect(fullLines.first?.contains(library.display) == true)
        let left = Self.inboxCount(inbox)
        #expect(left > 0, "the sources that did not fit stay in the inbox")
        // The daemon retries (its copy in .photofiler/tmp comes and goes) without a new error line.
        let temporary = library.appending(".photofiler/tmp")
        let before = try Sys.status(temporary).modificationNanoseconds
        #expect(waitUntil(timeout: 20) { (try? Sys.status(temporary).modificationNanoseconds) != before })
        #expect(
            !waitUntil(timeout: 1) {
                daemon.log.split(separator: "\n").filter { $0.contains("is full") }.count > 1
            }, "\(daemon.log)")

        // While full: nothing partial in the Roll, catalog and disk agree.
        let full = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(full.isClean, "while full: \(full)")

        // Room again: the daemon retries by itself.
        #expect(Machine.shell("mount -o remount,size=64m '\(mount.display)'").status == 0)
        #expect(waitUntil(timeout: 60) { Self.inboxCount(inbox) == 0 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == 16, "\(report)")
        print("SystemFaultTests.diskFull: \(left) file(s) waited while full; after: \(report)")
    }

    /// Inbox and library on one full tmpfs: the links need no room, the catalog
    /// does (SQLite reports SQLITE_FULL); the same one error, the same retry.
    @Test func fullDiskUnderTheCatalogAlsoRetries() throws {
        let folder = try TemporaryFolder()
        let mount = folder.file("small")
        if let failure = Machine.mountTmpfs(mount, size: "2m") { Issue.record("\(failure)"); return }
        defer { Machine.unmount(mount) }
        let library = mount.appending("library")
        let inbox = mount.appending("inbox")
        let staging = mount.appending("staging")
        try Sys.makeDirectories(inbox)
        try Sys.makeDirectories(staging)
        // The daemon first (its catalog open), then the pictures, then filler up to the brim.
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        defer { daemon.terminate() }
        var originals = Set<String>()
        for n in 0..<6 {
            let bytes = Self.bigPicture(n, kilobytes: 150)
            originals.insert(Pictures.hash(bytes))
            try writeFile(staging.appending("IMG_\(n).jpg"), bytes)
        }
        let filler = mount.appending("filler")
        let fd = try Sys.createExclusive(filler)
        let chunk = [UInt8](repeating: 0x55, count: 4096)
        while (try? chunk.withUnsafeBytes({ try fd.writeAll($0) })) != nil {}
        fd.close()

        for n in 0..<6 {
            try Sys.rename(staging.appending("IMG_\(n).jpg"), to: inbox.appending("IMG_\(n).jpg"))
        }
        #expect(waitUntil(timeout: 30) { daemon.log.contains("is full") }, "\(daemon.log)")
        let errors = daemon.log.split(separator: "\n").filter { $0.contains("error") }
        #expect(errors.count == 1, "one clear error: \(errors)")
        let full = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(full.isClean, "while full: \(full)")

        try Sys.unlink(filler)
        #expect(waitUntil(timeout: 60) { Self.inboxCount(inbox) == 0 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean && report.rollFiles == 6, "\(report)")
        print("SystemFaultTests.catalogDiskFull: \(full.inboxFiles) file(s) waited; after: \(report)")
    }

    // MARK: Another file system

    @Test func inboxOnAnotherFileSystemIsCopiedThenRemoved() throws {
        let folder = try TemporaryFolder()
        let mount = folder.file("tmpfs")
        if let failure = Machine.mountTmpfs(mount, size: "16m") { Issue.record("\(failure)"); return }
        defer { Machine.unmount(mount) }
        let inbox = mount.appending("inbox")
        let staging = mount.appending("staging")
        try Sys.makeDirectories(inbox)
        try Sys.makeDirectories(staging)
        let library = folder.file("library")
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        let originals = try Self.drop(40, into: inbox, staging: staging)
        #expect(waitUntil(timeout: 30) { Self.inboxCount(inbox) == 0 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == 40, "\(report)")
        // Copies, not links to the other file system: each roll file has one name
        // in the Roll and one in the album.
        for file in Invariants.regularFiles(under: library.appending("Roll"), excluding: nil) {
            #expect((try Sys.status(file)).linkCount == 2)
        }
        print("SystemFaultTests.inboxOnTmpfs: \(report)")
    }

    // MARK: Permissions

    /// Runs the daemon as nobody: an unreadable file and a read-only album folder
    /// are refused with clear errors; the other inbox is filed.
    @Test func permissionDeniedIsReportedAndEverythingElseFiled() throws {
        let folder = try TemporaryFolder()
        _ = chmod(folder.path.display, 0o755)
        let library = folder.file("library")
        let qq = folder.file("QQ")
        let wechat = folder.file("WeChat")
        let staging = folder.file("staging")
        // The QQ album folder belongs to root and is read-only for the daemon.
        let qqAlbum = library.appending("Albums/QQ")
        for path in [qqAlbum, qq, wechat, staging] { try Sys.makeDirectories(path) }
        #expect(Machine.shell("chown -R 65534:65534 '\(folder.path.display)'").status == 0)
        #expect(
            Machine.shell("chown root:root '\(qqAlbum.display)' && chmod 0555 '\(qqAlbum.display)'").status
                == 0)

        let daemon = try DaemonProcess(
            library: library,
            arguments: [
                "--inbox", "QQ=\(qq.display)", "--inbox", "WeChat=\(wechat.display)", "--settle", "20",
            ],
            launcher: Self.nobody)
        defer { daemon.terminate() }

        var originals = try Self.drop(5, into: wechat, staging: staging)
        // Unreadable: root's, mode 0600.
        let secretBytes = Pictures.unique(100)
        originals.insert(Pictures.hash(secretBytes))
        let secret = wechat.appending("secret.jpg")
        try Pictures.drop(secretBytes, at: secret, staging: staging)
        _ = chmod(secret.display, 0o600)
        _ = chown(secret.display, 0, 0)
        // Into the read-only album.
        let blocked = Pictures.unique(200)
        originals.insert(Pictures.hash(blocked))
        try Pictures.drop(blocked, at: qq.appending("q.jpg"), staging: staging)
        _ = chown(qq.appending("q.jpg").display, 65534, 65534)

        #expect(waitUntil(timeout: 30) { Self.inboxCount(wechat) == 1 }, "\(daemon.log)")
        #expect(
            waitUntil(timeout: 30) { daemon.log.contains("secret.jpg") && daemon.log.contains("Albums/QQ") },
            "\(daemon.log)")
        let errors = daemon.log.split(separator: "\n").filter { $0.contains("error") }
        #expect(errors.contains { $0.contains("secret.jpg") && $0.contains("ermission") }, "\(errors)")
        #expect(errors.contains { $0.contains("Albums/QQ") && $0.contains("ermission") }, "\(errors)")
        #expect((try? Sys.status(secret)) != nil, "the unreadable file stays")
        #expect((try? Sys.status(qq.appending("q.jpg"))) != nil, "the file for the read-only album stays")
        #expect(daemon.process.wait(timeout: 0) == nil, "the daemon keeps running")
        #expect(daemon.terminate() == 0)

        let report = try Invariants(library: library, inboxes: [qq, wechat], originals: originals).check()
        #expect(report.isClean, "\(report)")
        print("SystemFaultTests.permissions: \(errors.count) error line(s); \(report)")
    }

    @Test func aLibraryThatIsNotWritableIsAClearError() throws {
        let folder = try TemporaryFolder()
        _ = chmod(folder.path.display, 0o755)
        let library = folder.file("library")
        let inbox = folder.file("inbox")
        #expect(try Binary.run("check", "--library", library.display).status == 0)  // made by root
        try Sys.makeDirectories(inbox)
        #expect(Machine.shell("chown 65534:65534 '\(inbox.display)'").status == 0)
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)"], waitForReady: false,
            launcher: Self.nobody)
        let status = daemon.process.wait(timeout: 20)
        #expect(status == 1, "\(daemon.log)")
        #expect(daemon.log.contains("'\(library.display)"), "\(daemon.log)")
        #expect(daemon.log.contains("writable"), "\(daemon.log)")
        #expect(daemon.log.split(separator: "\n").count <= 3, "\(daemon.log)")
    }

    // MARK: inotify limits

    /// Watches in use by this user (every inotify descriptor of every process).
    static func watchesInUse() -> Int {
        let result = Machine.shell("cat /proc/[0-9]*/fdinfo/* 2>/dev/null | grep -c '^inotify wd:'")
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    @Test func watchLimitNamesTheSysctlAndTheOtherInboxesWork() throws {
        let folder = try TemporaryFolder()
        let small = folder.file("small")
        let deep = folder.file("deep")
        let staging = folder.file("staging")
        let library = folder.file("library")
        try Sys.makeDirectories(small)
        try Sys.makeDirectories(staging)
        for n in 0..<300 { try Sys.makeDirectories(deep.appending("sub\(n)")) }

        let key = "fs.inotify.max_user_watches"
        let saved = try #require(Machine.readSysctl(key))
        defer { Machine.writeSysctl(key, saved) }
        // The library's two folders and the small inbox fit; the deep inbox does not.
        #expect(Machine.writeSysctl(key, "\(Self.watchesInUse() + 8)"))
        let daemon = try DaemonProcess(
            library: library,
            arguments: [
                "--inbox", "Small=\(small.display)", "--inbox", "Deep=\(deep.display)", "--settle", "20",
            ])
        Machine.writeSysctl(key, saved)
        defer { daemon.terminate() }

        #expect(daemon.log.contains("max_user_watches"), "\(daemon.log)")
        let originals = try Self.drop(3, into: small, staging: staging)
        #expect(waitUntil(timeout: 20) { Self.inboxCount(small) == 0 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let report = try Invariants(library: library, inboxes: [small], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == 3)
        print("SystemFaultTests.watchLimit: \(report)")
    }

    /// A sub-folder made in an inbox once the limit is used up is told of, not left
    /// unwatched in silence (the walk's limit error was dropped before).
    @Test func watchLimitReachedByANewSubfolderIsTold() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let library = folder.file("library")
        try Sys.makeDirectories(inbox)
        let key = "fs.inotify.max_user_watches"
        let saved = try #require(Machine.readSysctl(key))
        defer { Machine.writeSysctl(key, saved) }
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        defer { daemon.terminate() }

        #expect(Machine.writeSysctl(key, "\(Self.watchesInUse())"))
        let later = inbox.appending("later")
        try Sys.makeDirectories(later)
        let told = waitUntil(timeout: 20) {
            daemon.log.contains("Cannot watch '\(later.display)'") && daemon.log.contains(key)
        }
        Machine.writeSysctl(key, saved)
        #expect(told, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    @Test func queueOverflowFilesEveryFileOnce() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let staging = folder.file("staging")
        let library = folder.file("library")
        try Sys.makeDirectories(inbox)
        try Sys.makeDirectories(staging)

        let key = "fs.inotify.max_queued_events"
        let saved = try #require(Machine.readSysctl(key))
        defer { Machine.writeSysctl(key, saved) }
        #expect(Machine.writeSysctl(key, "64"))
        // The queue size is fixed when the daemon's inotify instance is made.
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        Machine.writeSysctl(key, saved)
        defer { daemon.terminate() }

        let originals = try Self.drop(3000, into: inbox, staging: staging)
        #expect(waitUntil(timeout: 120) { Self.inboxCount(inbox) == 0 }, "\(daemon.log.suffix(2000))")
        #expect(daemon.log.contains("overflowed"), "the queue of 64 events should have overflowed")
        #expect(daemon.terminate() == 0)
        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == 3000, "\(report)")
        #expect(report.albumEntries == 3000, "\(report)")
        print("SystemFaultTests.queueOverflow: \(report)")
    }

    // MARK: Descriptors

    @Test func manyInheritedDescriptorsAtStart() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let staging = folder.file("staging")
        let library = folder.file("library")
        try Sys.makeDirectories(inbox)
        try Sys.makeDirectories(staging)

        // Descriptors 3…1102 open without close-on-exec when the daemon starts (a
        // careless parent): every number below select()'s FD_SETSIZE is taken.
        let openMany = #"for fd in $(seq 3 1102); do eval "exec $fd</dev/null"; done; exec "$@""#
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"],
            launcher: ["/bin/bash", "-c", openMany, "bash"])
        defer { daemon.terminate() }

        let originals = try Self.drop(20, into: inbox, staging: staging)
        #expect(waitUntil(timeout: 30) { Self.inboxCount(inbox) == 0 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0, "\(daemon.log)")
        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        #expect(report.isClean, "\(report)")
        #expect(report.rollFiles == 20)
        print("SystemFaultTests.inheritedDescriptors: \(report)")
    }
}
