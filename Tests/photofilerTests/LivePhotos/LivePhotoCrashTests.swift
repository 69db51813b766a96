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
        var point = 1
        while point < 400 {
            let context = "crash \(moment):\(point)"
            let library = try TestLibrary()
            try library.save(
                [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
            let still = try library.input(bytes: pair.still, name: BytePath(pair.stillName))
            let run = try library.run(
                "save", "--album", "QQ", "--move", still.display,
                environment: ["PHOTOFILER_CRASH_AT": "\(moment):\(point)"])
            if run.status != Self.crashStatus {
                #expect(run.status == 0, "\(context): \(run.stderr)")
                break
            }
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
            point += 1
        }
        #expect(point > 10, "the save made only \(point - 1) mutating calls")
        print("LivePhotoCrashTests(\(moment)): \(point - 1) crash points recovered")
    }
}
