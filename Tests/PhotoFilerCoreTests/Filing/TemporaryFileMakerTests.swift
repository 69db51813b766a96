import PhotoFilerSystem
import Testing

@testable import PhotoFilerFiling

/// A temporary file's name carries its maker's pid: what a reconcile reads to leave
/// a running process's files alone.
@Suite struct TemporaryFileMakerTests {
    @Test func aTemporaryNameTellsItsMaker() {
        #expect(Reconciler.makerPID(of: "filing-4242-7.tmp") == 4242)
        #expect(Reconciler.makerPID(of: "repoint-4242.lnk") == 4242)
        #expect(Reconciler.makerPID(of: ".thumbnail-out-4242-1.tmp") == 4242)
        #expect(Reconciler.makerPID(of: "left-by-hand") == nil)
    }
}
