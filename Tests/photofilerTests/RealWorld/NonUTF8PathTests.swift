import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Safe inputs": file names are bytes, from argv to openat. An inbox whose
/// folder name is not UTF-8 is watched and filed from; a relative path taken from
/// a working directory whose name is not UTF-8 is found.
@Suite struct NonUTF8PathTests {
    /// "café" in Latin-1: 0xE9 alone is not UTF-8.
    static let latin1 = BytePath(bytes: Array("caf".utf8) + [0xE9])

    @Test func inboxFolderWhoseNameIsNotUTF8IsWatched() throws {
        let scene = try DaemonScene()
        let inbox = scene.folder.file("inboxes").appending(Self.latin1)
        try Sys.makeDirectories(inbox)
        let daemon = try DaemonProcess(
            library: scene.library, arguments: ["--settle", "50"],
            byteArguments: [BytePath("--inbox"), BytePath(bytes: Array("QQ=".utf8) + inbox.bytes)])
        let picture = Pictures.uniqueJPEG(1, tag: "latin-1 inbox")
        try scene.dropByRename(picture, as: "n.jpg", into: inbox)
        #expect(scene.waitForAlbum(count: 1), "\(daemon.log)")
        #expect(scene.contents.rollHashes() == [Pictures.sha256(picture)])
        #expect(waitUntil { (try? Sys.statusIfExists(inbox.appending("n.jpg"))) ?? nil == nil })
        #expect(daemon.terminate() == 0)
    }

    @Test func relativePathsFromAWorkingDirectoryWhoseNameIsNotUTF8() throws {
        let folder = try TemporaryFolder()
        let here = folder.path.appending(Self.latin1)
        try Sys.makeDirectories(here)
        let picture = Pictures.uniqueJPEG(2, tag: "latin-1 cwd")
        try writeFile(here.appending("w.jpg"), picture)
        let saver = try Spawned(
            arguments: ["save", "--album", "QQ", "--library", "library", "w.jpg"].map { BytePath($0) },
            // `env -C` starts it in that folder, its name passed as bytes.
            environment: [:], launcher: [BytePath("/usr/bin/env"), BytePath("-C"), here])
        #expect(saver.wait() == 0, "\(saver.stderrText())")
        let roll = try TestLibrary.files(under: here.appending("library/Roll"))
        #expect(roll.count == 1, "the library is made in the working directory itself")
        #expect(try roll.first.map(readFile) == picture)
    }
}
