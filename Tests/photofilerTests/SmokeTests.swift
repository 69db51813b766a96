import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// The shortest path through the product: a file saved by the command line, and a
/// file dropped into a watched inbox.
@Suite struct SmokeTests {
    @Test func saveThenListShowsTheAsset() throws {
        let folder = try TemporaryFolder()
        let picture = folder.file("mmexport1701428096000.jpg")
        try copyFile(Binary.packageRoot.appending("examples/pictures/mmexport1701428096000.jpg"), to: picture)
        let library = folder.file("library").display
        let saved = try Binary.run("save", "--library", library, "--album", "QQ", picture.display)
        #expect(saved.status == 0, "\(saved.stderr)")
        let id = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try Binary.run("list", "--library", library, "--json")
        let assets = try #require(try listed.json() as? [[String: Any]])
        #expect(assets.count == 1)
        #expect("\(assets[0]["id"] ?? "")" == id)
        #expect(assets[0]["albums"] as? [String] == ["QQ"])
    }

    @Test func daemonFilesARenamedFile() throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let library = folder.file("library")
        let daemon = try DaemonProcess(
            library: library, arguments: ["--inbox", "QQ=\(inbox.display)", "--settle", "50"])
        let staged = folder.file("staged.jpg")
        try copyFile(Binary.packageRoot.appending("examples/pictures/mmexport1701428096000.jpg"), to: staged)
        try Sys.rename(staged, to: inbox.appending("a.jpg"))
        let entry = library.appending("Albums/QQ/a.jpg")
        #expect(waitUntil { (try? Sys.status(entry)) != nil }, "\(daemon.log)")
        #expect(waitUntil { (try? Sys.status(inbox.appending("a.jpg"))) == nil })
        #expect(daemon.terminate() == 0)
    }
}
