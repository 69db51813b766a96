import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// The daemon makes thumbnails after filing, in the background, and picks up
/// after a restart what is missing.
@Suite
struct DaemonThumbnailTests {
    @Test func filedAssetsGetThumbnailsAndARestartMakesMissingOnes() throws {
        let scene = try DaemonScene()
        let cache = scene.folder.file("cache")
        let environment = ["XDG_CACHE_HOME": cache.display]
        let inbox = scene.inbox()
        let arguments = ["--inbox", "QQ=\(inbox.display)", "--settle", "100"]
        var daemon = try DaemonProcess(library: scene.library, arguments: arguments, environment: environment)
        for file in ["IMG_3539.MOV", "Landscape_8.jpg", "IMG_2682.heic"] {
            try copyFile(Fixtures.corpus(file), to: scene.staging.appending(file))
            try Sys.rename(scene.staging.appending(file), to: inbox.appending(file))
        }
        let thumbnails = scene.library.appending(".photofiler/thumbnails")
        // Two sizes per asset; the desktop's `large` (no file manager has asked for
        // another size here) for each of the roll file and the album entry.
        #expect(
            waitUntil(timeout: 60) {
                regularFiles(under: thumbnails).count == 6 && regularFiles(under: cache).count == 6
            }, "\(regularFiles(under: thumbnails)) \(daemon.log)")
        #expect(daemon.terminate() == 0)

        let removed = regularFiles(under: thumbnails).filter { $0.display.hasSuffix("-256.jpg") }
        for file in removed { try Sys.unlink(file) }
        daemon = try DaemonProcess(library: scene.library, arguments: arguments, environment: environment)
        #expect(
            waitUntil(timeout: 60) { removed.allSatisfy { (try? Sys.statusIfExists($0)) ?? nil != nil } },
            "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// `save` beside a running daemon leaves the thumbnails to it: it returns once
    /// its files are filed, says so in one line, and the daemon makes them, desktop
    /// entries for the roll file and the album entry included.
    @Test func saveHandsItsThumbnailsToTheDaemon() throws {
        let scene = try DaemonScene()
        let cache = scene.folder.file("cache")
        let environment = ["XDG_CACHE_HOME": cache.display]
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--inbox", "QQ=\(scene.inbox().display)"],
            environment: environment)
        let input = scene.folder.file("Landscape_8.jpg")
        try copyFile(Fixtures.corpus("Landscape_8.jpg"), to: input)
        let saved = try Binary.run(
            ["save", "--album", "Camera", "--library", scene.library, input], environment: environment)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(
            saved.stderr.contains("the daemon (pid \(daemon.pid)) makes those of 1 asset(s)"),
            "\(saved.stderr)")
        let thumbnails = scene.library.appending(".photofiler/thumbnails")
        #expect(
            waitUntil(timeout: 60) {
                regularFiles(under: thumbnails).count == 2 && regularFiles(under: cache).count == 2
            }, "\(regularFiles(under: cache)) \(daemon.log)")
        #expect(daemon.terminate() == 0)
    }

    /// A thumbnail that failed for a reason other than its file (here the thumbnails
    /// folder is a file in the way) is tried again on SIGHUP once that is fixed, and
    /// its warning is not repeated while it still fails.
    @Test func aThumbnailThatCouldNotBeWrittenIsMadeAfterAReload() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let thumbnails = scene.library.appending(".photofiler/thumbnails")
        TemporaryFolder.removeTree(thumbnails)
        try writeFile(thumbnails, Array("in the way\n".utf8))
        try scene.dropByRename(Pictures.uniqueJPEG(3, tag: "retry"), as: "IMG_3.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum("QQ", count: 1), "\(daemon.log)")
        func warnings() -> Int {
            daemon.log.components(separatedBy: "\n").count { $0.contains("thumbnails") }
        }
        #expect(waitUntil(timeout: 20) { warnings() == 1 }, "\(daemon.log)")
        kill(daemon.pid, SIGHUP)  // still in the way: tried, not said again
        #expect(waitUntil(timeout: 20) { daemon.readyCount == 2 }, "\(daemon.log)")
        try Sys.unlink(thumbnails)
        kill(daemon.pid, SIGHUP)
        #expect(waitUntil(timeout: 20) { regularFiles(under: thumbnails).count == 2 }, "\(daemon.log)")
        #expect(warnings() == 1, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }
}
