import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A Live Photo's still entry moved by hand from QQ to Trip while the daemon runs:
/// the daemon links the video entry into Trip, records the move, then removes the
/// video entry from QQ. It is cut at each of its mutating calls from its start to
/// its stop, then started again: its start-up reconcile ends with the Live Photo in
/// Trip only, QQ empty, and `check` agreeing, wherever the cut fell.
@Suite struct LivePhotoAlbumMoveCrashTests {
    @Test func crashWhileTheDaemonMovesALivePhotoToAnotherAlbum() throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 32, in: fixtures)
        try CrashPoints.cutEveryCall(
            "Live Photo moved to another album", moment: "before", minimumCalls: 3,
            scenario: { crashAt in
                let (library, id) = try LivePhotoCrashTests.libraryHolding(pair)
                try library.save([try library.input(corpus: "Landscape_1.jpg")], album: "Trip")
                let still = BytePath(pair.stillName)
                let run = try DaemonProcess.runCut(
                    library: library, crashAt: crashAt,
                    change: {
                        try Sys.rename(
                            library.album("QQ").appending(still), to: library.album("Trip").appending(still))
                    }, until: "joined Trip")
                return (library, id, run)
            },
            recover: { context, library, id in
                let daemon = try DaemonProcess(library: library.root, arguments: [])
                #expect(daemon.terminate() == 0, "\(context): \(daemon.log)")
                let live = try library.list("--media", "live")
                #expect(live.compactMap(assetID) == [id], "\(context): \(live)")
                #expect(live.first?["albums"] as? [String] == ["Trip"], "\(context): \(live)")
                #expect(try library.entries(ofAlbum: "QQ").isEmpty, "\(context)")
                let check = try library.run("check")
                #expect(check.status == 0, "\(context): \(check.stdout)")
            })
    }
}
