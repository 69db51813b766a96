import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

extension SystemFaultTests {
    /// photofiler(1) "Deletion" ("within 2 s while the daemon runs") after a disk comes back:
    /// a year of the Roll on a disk of its own, unmounted and mounted again under the
    /// running daemon. A mount makes no inotify event; the daemon hears the mount
    /// table, watches the disk's folders and reconciles, so a roll file removed on it
    /// afterwards is a deletion within seconds, not at the next start.
    @Test func aRollFolderMountedAgainUnderTheRunningDaemonIsWatched() throws {
        let scene = try DaemonScene()
        let disk = try YearOnItsOwnDisk(scene, picture: Pictures.uniqueJPEG(9, tag: "remount"))
        try disk.mount()
        defer { Machine.unmount(disk.year) }
        let daemon = try scene.start(YearOnItsOwnDisk.arguments)  // stamps the year on the disk's device

        disk.unmount()
        #expect(daemon.waitForLog("an empty folder where a disk was mounted"), "\(daemon.log)")
        // A photo of that year waits in its inbox while the disk is away, and is tried
        // again once it is mounted: a Roll folder on another disk cannot take it (a roll
        // file is a hard link from the library's disk), which is said in one sentence.
        let late = "IMG_\(disk.year.lastComponent.display)0115_120000.jpg"
        try scene.dropByRename(Pictures.uniqueJPEG(10, tag: "remount"), as: late, into: scene.inbox())
        #expect(daemon.waitForLog("where a disk of the library was mounted"), "\(daemon.log)")
        try disk.mount()
        #expect(daemon.waitForLog("Reconciled (a disk was mounted or unmounted)"), "\(daemon.log)")
        #expect(daemon.waitForLog("which is on another disk than the library's"), "\(daemon.log)")
        #expect(LibraryContents.files(below: scene.inbox()).count == 1)

        try Sys.unlink(disk.rollFile)
        #expect(
            waitUntil(timeout: 10) { (try? listJSON(scene.library, []).count) == 0 },
            "the removal on the disk mounted again is seen: \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// An inbox on a disk mounted after the daemon started (an external disk, a NAS
    /// mounted at login), its folder made on it then: what lands in it is filed.
    @Test func anInboxOnADiskMountedUnderTheRunningDaemonIsWatched() throws {
        let scene = try DaemonScene()
        let disk = scene.folder.file("disk")
        let inbox = disk.appending("QQ")
        try Sys.makeDirectories(disk)
        let daemon = try scene.start(["--settle", "100", "--inbox", "Disk=\(inbox.display)"])
        let failure = Machine.mountTmpfs(disk, size: "16m")
        try #require(failure == nil, "\(failure ?? "")")
        defer { Machine.unmount(disk) }
        try Sys.makeDirectories(inbox)
        try writeFile(inbox.appending("IMG_1.jpg"), Pictures.uniqueJPEG(1, tag: "mounted inbox"))

        #expect(scene.waitForAlbum("Disk", count: 1), "\(daemon.log)")
        try writeFile(inbox.appending("IMG_2.jpg"), Pictures.uniqueJPEG(2, tag: "mounted inbox"))
        #expect(scene.waitForAlbum("Disk", count: 2), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// An inbox removed with the folders above it (so its nearest folder is watched
    /// for the way back), then a disk mounted on that folder, then the inbox's
    /// folders made on the disk: the way is watched on the disk, not on the folder
    /// beneath it, so the inbox is found at once (not at the next rescan).
    @Test func anInboxMadeAgainOnADiskMountedWhereItsParentWasIsWatched() throws {
        let scene = try DaemonScene()
        let disk = scene.folder.file("disk")
        let inbox = disk.appending("phone").appending("exports").appending("QQ")
        let daemon = try scene.start(["--settle", "100", "--inbox", "Disk=\(inbox.display)"])
        TemporaryFolder.removeTree(disk.appending("phone"))
        #expect(daemon.waitForLog("was removed; it is watched again"), "\(daemon.log)")
        let failure = Machine.mountTmpfs(disk, size: "16m")
        try #require(failure == nil, "\(failure ?? "")")
        defer { Machine.unmount(disk) }
        #expect(daemon.waitForLog("A disk was mounted or unmounted"), "\(daemon.log)")
        try Sys.makeDirectories(inbox)
        try writeFile(inbox.appending("IMG_1.jpg"), Pictures.uniqueJPEG(1, tag: "later inbox"))
        #expect(scene.waitForAlbum("Disk", count: 1), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// An inbox reached through a bind mount of a folder on the library's own file
    /// system: the same device number, another mount, where link(2) says EXDEV. The
    /// file is copied in, as from another file system, and leaves its inbox.
    @Test func anInboxOnABindMountOfTheLibrarysFileSystemIsFiled() throws {
        let scene = try DaemonScene()
        let real = scene.folder.file("real")
        let inbox = scene.folder.file("bound")
        try Sys.makeDirectories(real)
        try Sys.makeDirectories(inbox)
        let bound = Machine.shell("mount --bind '\(real.display)' '\(inbox.display)'")
        try #require(bound.status == 0, "\(bound.output)")
        defer { Machine.unmount(inbox) }
        let daemon = try scene.start(["--settle", "100", "--inbox", "Bound=\(inbox.display)"])
        try writeFile(inbox.appending("IMG_1.jpg"), Pictures.uniqueJPEG(1, tag: "bind mount"))
        #expect(scene.waitForAlbum("Bound", count: 1), "\(daemon.log)")
        #expect(
            waitUntil { LibraryContents.files(below: real).isEmpty }, "it leaves its inbox: \(daemon.log)")
        #expect(!daemon.log.contains("cross-device"), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }
}
