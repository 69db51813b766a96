import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// A file or a sub-folder of an inbox that photofiler may not read is refused with
/// a message that asks for read access; the `chmod` that gives it is enough: the
/// running daemon files what it could not read, without a restart or a rescan.
///
/// Root reads everything, so as root the binary runs as `nobody` (`setpriv`),
/// as the permission tests do.
@Suite(.enabled(if: PermissionTests.canCheck, PermissionTests.skipReason))
struct PermissionFixedTests {
    @Test func whatCouldNotBeReadIsFiledOnceAChmodLetsItBe() throws {
        let folder = try PermissionTests.reachableFolder()
        let library = folder.file("library")
        let inbox = folder.file("inbox")
        let locked = inbox.appending("locked")
        try Sys.makeDirectories(locked)
        let privateFile = inbox.appending("private.jpg")
        try writeFile(privateFile, Pictures.uniqueJPEG(1, tag: "private file"))
        try writeFile(locked.appending("inside.jpg"), Pictures.uniqueJPEG(2, tag: "locked folder"))
        try PermissionTests.prepare(folder.path, folderMode: 0o755)
        _ = privateFile.withCString { chmod($0, 0o000) }
        _ = locked.withCString { chmod($0, 0o000) }
        defer { _ = locked.withCString { chmod($0, 0o755) } }

        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "50"],
            launcher: PermissionTests.launcher.map(\.display))
        let contents = LibraryContents(library: library)
        #expect(
            daemon.waitForLog(
                "Permission denied (open) on '\(privateFile.display)'; give photofiler read access to it"),
            "the fix is the file's, not the library's: \(daemon.log)")
        #expect(daemon.log.contains(locked.display), "the folder it cannot watch is named: \(daemon.log)")
        #expect(contents.albumEntries("QQ").isEmpty)

        _ = privateFile.withCString { chmod($0, 0o644) }
        #expect(waitUntil { contents.albumEntries("QQ").count == 1 }, "filed after its chmod: \(daemon.log)")
        // The inbox file goes last, once its roll file, entry and row are durable.
        #expect(waitUntil { (try? Sys.statusIfExists(privateFile)) ?? nil == nil }, "moved out of the inbox")

        _ = locked.withCString { chmod($0, 0o755) }
        #expect(
            waitUntil { contents.albumEntries("QQ").count == 2 },
            "its folder's file after its chmod: \(daemon.log)")
        // The folder is watched now: what lands in it later is filed too.
        try writeFile(locked.appending("later.jpg"), Pictures.uniqueJPEG(3, tag: "locked folder later"))
        #expect(waitUntil { contents.albumEntries("QQ").count == 3 }, "\(daemon.log)")
        #expect(waitUntil { (try? Sys.listDirectory(locked))?.isEmpty == true }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        #expect(try contents.assets().count == 3)
    }
}
