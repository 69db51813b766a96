import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A user fixing a date folder (`mv Roll/2023/12 Roll/2023/11`) in symbolic-link
/// mode: the still and its video move together, and every album link of both,
/// the video's too, is pointed at the new folder (photofiler(1) "Deletion": a move is not a
/// deletion; the asset keeps its albums).
@Suite struct LivePhotoDateFolderTests {
    @Test(arguments: ["while the daemon runs", "while no daemon runs"])
    func aRenamedDateFolderTakesTheVideosSymbolicLinksAlong(when: String) throws {
        let scene = try DaemonScene()
        let arguments = ["--settle", "100", "--link", "symbolic"]
        var daemon = try scene.start(arguments)
        let pair = try LivePair(number: 40, in: scene.folder)
        try scene.dropByRename(pair.still, as: pair.stillName, into: scene.inbox())
        try scene.dropByRename(pair.video, as: pair.videoName, into: scene.inbox())
        #expect(
            waitUntil(timeout: 20) { (try? listJSON(scene.library, ["--media", "live"]))?.count == 1 },
            "\(daemon.log)")
        let month = BytePath(try #require(try listJSON(scene.library, []).first?["path"] as? String)).parent
        let renamed = month.parent.appending("11")
        #expect(month != renamed)
        if when == "while no daemon runs" { #expect(daemon.terminate() == 0) }
        try Sys.rename(month, to: renamed)
        if when == "while no daemon runs" { daemon = try scene.start(arguments) }
        #expect(
            waitUntil(timeout: 10) {
                let live = try? listJSON(scene.library, ["--media", "live"]).first
                let video = (live?["liveVideo"] as? [String: Any])?["path"] as? String
                return (live?["path"] as? String).map { BytePath($0).parent == renamed } == true
                    && video.map { BytePath($0).parent == renamed } == true
            }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let entries = scene.contents.albumEntries("QQ")
        #expect(entries.count == 2)
        for entry in entries {
            let target = try Sys.status(entry, followLinks: true)
            #expect(target.isRegularFile, "\(entry.display) points into \(renamed.display)")
        }
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }
}
