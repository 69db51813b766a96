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
