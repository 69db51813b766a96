import PhotoFilerSystem
import TestSupport
import Testing

/// Crash points off the filing path's own suites: a scenario cut at each of its
/// mutating calls, and the recovery a user gets checked after each cut.
enum CrashPoints {
    /// The status a process exits with at an injected crash (`PHOTOFILER_CRASH_AT`).
    static let crashStatus: Int32 = 86

    /// Cuts `scenario` at each of its mutating calls (`PHOTOFILER_CRASH_AT`, debug
    /// builds), `moment` it, and hands every library that crashed to `recover`, which
    /// recovers and checks it. A calibration run counts the calls first; a run that
    /// does not crash (a call that fails as expected, such as a taken name, never
    /// crashes "after") must succeed, and most must crash.
    static func cutEveryCall<Scene>(
        _ label: String, moment: String, minimumCalls: Int,
        scenario: (_ crashAt: String) throws -> (TestLibrary, Scene, Binary.Result),
        recover: (_ context: String, _ library: TestLibrary, _ scene: Scene) throws -> Void
    ) throws {
        let calibration = try scenario("count")
        calibration.0.folder.remove()
        let calls = GroupCrashTests.mutatingCalls(in: calibration.2.stderr) ?? 0
        try #require(calls > minimumCalls, "\(label): only \(calls) mutating calls")
        var crashed = 0
        for point in 1...calls {
            let context = "\(label), crash \(moment):\(point)"
            let (library, scene, run) = try scenario("\(moment):\(point)")
            defer { library.folder.remove() }
            guard run.status == crashStatus else {
                #expect(run.status == 0, "\(context): \(run.stdout)\(run.stderr)")
                continue
            }
            crashed += 1
            try recover(context, library, scene)
        }
        #expect(crashed * 2 > calls, "\(label): only \(crashed) of \(calls) points crashed")
        print(
            "Crash points (\(label), \(moment)): \(calls) mutating calls, \(crashed) crashes recovered")
    }
}
