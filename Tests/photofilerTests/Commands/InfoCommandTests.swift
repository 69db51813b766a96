import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// `info ID|PATH`: every way of naming one asset gives the same asset.
@Suite
struct InfoCommandTests {
    @Test func idRollPathAndAlbumEntriesGiveTheSameAsset() throws {
        let library = try TestLibrary()
        let input = try library.input(corpus: "throbber.gif")
        let ids = try library.save([input], album: "Hard")
        try library.save([input], album: "Soft", extra: ["--link", "symbolic"])
        let id = try #require(ids.first)
        let roll = try #require(try library.rollFiles().first)
        let hardEntry = library.album("Hard").appending("throbber.gif")
        let softEntry = library.album("Soft").appending("throbber.gif")
        #expect(try Sys.status(hardEntry).isRegularFile)
        #expect(try Sys.status(softEntry).isSymbolicLink)
        for reference in [BytePath(String(id)), roll, hardEntry, softEntry, input] {
            let asset = try library.info(reference)
            #expect(assetID(asset) == id, "info \(reference)")
            #expect(asset["path"] as? String == roll.display, "info \(reference)")
            #expect(Set(asset["albums"] as? [String] ?? []) == ["Hard", "Soft"], "info \(reference)")
        }
        let text = try library.run("info", roll.display)
        #expect(text.status == 0)
        #expect(text.stdout.contains("id: \(id)"), "\(text.stdout)")
    }

    @Test func unknownReferencesFail() throws {
        let library = try TestLibrary()
        try library.save([try library.input(corpus: "throbber.gif")], album: "QQ")
        let stranger = try library.input(
            bytes: Array("not a picture of this library".utf8), name: "other.txt")
        let references = [
            library.inputs.appending("missing.jpg"), stranger, BytePath("999"),
            library.album("QQ").appending("nothing-here.gif"),
        ]
        for reference in references {
            let result = try library.run("info", reference.display)
            #expect(result.status == 1, "info \(reference): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(result.stderr.contains(reference.display), "names it: \(result.stderr)")
            #expect(!result.stderr.contains("Error Domain="))
        }
    }
}
