import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// "Could not look" is never "gone": a thumbnail (or desktop cache entry, or a
/// folder of them) that cannot be looked at is reported once, with the folder to
/// fix, and is not made again. Root reads everything, so the failures are injected
/// (`PHOTOFILER_FAIL_PATH`, debug builds) rather than made with chmod.
@Suite
struct UnreadableThumbnailTests {
    /// Two assets in the album Camera, thumbnails and desktop entries made by `save`.
    final class Library {
        let library: TestLibrary
        let hashes: [String]

        init() throws {
            library = try TestLibrary()
            let saved = try library.run(
                bytes: ["save", "--album", "Camera"]
                    + [
                        try library.input(corpus: "Landscape_8.jpg"),
                        try library.input(corpus: "throbber.gif"),
                    ],
                environment: ["XDG_CACHE_HOME": library.folder.file("cache").display])
            try #require(saved.status == 0, "\(saved.stderr)")
            hashes = try library.list().compactMap { $0["hash"] as? String }
            try #require(hashes.count == 2)
        }

        var thumbnails: BytePath { library.root.appending(".photofiler/thumbnails") }
        var cache: BytePath { library.folder.file("cache") }
        func shard(_ hash: String) -> BytePath { thumbnails.appending(String(hash.prefix(2))) }
        func thumbnail(_ hash: String, _ edge: Int) -> BytePath {
            shard(hash).appending("\(hash)-\(edge).jpg")
        }
        func exists(_ path: BytePath) -> Bool { (try? Sys.statusIfExists(path)) ?? nil != nil }

        /// `thumb --all` with `PHOTOFILER_FAIL_PATH=RULE`, its desktop cache beside the library.
        func thumbAll(failing rule: String) throws -> Binary.Result {
            try library.run(
                "thumb", "--all",
                environment: ["XDG_CACHE_HOME": cache.display, "PHOTOFILER_FAIL_PATH": rule])
        }
    }

    static func lines(_ text: String, containing part: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(part) }
    }

    @Test func aShardThatCannotBeLookedAtIsReportedNotRemade() throws {
        let saved = try Library()
        let (unreadable, readable) = (saved.hashes[0], saved.hashes[1])
        try #require(unreadable.prefix(2) != readable.prefix(2), "the two corpus files share a shard")
        try Sys.unlink(saved.thumbnail(readable, 256))

        let result = try saved.thumbAll(failing: "EACCES:\(saved.shard(unreadable).display)")
        #expect(result.status == 1, "an asset's thumbnails are not known: \(result.stderr)")
        let reported = Self.lines(result.stderr, containing: "cannot be looked at")
        #expect(reported.count == 1, "once: \(result.stderr)")
        #expect(
            reported.first?.contains("fix the permissions of '\(saved.shard(unreadable).display)'") == true,
            "names the folder to fix: \(result.stderr)")
        #expect(!result.stderr.contains("could not be made"), "not made again: \(result.stderr)")
        #expect(result.stderr.contains("1 could not be looked at"), "\(result.stderr)")
        #expect(saved.exists(saved.thumbnail(readable, 256)), "the other asset's missing thumbnail is made")
        #expect(saved.exists(saved.thumbnail(unreadable, 256)), "the unreadable one is left as it was")
    }

    /// A desktop cache folder that cannot be looked at is one line; the library's
    /// thumbnails are still made, and the desktop's other sizes are not made again.
    @Test func aDesktopCacheFolderThatCannotBeLookedAtIsReportedOnce() throws {
        let saved = try Library()
        let large = saved.cache.appending("thumbnails/large")
        let desktopBefore = regularFiles(under: saved.cache.appending("thumbnails")).count
        try #require(desktopBefore == 4, "large for each roll file and album entry")
        for hash in saved.hashes { try Sys.unlink(saved.thumbnail(hash, 1024)) }

        let result = try saved.thumbAll(failing: "EACCES:\(large.display)")
        #expect(result.status == 0, "the library's own are all made: \(result.stderr)")
        let reported = Self.lines(result.stderr, containing: "cannot be looked at")
        #expect(reported.count == 1, "once for the folder: \(result.stderr)")
        #expect(
            reported.first?.contains("fix the permissions of '\(large.display)'") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("could not be made"), "\(result.stderr)")
        #expect(
            saved.hashes.allSatisfy { saved.exists(saved.thumbnail($0, 1024)) }, "library thumbnails made")
        #expect(regularFiles(under: saved.cache.appending("thumbnails")).count == desktopBefore)
    }

    /// The daemon's start-up scan: a thumbnails folder that cannot be listed nor
    /// looked into (a failing disk) is one line, and nothing is queued to be made.
    @Test func theDaemonReportsAThumbnailFolderItCannotLookAtOnce() throws {
        let saved = try Library()
        let inbox = saved.library.folder.file("inbox")
        try Sys.makeDirectory(inbox)
        let daemon = try DaemonProcess(
            library: saved.library.root, arguments: ["--inbox", "QQ=\(inbox.display)"],
            environment: [
                "XDG_CACHE_HOME": saved.cache.display,
                "PHOTOFILER_FAIL_PATH": "EIO:\(saved.thumbnails.display)",
            ])
        #expect(
            waitUntil(timeout: 30) { daemon.log.contains("cannot be looked at") }, "reported: \(daemon.log)")
        #expect(daemon.terminate() == 0)
        let reported = Self.lines(daemon.log, containing: "cannot be looked at")
        #expect(reported.count == 1, "once: \(daemon.log)")
        #expect(
            reported.first?.contains("check the disk holding '\(saved.thumbnails.display)'") == true,
            "\(daemon.log)")
        #expect(!daemon.log.contains("could not be made"), "nothing made again: \(daemon.log)")
    }
}
