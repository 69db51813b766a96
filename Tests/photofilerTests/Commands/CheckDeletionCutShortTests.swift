import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A deletion records the asset as deleted, then removes its album entries: a
/// crash in between leaves entries of an asset in Recently Deleted. `check` names
/// each; `--repair` removes those that lose nothing (a name of the very file
/// Recently Deleted keeps, a symbolic link) and leaves anything else under such a
/// name alone, as it leaves every entry that is not a roll asset.
@Suite
struct CheckDeletionCutShortTests {
    @Test func entriesADeletionLeftGoAndAnythingElseStays() throws {
        let library = try TestLibrary()
        let ids = try library.save(
            [
                try library.input(corpus: "throbber.gif"),
                try library.input(corpus: "progressive_go_video-001.jpeg"),
            ],
            album: "QQ")
        let contents = LibraryContents(library: library.root)
        let entries = contents.albumEntries("QQ").sorted()
        try #require(entries.count == 2)
        let removed = try library.run("rm", "\(ids[0])", "\(ids[1])")
        try #require(removed.status == 0, "\(removed.stderr)")
        let kept = LibraryContents.files(below: library.root.appending("Recently Deleted"))
        try #require(kept.count == 2)
        // As a deletion cut short leaves them: the first entry a name of its kept
        // file again; under the second's name, a file of the user's own.
        let first = try #require(kept.first { try readFile($0) == readFile(Fixtures.corpus("throbber.gif")) })
        let entryOfFirst = try #require(entries.first { $0.lastComponent.display.hasPrefix("throbber") })
        let entryOfSecond = try #require(entries.first { $0 != entryOfFirst })
        try Sys.link(first, to: entryOfFirst)
        try writeFile(entryOfSecond, Pictures.uniqueJPEG(1, tag: "the user's own"))

        let check = try library.run("check")
        #expect(check.status == 1)
        let lines = check.stdout.split(separator: "\n").map(String.init).sorted()
        #expect(
            lines == [
                "album entry of an asset in Recently Deleted: 'QQ/\(entryOfFirst.lastComponent.display)' (asset \(ids[0]))",
                "album entry that is not a roll asset: 'QQ/\(entryOfSecond.lastComponent.display)'",
            ], "\(check.stdout)")

        let repair = try library.run("check", "--repair")
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(contents.albumEntries("QQ") == [entryOfSecond], "the user's file stays")
        #expect(LibraryContents.files(below: library.root.appending("Recently Deleted")).count == 2)
        let restore = try library.run("restore", "\(ids[0])")
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try library.list().first?["albums"] as? [String] == ["QQ"])
    }

    /// A Live Photo's two entries are judged each on its own: the still's entry, a
    /// name of its kept file, goes; a file of the user's own under the video entry's
    /// name stays.
    @Test func aLivePhotosEntriesAreJudgedEachOnItsOwn() throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 10, in: fixtures)
        let (library, id) = try LivePhotoCrashTests.libraryHolding(pair)
        let album = library.root.appending("Albums/QQ")
        let removed = try library.run("rm", "\(id)")
        try #require(removed.status == 0, "\(removed.stderr)")
        let kept = LibraryContents.files(below: library.root.appending("Recently Deleted"))
        let keptStill = try #require(try kept.first { try readFile($0) == pair.still })
        let stillEntry = album.appending(pair.stillName)
        let videoEntry = album.appending(pair.videoName)
        try Sys.link(keptStill, to: stillEntry)
        try writeFile(videoEntry, Pictures.uniqueJPEG(2, tag: "the user's own, named as the video was"))

        let check = try library.run("check")
        #expect(
            check.stdout.split(separator: "\n").sorted() == [
                "album entry of an asset in Recently Deleted: 'QQ/\(pair.stillName)' (asset \(id))",
                "album entry that is not a roll asset: 'QQ/\(pair.videoName)'",
            ], "\(check.stdout)")
        let repair = try library.run("check", "--repair")
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(
            LibraryContents(library: library.root).albumEntries("QQ") == [videoEntry], "the user's file stays"
        )
    }
}
