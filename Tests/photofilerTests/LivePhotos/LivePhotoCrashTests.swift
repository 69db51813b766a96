import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// Issue 14: a Live Photo's still filed after its video, from another month, moves
/// the video beside it in the Roll. A crash at any mutating call of that `save`
/// (`PHOTOFILER_CRASH_AT`, debug builds), then a daemon restart (its start-up
/// reconcile pairs what is left) and the same `save` again, must end with one
/// asset, one still and one video in the Roll (never a second roll name for the
/// video), both linked into each album.
@Suite struct LivePhotoCrashTests {
    static let crashStatus: Int32 = 86

    @Test(arguments: ["before", "after"])
    func crashWhileTheVideoMovesBesideItsStill(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 4, videoCreated: "2024-02-10T08:00:00+0100", in: fixtures)
        // A calibration run counts the save's mutating calls; every one is then a crash
        // point (a call that fails as expected, such as a taken name, never crashes "after").
        let calibration = try Self.run(pair, crashAt: "count")
        calibration.library.folder.remove()
        let calls = GroupCrashTests.mutatingCalls(in: calibration.run.stderr) ?? 0
        try #require(calls > 10, "the save made only \(calls) mutating calls")
        var crashed = 0
        for point in 1...calls {
            let context = "crash \(moment):\(point)"
            let (library, still, run) = try Self.run(pair, crashAt: "\(moment):\(point)")
            guard run.status == Self.crashStatus else {
                #expect(run.status == 0, "\(context): \(run.stderr)")
                library.folder.remove()
                continue
            }
            crashed += 1
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
            library.folder.remove()
        }
        #expect(crashed * 2 > calls, "only \(crashed) of \(calls) points crashed")
        print("LivePhotoCrashTests(\(moment)): \(calls) mutating calls, \(crashed) crashes recovered")
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
        func moved(crashAt: String) throws -> (TestLibrary, BytePath, Binary.Result) {
            let library = try TestLibrary()
            try library.save(
                [
                    try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                    try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
                ], album: "QQ")
            let still = try #require(
                try library.rollFiles().first { $0.lastComponent == BytePath(pair.stillName) })
            let folder = library.root.appending("Roll").appending("2001").appending("02")
            try Sys.makeDirectories(folder)
            try Sys.rename(still, to: folder.appending(still.lastComponent))
            let run = try library.run("check", "--repair", environment: ["PHOTOFILER_CRASH_AT": crashAt])
            return (library, folder, run)
        }
        let calibration = try moved(crashAt: "count")
        calibration.0.folder.remove()
        let calls = GroupCrashTests.mutatingCalls(in: calibration.2.stderr) ?? 0
        try #require(calls > 2, "the repair made only \(calls) mutating calls")
        var crashed = 0
        for point in 1...calls {
            let context = "crash \(moment):\(point)"
            let (library, folder, run) = try moved(crashAt: "\(moment):\(point)")
            defer { library.folder.remove() }
            guard run.status == Self.crashStatus else { continue }
            crashed += 1
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
            #expect(try library.list("--media", "live").count == 1 && library.list().count == 1, "\(context)")
            #expect(try library.run("check").status == 0, "\(context)")
        }
        #expect(crashed > 0, "no point of \(calls) crashed")
        print(
            "LivePhotoCrashTests(moved still, \(moment)): \(calls) mutating calls, \(crashed) crashes recovered"
        )
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
        func restored(crashAt: String) throws -> (TestLibrary, BytePath, Binary.Result) {
            let library = try TestLibrary()
            let id = try library.save(
                [
                    try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                    try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
                ], album: "QQ")[0]
            #expect(try library.run("rm", "\(id)").status == 0)
            let video = try library.input(bytes: pair.video, name: "again.MOV")
            let run = try library.run(
                "save", "--album", "WeChat", "--move", video.display,
                environment: ["PHOTOFILER_CRASH_AT": crashAt])
            return (library, video, run)
        }
        let calibration = try restored(crashAt: "count")
        calibration.0.folder.remove()
        let calls = GroupCrashTests.mutatingCalls(in: calibration.2.stderr) ?? 0
        try #require(calls > 4, "the save made only \(calls) mutating calls")
        var crashed = 0
        for point in 1...calls {
            let context = "crash \(moment):\(point)"
            let (library, video, run) = try restored(crashAt: "\(moment):\(point)")
            defer { library.folder.remove() }
            guard run.status == Self.crashStatus else {
                #expect(run.status == 0, "\(context): \(run.stderr)")
                continue
            }
            crashed += 1
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
        }
        #expect(crashed * 2 > calls, "only \(crashed) of \(calls) points crashed")
        print(
            "LivePhotoCrashTests(video brings it back, \(moment)): \(calls) mutating calls, \(crashed) crashes recovered"
        )
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
        func removed(crashAt: String) throws -> (TestLibrary, Int64, Binary.Result) {
            let library = try TestLibrary()
            let id = try library.save(
                [
                    try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                    try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
                ], album: "QQ")[0]
            for file in try library.rollFiles() { try Sys.unlink(file) }
            let run = try library.run("check", "--repair", environment: ["PHOTOFILER_CRASH_AT": crashAt])
            return (library, id, run)
        }
        let calibration = try removed(crashAt: "count")
        calibration.0.folder.remove()
        let calls = GroupCrashTests.mutatingCalls(in: calibration.2.stderr) ?? 0
        try #require(calls > 4, "the repair made only \(calls) mutating calls")
        var crashed = 0
        for point in 1...calls {
            let context = "crash \(moment):\(point)"
            let (library, id, run) = try removed(crashAt: "\(moment):\(point)")
            defer { library.folder.remove() }
            guard run.status == Self.crashStatus else {
                #expect(run.status == 0, "\(context): \(run.stdout)\(run.stderr)")
                continue
            }
            crashed += 1
            let again = try library.run("check", "--repair")
            #expect(again.status == 0, "\(context): \(again.stdout)\(again.stderr)")
            #expect(try library.list().isEmpty, "\(context)")
            let trash = LibraryContents.files(below: library.root.appending("Recently Deleted"))
            let kept = try trash.map { try readFile($0) }
            #expect(
                kept.count == 2 && Set(kept) == [pair.still, pair.video],
                "\(context): \(trash.map(\.display))")
            let restore = try library.run("restore", "\(id)")
            #expect(restore.status == 0, "\(context): \(restore.stderr)")
            #expect(try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ"]) == id, "\(context)")
            let check = try library.run("check")
            #expect(check.status == 0, "\(context): \(check.stdout)")
        }
        #expect(crashed * 2 > calls, "only \(crashed) of \(calls) points crashed")
        print(
            "LivePhotoCrashTests(both halves removed, \(moment)): \(calls) mutating calls, \(crashed) crashes recovered"
        )
    }

    /// A fresh library holding the video in WeChat; its still saved into QQ with
    /// `PHOTOFILER_CRASH_AT=crashAt`.
    static func run(_ pair: LivePair, crashAt: String) throws -> (
        library: TestLibrary, still: BytePath, run: Binary.Result
    ) {
        let library = try TestLibrary()
        try library.save(
            [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
        let still = try library.input(bytes: pair.still, name: BytePath(pair.stillName))
        let run = try library.run(
            "save", "--album", "QQ", "--move", still.display, environment: ["PHOTOFILER_CRASH_AT": crashAt])
        return (library, still, run)
    }
}
