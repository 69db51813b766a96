import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A Live Photo's two files through a crash at any mutating call
/// (`PHOTOFILER_CRASH_AT`, debug builds) of what moves, restores or deletes them,
/// then the recovery a user gets (the daemon's start-up reconcile, or
/// `check --repair`, and the same command again): never a file lost, never a second
/// roll name, one asset in its albums. First, issue 14: a still filed after its
/// video, from another month, moves the video beside it in the Roll.
@Suite struct LivePhotoCrashTests {
    @Test(arguments: ["before", "after"])
    func crashWhileTheVideoMovesBesideItsStill(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 4, videoCreated: "2024-02-10T08:00:00+0100", in: fixtures)
        try CrashPoints.cutEveryCall(
            "video moves beside its still", moment: moment, minimumCalls: 10,
            scenario: { crashAt in
                // The video is filed in WeChat; its still is saved into QQ.
                let library = try TestLibrary()
                try library.save(
                    [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
                let still = try library.input(bytes: pair.still, name: BytePath(pair.stillName))
                let run = try library.run(
                    "save", "--album", "QQ", "--move", still.display,
                    environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, still, run)
            },
            recover: { context, library, still in
                let daemon = try DaemonProcess(library: library.root, arguments: [])
                #expect(daemon.terminate() == 0, "\(context): \(daemon.log)")
                if (try Sys.statusIfExists(still)) != nil {
                    let again = try library.run("save", "--album", "QQ", "--move", still.display)
                    #expect(again.status == 0, "\(context), the save again: \(again.stderr)")
                }
                let rollFiles = try library.rollFiles()
                #expect(rollFiles.count == 2, "\(context): \(rollFiles.map(\.display))")
                for album in ["QQ", "WeChat"] {
                    let entries = try library.entries(ofAlbum: album)
                    #expect(entries.count == 2, "\(context): \(album) holds \(entries.map(\.display))")
                }
                _ = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
            })
    }

    /// A still moved by hand to another folder of the Roll, its video following it
    /// (`check --repair` here, as the daemon's reconcile does): a crash at any
    /// mutating call, then `check --repair` again, ends with the still and the video
    /// once each (never lost, never a second name), the video beside the still, one
    /// Live Photo, both in the album, and `check` content.
    @Test(arguments: ["before", "after"])
    func crashWhileTheVideoFollowsItsMovedStill(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 5, in: fixtures)
        try CrashPoints.cutEveryCall(
            "moved still", moment: moment, minimumCalls: 2,
            scenario: { crashAt in
                let (library, _) = try Self.libraryHolding(pair)
                let still = try #require(
                    try library.rollFiles().first { $0.lastComponent == BytePath(pair.stillName) })
                let folder = library.root.appending("Roll").appending("2001").appending("02")
                try Sys.makeDirectories(folder)
                try Sys.rename(still, to: folder.appending(still.lastComponent))
                let run = try library.run("check", "--repair", environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, folder, run)
            },
            recover: { context, library, folder in
                let again = try library.run("check", "--repair")
                #expect(again.status == 0, "\(context): \(again.stdout)\(again.stderr)")
                let rollFiles = try library.rollFiles()
                let contents = Set(try rollFiles.map { try readFile($0) })
                #expect(
                    rollFiles.count == 2 && contents == [pair.still, pair.video],
                    "\(context): \(rollFiles.map(\.display))")
                #expect(
                    rollFiles.allSatisfy { $0.parent == folder },
                    "the still stays where it was moved, and its video is beside it: \(context)")
                #expect(try library.entries(ofAlbum: "QQ").count == 2, "\(context)")
                #expect(
                    try library.list("--media", "live").count == 1 && library.list().count == 1, "\(context)")
                #expect(try library.run("check").status == 0, "\(context)")
            })
    }

    /// A deleted Live Photo brought back by its video's bytes saved again (its still
    /// from Recently Deleted): a crash at any mutating call of that `save`, then a
    /// daemon start (its reconcile adopts what the crash left) and the same `save`
    /// again, ends with the Live Photo restored once, in both albums, its two
    /// files once each in the Roll and nothing left in Recently Deleted.
    @Test(arguments: ["before", "after"])
    func crashWhileItsVideoBringsADeletedLivePhotoBack(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 6, in: fixtures)
        try CrashPoints.cutEveryCall(
            "video brings it back", moment: moment, minimumCalls: 4,
            scenario: { crashAt in
                let (library, id) = try Self.libraryHolding(pair)
                #expect(try library.run("rm", "\(id)").status == 0)
                let video = try library.input(bytes: pair.video, name: "again.MOV")
                let run = try library.run(
                    "save", "--album", "WeChat", "--move", video.display,
                    environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, video, run)
            },
            recover: { context, library, video in
                let daemon = try DaemonProcess(library: library.root, arguments: [])
                #expect(daemon.terminate() == 0, "\(context): \(daemon.log)")
                if (try Sys.statusIfExists(video)) != nil {
                    let again = try library.run("save", "--album", "WeChat", "--move", video.display)
                    #expect(again.status == 0, "\(context), the save again: \(again.stderr)")
                }
                let rollFiles = try library.rollFiles()
                let contents = Set(try rollFiles.map { try readFile($0) })
                #expect(
                    rollFiles.count == 2 && contents == [pair.still, pair.video],
                    "\(context): \(rollFiles.map(\.display))")
                _ = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
                let trash = LibraryContents.files(below: library.root.appending("Recently Deleted"))
                #expect(trash.isEmpty, "\(context): \(trash.map(\.display))")
                let check = try library.run("check")
                #expect(check.status == 0, "\(context): \(check.stdout)")
            })
    }

    /// Both halves of a Live Photo removed from the Roll by hand (a file manager's
    /// selection of the two): the reconcile keeps both in Recently Deleted from their
    /// album entries (`check --repair` here; the daemon's reconcile takes the same
    /// steps). A crash at any mutating call, then `check --repair` again, ends with
    /// the asset deleted, its still and its video once each in Recently Deleted, and
    /// `restore` bringing the Live Photo back whole.
    @Test(arguments: ["before", "after"])
    func crashWhileBothRemovedHalvesGoToRecentlyDeleted(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 7, in: fixtures)
        try CrashPoints.cutEveryCall(
            "both halves removed", moment: moment, minimumCalls: 4,
            scenario: { crashAt in
                let (library, id) = try Self.libraryHolding(pair)
                for file in try library.rollFiles() { try Sys.unlink(file) }
                let run = try library.run("check", "--repair", environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, id, run)
            },
            recover: { context, library, id in
                let again = try library.run("check", "--repair")
                #expect(again.status == 0, "\(context): \(again.stdout)\(again.stderr)")
                try Self.expectInRecentlyDeletedThenRestored(id, pair, in: library, context: context)
            })
    }

    /// `photofiler rm` of a Live Photo: a crash at any mutating call, then
    /// `check --repair` and, when the asset is still there, the same `rm` again, ends
    /// with the asset deleted, its still and its video once each in Recently Deleted,
    /// and `restore` bringing it back whole. (A crash after the deletion is recorded
    /// but before the roll files go leaves them in the Roll: the repair takes that as
    /// the asset brought back, and the `rm` is made again.)
    @Test(arguments: ["before", "after"])
    func crashWhileRmTakesItToRecentlyDeleted(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 8, in: fixtures)
        try CrashPoints.cutEveryCall(
            "rm", moment: moment, minimumCalls: 4,
            scenario: { crashAt in
                let (library, id) = try Self.libraryHolding(pair)
                let run = try library.run("rm", "\(id)", environment: ["PHOTOFILER_CRASH_AT": crashAt])
                return (library, id, run)
            },
            recover: { context, library, id in
                let repair = try library.run("check", "--repair")
                #expect(repair.status == 0, "\(context): \(repair.stdout)\(repair.stderr)")
                if try !library.list().isEmpty {
                    let again = try library.run("rm", "\(id)")
                    #expect(again.status == 0, "\(context), the rm again: \(again.stderr)")
                }
                try Self.expectInRecentlyDeletedThenRestored(id, pair, in: library, context: context)
            })
    }

    /// The Live Photo `id` is deleted: nothing of it in the Roll or in an album
    /// (`check` agrees), its still and its video once each in Recently Deleted;
    /// `restore` brings it back whole into QQ.
    static func expectInRecentlyDeletedThenRestored(
        _ id: Int64, _ pair: LivePair, in library: TestLibrary, context: String
    ) throws {
        #expect(try library.list().isEmpty, "\(context)")
        #expect(try library.rollFiles().isEmpty, "\(context)")
        let deleted = try library.run("check")
        #expect(deleted.status == 0, "\(context): \(deleted.stdout)")
        #expect(LibraryContents(library: library.root).albumEntries("QQ").isEmpty, "\(context)")
        let trash = LibraryContents.files(below: library.root.appending("Recently Deleted"))
        let kept = try trash.map { try readFile($0) }
        #expect(
            kept.count == 2 && Set(kept) == [pair.still, pair.video], "\(context): \(trash.map(\.display))")
        let restore = try library.run("restore", "\(id)")
        #expect(restore.status == 0, "\(context): \(restore.stderr)")
        #expect(try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ"]) == id, "\(context)")
        let check = try library.run("check")
        #expect(check.status == 0, "\(context): \(check.stdout)")
    }

    /// A fresh library holding `pair` as one Live Photo in QQ, and its id.
    static func libraryHolding(_ pair: LivePair) throws -> (TestLibrary, Int64) {
        let library = try TestLibrary()
        let id = try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")[0]
        return (library, id)
    }
}
