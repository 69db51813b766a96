import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

extension SystemFaultTests {
    /// photofiler(1) "Deletion": an unmounted disk is not a deletion. A year of the Roll kept
    /// on a disk of its own (symbolic album links, as hard links cannot reach it),
    /// unmounted while the daemon runs, or while it is stopped after a run that could
    /// not look at it (an I/O error: what the last look knew of the folder is kept):
    /// the asset stays, its album entry stays, and the log says what to do; a photo
    /// of that year is not filed into the empty folder; mounted again, the library is
    /// as it was.
    @Test(arguments: ["while it runs", "after a run that could not look at it"])
    func aRollFolderOnADiskNotMountedEndsNothing(unmounted when: String) throws {
        let scene = try DaemonScene()
        let arguments = YearOnItsOwnDisk.arguments
        let disk = try YearOnItsOwnDisk(scene, picture: Pictures.uniqueJPEG(7, tag: "mount"))
        let (rollFile, year) = (disk.rollFile, disk.year)
        try disk.mount()
        defer { Machine.unmount(year) }
        var daemon = try scene.start(arguments)  // its reconcile stamps the year on the disk's device
        #expect(try Binary.run("check", "--library", scene.library.display).status == 0)

        if when == "after a run that could not look at it" {
            #expect(daemon.terminate() == 0)
            let relative = BytePath("Roll").appending(year.lastComponent)
            daemon = try DaemonProcess(
                library: scene.library, arguments: scene.inboxArguments() + arguments,
                environment: ["PHOTOFILER_FAIL_PATH": "stat:EIO:\(relative.display)"])
            #expect(daemon.waitForLog("could not look at '\(relative.display)'"), "\(daemon.log)")
            #expect(daemon.terminate() == 0)
        }
        disk.unmount()
        if when == "after a run that could not look at it" { daemon = try scene.start(arguments) }
        #expect(
            waitUntil(timeout: 10) { daemon.log.contains("an empty folder where a disk was mounted") },
            "\(daemon.log)")
        // A photo of that year, dropped now, is not filed into the empty folder (which
        // would end the asset at the next reconcile): it stays in its inbox, said once.
        let late = scene.inbox().appending("IMG_\(year.lastComponent.display)0115_120000.jpg")
        try scene.dropByRename(
            Pictures.uniqueJPEG(8, tag: "mount"), as: late.lastComponent.display, into: scene.inbox())
        #expect(daemon.waitForLog("where a disk of the library was mounted"), "\(daemon.log)")
        #expect(try Sys.listDirectory(year).isEmpty)
        try Sys.unlink(late)
        #expect(try listJSON(scene.library, []).count == 1, "\(daemon.log)")
        #expect(scene.contents.albumEntries("QQ").count == 1)
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 1)
        #expect(check.stdout.contains("mount the disk again"), "\(check.stdout)")

        try disk.mount()
        daemon = try scene.start(arguments)
        #expect(try listJSON(scene.library, []).count == 1, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let again = try Binary.run("check", "--library", scene.library.display)
        #expect(again.status == 0, "\(again.stdout)")
        #expect(try readFile(rollFile) == Pictures.uniqueJPEG(7, tag: "mount"))
    }
}
