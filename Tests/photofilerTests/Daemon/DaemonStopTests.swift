import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "The daemon": SIGTERM finishes the file in hand and exits 0 within 5 s, also
/// when what is in hand is a group of large files still being hashed.
@Suite struct DaemonStopTests {
    /// 250 files of 64 MiB (sparse: nothing to write, 16 GiB to hash, several seconds
    /// of SHA-256) found at start-up, one group. SIGTERM once the daemon reads them:
    /// the hashing is given up, and every file is still in the inbox.
    @Test func sigtermWhileAGroupOfLargeFilesIsHashedStopsWithinFiveSeconds() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        let count = 250
        let daemon = try startReadingLargeFiles(scene, count: count, in: inbox)

        let took = daemon.expectStopWithinFiveSeconds()
        #expect(LibraryContents.files(below: inbox).count == count)
        print(
            "SIGTERM while \(count) files of 64 MiB were hashed: stopped in \(String(format: "%.2f", took)) s"
        )
    }

    /// A keep-mode inbox: the daemon copies each file into the library while it files
    /// the group (on the queue that also hears signals until this stop). 100 pictures
    /// of 16 MiB found at start-up; SIGTERM once it copies them: the copies not made
    /// yet are given up, what was filed is whole, no copy is left behind.
    @Test func sigtermWhileAKeepModeGroupIsCopiedStopsWithinFiveSeconds() throws {
        let scene = try DaemonScene()
        let inbox = scene.inbox()
        let count = 100
        try Sys.makeDirectories(inbox)
        for index in 0..<count {
            try writeFile(
                inbox.appending("IMG_\(index).jpg"), SystemFaultTests.bigPicture(index, kilobytes: 16 * 1024))
        }
        let daemon = try scene.start(["--settle", "0", "--keep"], waitForReady: false)
        let temporary = scene.library.appending(".photofiler/tmp")
        #expect(waitUntil(timeout: 30) { !regularFiles(under: temporary).isEmpty }, "\(daemon.log)")

        let took = daemon.expectStopWithinFiveSeconds()
        #expect(regularFiles(under: temporary).isEmpty, "no copy is left behind")
        #expect(LibraryContents.files(below: inbox).count == count)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
        print(
            "SIGTERM while \(count) files of 16 MiB were copied: stopped in \(String(format: "%.2f", took)) s, \(scene.contents.rollFiles().count) filed"
        )
    }

    /// A lost catalog: the start-up reconcile adopts every roll file, hashing each, before
    /// READY. 250 roll files of 64 MiB (sparse); SIGTERM once it reads them: the
    /// adoption is given up, nothing in the Roll is touched, and the next start adopts them.
    @Test func sigtermWhileTheStartUpReconcileAdoptsLargeFilesStopsWithinFiveSeconds() throws {
        let scene = try DaemonScene()
        let folder = scene.library.appending("Roll/2023/01")
        let count = 250
        let daemon = try startReadingLargeFiles(scene, count: count, in: folder)

        let took = daemon.expectStopWithinFiveSeconds()
        #expect(LibraryContents.files(below: folder).count == count)
        #expect(daemon.readyCount == 0, "stopped before READY")
        #expect(!daemon.log.contains("Reconciled"), "\(daemon.log)")
        print(
            "SIGTERM while \(count) roll files of 64 MiB were adopted: stopped in \(String(format: "%.2f", took)) s"
        )
    }

    /// SIGTERM while the thumbnails of a burst are made: a thumbnail left unmade is
    /// made at the next start, which is no trouble: no warning, and a line that says
    /// so in a thumbnail's words (not the inbox's "left where it is").
    @Test func sigtermWhileThumbnailsAreMadeWarnsOfNothing() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "0"])
        for index in 0..<40 {
            try scene.dropByRename(
                Pictures.uniqueJPEG(index, tag: "stop"), as: "IMG_\(index).jpg", into: scene.inbox())
        }
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let log = daemon.log
        #expect(!log.contains("warning:"), "\(log)")
        let later = daemon.logLines(containing: "gets its thumbnail later")
        #expect(
            later.allSatisfy {
                $0.hasSuffix("gets its thumbnail later: photofiler stopped before it was made.")
            }, "\(later)")
    }

    /// Makes `count` sparse files of 64 MiB in `folder`, starts the daemon, and waits
    /// until it reads one of them.
    private func startReadingLargeFiles(_ scene: DaemonScene, count: Int, in folder: BytePath) throws
        -> DaemonProcess
    {
        try Sys.makeDirectories(folder)
        let made = Machine.shell(
            "cd '\(folder.display)' && for i in $(seq 1 \(count)); do truncate -s 64M clip$i.mov; done")
        try #require(made.status == 0, "\(made.output)")
        let daemon = try scene.start(["--settle", "0"], waitForReady: false)
        #expect(waitUntil(timeout: 20) { daemon.hasOpen(below: folder) }, "\(daemon.log)")
        return daemon
    }
}
