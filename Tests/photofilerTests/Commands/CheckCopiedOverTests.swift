import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A roll file copied over with another asset's bytes (`cp b.jpg a.jpg` in the
/// Roll): recording its new hash would give two assets one content, which the
/// catalog refuses. It is told as what it is, left for the user to settle, and
/// the rest is repaired (before, the repair and the daemon's reconcile stopped on
/// SQLite's UNIQUE constraint).
@Suite
struct CheckCopiedOverTests {
    @Test func aRollFileHoldingAnotherAssetsBytesIsToldAndTheRestIsRepaired() throws {
        let library = try TestLibrary()
        let ids = try library.save(
            [try library.input(corpus: "Landscape_1.jpg"), try library.input(corpus: "Landscape_6.jpg")],
            album: "QQ")
        let rollFiles = try library.rollFiles()
        let a = try #require(rollFiles.first { $0.lastComponent == "Landscape_1.jpg" })
        let b = try #require(rollFiles.first { $0.lastComponent == "Landscape_6.jpg" })
        try writeFile(a, try readFile(b))
        // A second difference, which the repair mends.
        try Sys.unlink(library.album("QQ").appending("Landscape_6.jpg"))
        let told =
            "asset \(ids[0]) 'Roll/\(a.parent.parent.lastComponent.display)/\(a.parent.lastComponent.display)/Landscape_1.jpg' holds the bytes of asset \(ids[1])"

        let check = try library.run("check")
        #expect(check.status == 1)
        #expect(check.stdout.contains(told), "\(check.stdout)")

        let repair = try library.run("check", "--repair")
        #expect(repair.status == 1, "\(repair.stdout)\(repair.stderr)")
        #expect(!repair.stderr.contains("SQLite"), "\(repair.stderr)")
        #expect(
            repair.stdout.split(separator: "\n") == [
                Substring(
                    "roll file holding another asset's bytes: " + told
                        + ": put asset \(ids[0])'s own picture back under this name if it is elsewhere (files swapped or copied over), or remove this file and its album entries"
                )
            ], "told once: \(repair.stdout)")
        #expect(
            try library.list("--album", "QQ").compactMap(assetID) == [ids[0]],
            "the membership left with its entry")

        let daemon = try DaemonProcess(library: library.root, arguments: [])
        #expect(daemon.waitForLog("Reconciled (start-up)"), "the start-up reconcile ends: \(daemon.log)")
        #expect(daemon.log.contains(told), "\(daemon.log)")
        #expect(daemon.terminate() == 0)
    }
}
