import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A Live Photo deleted in a file manager while the daemon runs (both of its roll
/// files removed) goes to Recently Deleted through the daemon's library watch. The
/// daemon is cut at each of its mutating calls (`PHOTOFILER_CRASH_AT`, debug builds)
/// from its start to its stop, then started again: its start-up reconcile ends with
/// the asset deleted and out of its album, its still and its video once each in
/// Recently Deleted, `check` agreeing, and `restore` bringing it back whole. (`LivePhotoCrashTests` cuts the
/// same deletion made by `check --repair`; this is the path the daemon takes.)
@Suite struct LivePhotoRemovedByHandCrashTests {
    @Test(arguments: ["before", "after"])
    func crashWhileTheDaemonTakesARemovedLivePhotoToRecentlyDeleted(moment: String) throws {
        let fixtures = try TemporaryFolder()
        defer { fixtures.remove() }
        let pair = try LivePair(number: 9, in: fixtures)
        try CrashPoints.cutEveryCall(
            "removed by hand while the daemon runs", moment: moment, minimumCalls: 4,
            scenario: { crashAt in
                let (library, id) = try LivePhotoCrashTests.libraryHolding(pair)
                // Removed while it runs; or while it is down, when it was cut on its way up.
                let run = try DaemonProcess.runCut(
                    library: library, crashAt: crashAt,
                    change: { for file in try library.rollFiles() { try Sys.unlink(file) } },
                    until: "is marked deleted")
                return (library, id, run)
            },
            recover: { context, library, id in
                let daemon = try DaemonProcess(library: library.root, arguments: [])
                #expect(daemon.terminate() == 0, "\(context): \(daemon.log)")
                try LivePhotoCrashTests.expectInRecentlyDeletedThenRestored(
                    id, pair, in: library, context: context)
            })
    }
}
