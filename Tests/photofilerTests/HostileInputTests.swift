import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem

/// Hostile inputs in a watched inbox (issue 4): none is followed, none crashes or
/// hangs the daemon, nothing is written outside the library.
@Suite struct HostileInputTests {
    @Test func hostileEntriesAreNeitherFollowedNorFiled() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let staging = folder.file("staging")
        let outside = folder.file("outside")
        let library = folder.file("library")
        for path in [inbox, staging, outside] { try Sys.makeDirectories(path) }
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "20"])
        defer { daemon.terminate() }

        // A picture outside the inbox: whatever points at it must never file it.
        let bait = Pictures.unique(9_999)
        let baitPath = outside.appending("bait.jpg")
        try writeFile(baitPath, bait)
        let passwd = Invariants.hash("/etc/passwd")

        // Something in the library to point at.
        var originals = Set<String>()
        let first = Pictures.unique(0)
        originals.insert(Pictures.hash(first))
        try Pictures.drop(first, at: inbox.appending("first.jpg"), staging: staging)
        #expect(
            waitUntil(timeout: 20) { (try? Sys.status(inbox.appending("first.jpg"))) == nil }, "\(daemon.log)"
        )
        let rollFile = try #require(
            Invariants.regularFiles(under: library.appending("Roll"), excluding: nil).first)

        // Links, special files, a folder named like a picture, an empty file.
        try Sys.symbolicLink(target: "/etc/passwd", at: inbox.appending("passwd.jpg"))
        try Sys.symbolicLink(target: rollFile, at: inbox.appending("roll.jpg"))
        try Sys.symbolicLink(target: library, at: inbox.appending("library-link"))
        try Sys.symbolicLink(target: baitPath, at: inbox.appending("bait-link.jpg"))
        #expect(mkfifo(inbox.appending("fifo.jpg").display, 0o644) == 0)
        if Machine.isRoot {
            #expect(Machine.shell("mknod '\(inbox.appending("null.jpg").display)' c 1 3").status == 0)
        }
        try Sys.makeDirectories(inbox.appending("x.jpg"))
        try writeFile(inbox.appending("empty.jpg"), [])

        // A 4 GiB sparse file that starts like a JPEG: refused as cut short, quickly.
        let sparse = inbox.appending("sparse.jpg")
        let sparseFD = try Sys.createExclusive(sparse)
        try Array(Pictures.sampleJPEG.prefix(600)).withUnsafeBytes { try sparseFD.writeAll($0) }
        #expect(ftruncate(sparseFD.rawValue, 4 << 30) == 0)
        sparseFD.close()
        let sparseDropped = Date()
        #expect(waitUntil(timeout: 20) { daemon.log.contains("sparse.jpg") }, "\(daemon.log)")
        let sparseSeconds = Date().timeIntervalSince(sparseDropped)
        #expect(sparseSeconds < 10, "the sparse file took \(sparseSeconds) s to refuse")

        // Odd names, filed with their bytes intact.
        var names: [BytePath] = [
            BytePath(String(repeating: "a", count: 251) + ".jpg"),
            BytePath(bytes: [0x66, 0xFF, 0xFE, 0x80, 0x2E, 0x6A, 0x70, 0x67]),  // f\xFF\xFE\x80.jpg
            BytePath("new\nline.jpg"),
        ]
        for (index, name) in names.enumerated() {
            let bytes = Pictures.unique(100 + index)
            originals.insert(Pictures.hash(bytes))
            let staged = staging.appending("odd-\(index)")
            try writeFile(staged, bytes)
            try Sys.rename(staged, to: inbox.appending(name))
        }

        // A file swapped for a symbolic link between its event and the open.
        for round in 0..<20 {
            let name = BytePath("race-\(round).jpg")
            try writeFile(inbox.appending(name), Pictures.unique(200 + round))
            try Sys.symbolicLink(target: baitPath, at: staging.appending(name))
            try Sys.rename(staging.appending(name), to: inbox.appending(name))
            names.append(name)
        }

        // The TIFF that made exiv2 throw past gexiv2 (found by fuzzing): it aborted the daemon.
        let tiff = try readFile(
            Binary.packageRoot.appending(
                "Tests/PhotoFilerCoreTests/Media/FuzzInputs/exiv2-overflow-error.tiff"))
        originals.insert(Pictures.hash(tiff))
        try Pictures.drop(tiff, at: inbox.appending("exiv2.tiff"), staging: staging)

        // Still alive and filing: a plain file after all that.
        let last = Pictures.unique(1)
        originals.insert(Pictures.hash(last))
        try Pictures.drop(last, at: inbox.appending("last.jpg"), staging: staging)
        #expect(
            waitUntil(timeout: 20) { (try? Sys.status(inbox.appending("last.jpg"))) == nil }, "\(daemon.log)")
        for name in names.prefix(3) + [BytePath("exiv2.tiff")] {
            #expect(
                waitUntil(timeout: 20) { (try? Sys.status(inbox.appending(name))) == nil },
                "'\(name.display)' was not filed: \(daemon.log)")
        }
        #expect(daemon.process.wait(timeout: 0) == nil, "the daemon is running")

        // Nothing followed: the links, special files and folder stay; their targets are untouched.
        for name in ["passwd.jpg", "roll.jpg", "library-link", "bait-link.jpg"] {
            #expect((try? Sys.status(inbox.appending(name)))?.isSymbolicLink == true, "\(name)")
        }
        #expect((try? Sys.status(inbox.appending("fifo.jpg")))?.kind == .fifo)
        #expect((try? Sys.status(inbox.appending("x.jpg")))?.isDirectory == true)
        #expect((try? Sys.status(inbox.appending("empty.jpg")))?.size == 0)
        #expect(Invariants.hash("/etc/passwd") == passwd)
        #expect(Invariants.hash(baitPath) == Pictures.hash(bait))
        #expect((try Sys.status(baitPath)).linkCount == 1, "the bait was hard-linked into the library")
        #expect((try Sys.status(rollFile)).isRegularFile)
        let log = daemon.log
        #expect(daemon.terminate() == 0, "\(log)")

        try Sys.unlink(sparse)  // 4 GiB of zeros to hash otherwise
        let report = try Invariants(library: library, inboxes: [inbox], originals: originals).check()
        let rolled = Set(
            Invariants.regularFiles(under: library.appending("Roll"), excluding: nil).compactMap(
                Invariants.hash))
        #expect(!rolled.contains(Pictures.hash(bait)), "the bait behind a symbolic link was filed")
        #expect(!rolled.contains(passwd ?? ""), "/etc/passwd was filed")
        // Race files that were filed before the swap are whole pictures of their own.
        let raceHashes = Set((0..<20).map { Pictures.hash(Pictures.unique(200 + $0)) })
        let unexpected = report.violations.filter { violation in
            !raceHashes.contains { violation.contains($0.prefix(12)) }
                && !violation.contains("none of the originals")
        }
        #expect(unexpected.isEmpty, "\(report)")
        #expect(rolled.subtracting(originals).isSubset(of: raceHashes), "\(report)")
        // Non-UTF-8 name kept as bytes.
        let odd = BytePath(bytes: [0x66, 0xFF, 0xFE, 0x80, 0x2E, 0x6A, 0x70, 0x67])
        #expect(
            Invariants.regularFiles(under: library.appending("Roll"), excluding: nil).contains {
                $0.lastComponent == odd
            })
        #expect((try? Sys.status(library.appending("Albums/QQ").appending(odd)))?.isRegularFile == true)
        print(
            "HostileInputTests: sparse 4 GiB refused in \(String(format: "%.2f", sparseSeconds)) s; \(report)"
        )
    }

    /// Album names that are not one safe folder name are refused at start-up.
    @Test(arguments: ["..", ".", "a/b", ""])
    func badAlbumNamesAreRefusedAtStart(name: String) throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let daemon = try DaemonProcess(
            library: folder.file("library"), arguments: ["--inbox", "\(name)=\(inbox.display)"],
            waitForReady: false)
        let status = daemon.process.wait(timeout: 20)
        #expect(status == 2, "\(daemon.log)")
        let lines = daemon.log.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("album name"), "\(daemon.log)")
        #expect((try? Sys.status(folder.file("library/Albums/b"))) == nil)
        #expect((try? Sys.status(folder.file("Albums"))) == nil, "nothing written outside the library")
    }

    /// An album name whose bytes are not UTF-8 is refused (it was filed under a
    /// name with U+FFFD in it), for the daemon and for `save --album` alike.
    @Test func anAlbumNameThatIsNotUTF8IsRefused() throws {
        let folder = try TemporaryFolder()
        let name: [UInt8] = [UInt8(ascii: "Q"), 0xFF, UInt8(ascii: "Q")]
        let daemon = try DaemonProcess(
            library: folder.file("library"), arguments: [],
            byteArguments: [
                "--inbox", BytePath(bytes: name + Array("=\(folder.file("inbox").display)".utf8)),
            ],
            waitForReady: false)
        #expect(daemon.process.wait(timeout: 20) == 2, "\(daemon.log)")
        #expect(daemon.log.contains("is not valid UTF-8"), "\(daemon.log)")
        #expect(try Sys.statusIfExists(folder.file("library").appending("Albums")) == nil, "no album made")

        let library = try TestLibrary()
        let input = try library.input(bytes: Pictures.uniqueJPEG(0, tag: "utf8"), name: "a.jpg")
        let save = try library.run(bytes: ["save", "--album", BytePath(bytes: name), input])
        #expect(save.status == 2, "\(save.stderr)")
        #expect(save.stderr.contains("is not valid UTF-8"), "\(save.stderr)")
        #expect(try library.rollFiles().isEmpty)
    }

    /// NFD and NFC spellings of one name are one album.
    @Test func nfdAndNfcAreOneAlbum() throws {
        let folder = try TemporaryFolder()
        let nfc = "Caf\u{E9}"
        let nfd = "Cafe\u{301}"
        let first = folder.file("first")
        let second = folder.file("second")
        let staging = folder.file("staging")
        let library = folder.file("library")
        for path in [first, second, staging] { try Sys.makeDirectories(path) }
        let daemon = try DaemonProcess(
            library: library,
            arguments: [
                "--inbox", "\(nfd)=\(first.display)", "--inbox", "\(nfc)=\(second.display)", "--settle", "20",
            ])
        try Pictures.drop(Pictures.unique(1), at: first.appending("one.jpg"), staging: staging)
        try Pictures.drop(Pictures.unique(2), at: second.appending("two.jpg"), staging: staging)
        #expect(
            waitUntil(timeout: 20) {
                ((try? Sys.listDirectory(library.appending("Albums/\(nfc)"))) ?? []).count == 2
            },
            "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let albums = try Sys.listDirectory(library.appending("Albums")).map(\.name)
        #expect(albums == [BytePath(nfc)], "\(albums.map(\.bytes))")
    }
}
