import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `check [--repair]`: the catalog against the disk, the disk being the truth.
@Suite
struct CheckCommandTests {
    /// `throbber.gif` and `progressive…` in the album QQ, `cmyk…` in no album (also
    /// `CheckUnreadableRollFileTests`' library).
    static func library() throws -> TestLibrary {
        let library = try TestLibrary()
        try library.save(
            [
                try library.input(corpus: "throbber.gif"),
                try library.input(corpus: "progressive_go_video-001.jpeg"),
            ],
            album: "QQ")
        try library.save([try library.input(corpus: "cmyk_go_video-001.jpeg")])
        return library
    }

    func rollFile(_ name: String, in library: TestLibrary) throws -> BytePath {
        try #require(try library.rollFiles().first { $0.lastComponent.display == name })
    }

    /// hash → albums, from `list --json`.
    func membership(_ library: TestLibrary) throws -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for asset in try library.list() {
            result[asset["hash"] as? String ?? "?"] = Set(asset["albums"] as? [String] ?? [])
        }
        return result
    }

    /// With `--json`, stdout is one JSON document: the differences, or with
    /// `--repair` what was mended and what is left (never lines before it).
    @Test func jsonOutputIsOneDocument() throws {
        let library = try Self.library()
        try writeFile(library.album("QQ").appending("stray.txt"), Array("notes\n".utf8))
        let check = try library.run("check", "--json", "--quiet")
        #expect(check.status == 1)
        let listed = try JSONSerialization.jsonObject(with: Data(check.stdoutBytes)) as? [String]
        #expect(listed == ["album entry that is not a roll asset: 'QQ/stray.txt'"], "\(check.stdout)")

        let repair = try library.run("check", "--repair", "--json", "--quiet")
        #expect(repair.status == 0, "done; an entry that is no roll asset is never deleted: \(repair.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(repair.stdoutBytes)) as? [String: Any]
        #expect(report?["repaired"] as? Int == 0, "\(repair.stdout)")
        #expect(report?["remaining"] as? Int == 1)
        #expect(
            report?["differences"] as? [String] == ["album entry that is not a roll asset: 'QQ/stray.txt'"])
    }

    @Test func cleanLibraryExitsZeroSilently() throws {
        let library = try Self.library()
        let result = try library.run("check")
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
    }

    @Test func repairRebuildsALostCatalog() throws {
        let library = try Self.library()
        try library.save(
            [try library.input(corpus: "throbber.gif")], album: "WeChat", extra: ["--link", "symbolic"])
        let before = try membership(library)
        #expect(before.count == 3)
        for suffix in ["", "-wal", "-shm"] {
            try Sys.unlinkIfPresent(BytePath(bytes: library.catalog.bytes + Array(suffix.utf8)))
        }
        let repaired = try library.run("check", "--repair")
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(!repaired.stderr.contains("Error Domain="))
        #expect(try membership(library) == before, "the same assets in the same albums")
        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.isEmpty)
    }

    /// `library()` with a second name of its roll file `throbber.gif` in Recently
    /// Deleted that no row keeps (what a restore or deletion cut short leaves).
    func libraryWithASecondNameInRecentlyDeleted() throws -> (TestLibrary, BytePath, BytePath) {
        let library = try Self.library()
        let trash = library.root.appending("Recently Deleted")
        try Sys.makeDirectories(trash)
        let secondName = trash.appending("throbber.gif")
        try Sys.link(try rollFile("throbber.gif", in: library), to: secondName)
        return (library, trash, secondName)
    }

    /// A restore or deletion cut short leaves names in Recently Deleted that no row
    /// keeps, holding a live roll file's bytes: a second name of the roll file, or a
    /// copy of its bytes. `check --repair` removes them, unless a deletion holds the
    /// lock. A file there whose bytes no roll file holds (a roll file changed since,
    /// or no asset's), and one a deleted asset keeps, stay.
    @Test func repairRemovesWhatARestoreCutShortLeftInRecentlyDeleted() throws {
        let (library, trash, secondName) = try libraryWithASecondNameInRecentlyDeleted()
        let copy = trash.appending("a copy.jpeg")
        try writeFile(copy, try readFile(try rollFile("cmyk_go_video-001.jpeg", in: library)))
        // The catalog's hash of this roll file is no longer its bytes: the copy is the only one.
        let changed = try rollFile("progressive_go_video-001.jpeg", in: library)
        let original = trash.appending("the original.jpeg")
        try writeFile(original, try readFile(changed))
        try writeFile(changed, Pictures.uniqueJPEG(2, tag: "edited by hand"))
        let stranger = trash.appending("notes.txt")
        try writeFile(stranger, Array("my notes".utf8))
        let deleted = try library.save([
            try library.input(bytes: Pictures.uniqueJPEG(1, tag: "gone"), name: "gone.jpg")
        ])
        #expect(try library.run("rm", "\(deleted[0])").status == 0)
        let keptByARow = LibraryContents.files(below: trash).filter {
            ![secondName, copy, original, stranger].contains($0)
        }
        #expect(keptByARow.count == 1, "\(keptByARow.map(\.display))")
        let everything = Set(LibraryContents.files(below: trash))

        // While a deletion holds the lock (it may be about to record a name), all stay.
        let lock = try Sys.openOrCreate(library.root.appending(".photofiler/recently-deleted.lock"))
        try lock.lockShared()
        let held = try library.run("check", "--repair")
        #expect(held.status == 0, "\(held.stdout)\(held.stderr)")
        #expect(Set(LibraryContents.files(below: trash)) == everything)
        lock.close()

        _ = try library.run("check", "--repair")
        #expect(Set(LibraryContents.files(below: trash)) == Set(keptByARow + [original, stranger]))
        #expect(try library.run("restore", "\(deleted[0])").status == 0)
    }

    /// A name in Recently Deleted that cannot be read (injected with
    /// `PHOTOFILER_FAIL_PATH`, since the tests may run as root) is said once and left;
    /// the repair still succeeds and tidies the rest.
    @Test func aLeftoverThatCannotBeReadStaysAndTheRestIsTidied() throws {
        let (library, trash, _) = try libraryWithASecondNameInRecentlyDeleted()
        let unreadable = trash.appending("unreadable.jpeg")
        try Sys.link(try rollFile("cmyk_go_video-001.jpeg", in: library), to: unreadable)

        let repaired = try library.run(
            "check", "--repair", environment: ["PHOTOFILER_FAIL_PATH": "open:EACCES:unreadable"])
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(LibraryContents.files(below: trash) == [unreadable])
        #expect(repaired.stderr.contains("unreadable.jpeg"), "\(repaired.stderr)")
        #expect(repaired.stderr.contains("It is left in Recently Deleted."), "\(repaired.stderr)")
    }

    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case rollFileRemoved, rollFileAdded, rollFileChanged, albumEntryRemoved, albumLinkAdded
        var testDescription: String { rawValue }
        /// What the one line of `check` says.
        var expected: String {
            switch self {
            case .rollFileRemoved: return "missing roll file"
            case .rollFileAdded: return "roll file without a row"
            case .rollFileChanged: return "wrong hash"
            case .albumEntryRemoved: return "membership without a link"
            case .albumLinkAdded: return "link without a membership"
            }
        }
    }

    @Test(arguments: Change.allCases)
    func eachDifferenceIsOneLine(change: Change) throws {
        let library = try Self.library()
        let cmyk = try rollFile("cmyk_go_video-001.jpeg", in: library)
        let name: String
        switch change {
        case .rollFileRemoved:
            try Sys.unlink(cmyk)
            name = "cmyk_go_video-001.jpeg"
        case .rollFileAdded:
            let folder = library.root.appending("Roll/2001/02")
            try Sys.makeDirectories(folder)
            try copyFile(
                Fixtures.corpus("polemonium_reptans.jpg"), to: folder.appending("by-hand.jpg"))
            name = "by-hand.jpg"
        case .rollFileChanged:
            var bytes = try readFile(cmyk)
            bytes[bytes.count / 2] ^= 0xFF
            let fd = try Sys.open(cmyk, flags: O_WRONLY)
            try bytes.withUnsafeBytes { try fd.writeAll($0) }
            fd.close()
            name = "cmyk_go_video-001.jpeg"
        case .albumEntryRemoved:
            try Sys.unlink(library.album("QQ").appending("throbber.gif"))
            name = "throbber.gif"
        case .albumLinkAdded:
            try Sys.link(cmyk, to: library.album("QQ").appending("added.jpeg"))
            name = "added.jpeg"
        }
        let result = try library.run("check")
        #expect(result.status == 1, "\(change): \(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(change): one line: \(result.stdout)")
        #expect(lines.first?.contains(change.expected) == true, "\(change): \(result.stdout)")
        #expect(lines.first?.contains(name) == true, "\(change): names the file: \(result.stdout)")

        let repaired = try library.run("check", "--repair")
        #expect(repaired.status == 0, "\(change): \(repaired.stdout)\(repaired.stderr)")
        let after = try library.run("check")
        #expect(after.status == 0, "\(change): after repair: \(after.stdout)\(after.stderr)")
        switch change {
        case .rollFileRemoved:
            #expect(try library.list().count == 2, "the asset is marked deleted")
            // Its name is free again for other content.
            let namesake = try library.input(corpus: "polemonium_reptans.jpg", as: "cmyk_go_video-001.jpeg")
            try library.save([namesake])
            #expect(try sha256(of: cmyk) == (try sha256(of: namesake)))
        case .rollFileAdded:
            #expect(try library.list().contains { $0["originalName"] as? String == "by-hand.jpg" }, "adopted")
        case .rollFileChanged:
            let asset = try #require(try library.info(cmyk) as [String: Any]?)
            #expect(asset["hash"] as? String == (try sha256(of: cmyk)), "the catalog takes the disk's hash")
        case .albumEntryRemoved:
            #expect(try library.list("--album", "QQ").count == 1, "the membership ended")
        case .albumLinkAdded:
            #expect(try library.list("--album", "QQ").count == 3, "the membership was added")
        }
    }
}
