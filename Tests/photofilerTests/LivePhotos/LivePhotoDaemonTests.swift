import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// Live Photos through `photofiler watch`: either half may arrive first, in any
/// inbox, across a restart; within 2 s of the second half the two are one asset.
/// Deleting the still takes the video along; deleting the video leaves a still.
@Suite struct LivePhotoDaemonTests {
    /// Drops one half, waits until it is filed on its own, then the other.
    private func dropInTurn(
        _ first: (bytes: [UInt8], name: String, inbox: String),
        _ second: (bytes: [UInt8], name: String, inbox: String), scene: DaemonScene, daemon: DaemonProcess,
        restartBetween: Bool = false, inboxes: [String]
    ) throws -> DaemonProcess {
        var daemon = daemon
        try scene.dropByRename(first.bytes, as: first.name, into: scene.inbox(first.inbox))
        #expect(scene.waitForAlbum(first.inbox, count: 1), "\(daemon.log)")
        if restartBetween {
            #expect(daemon.terminate() == 0)
            daemon = try scene.start(["--settle", "100"], inboxes: inboxes)
        }
        try scene.dropByRename(second.bytes, as: second.name, into: scene.inbox(second.inbox))
        return daemon
    }

    /// Drops `pair` (still, then video) and returns the one Live Photo it makes, as `list --json` shows it.
    private func fileLivePhoto(
        _ pair: LivePair, stillName: String? = nil, scene: DaemonScene, daemon: DaemonProcess
    ) throws -> [String: Any] {
        try scene.dropByRename(pair.still, as: stillName ?? pair.stillName, into: scene.inbox())
        try scene.dropByRename(pair.video, as: pair.videoName, into: scene.inbox())
        #expect(waitForOneLivePhoto(scene, daemon: daemon), "\(daemon.log)")
        return try #require(try listJSON(scene.library, []).first)
    }

    private func waitForOneLivePhoto(_ scene: DaemonScene, daemon: DaemonProcess) -> Bool {
        waitUntil(timeout: 20) {
            ((try? listJSON(scene.library, ["--media", "live"]))?.count == 1)
                && ((try? listJSON(scene.library, []))?.count == 1)
        }
    }

    @Test(arguments: ["still first", "video first", "still first, restart", "video first, restart"])
    func eitherHalfFirstInTwoInboxes(order: String) throws {
        let scene = try DaemonScene()
        let inboxes = ["QQ", "WeChat"]
        let daemon = try scene.start(["--settle", "100"], inboxes: inboxes)
        let pair = try LivePair(number: 20, in: scene.folder)
        let still = (pair.still, pair.stillName, "QQ")
        let video = (pair.video, pair.videoName, "WeChat")
        let restart = order.hasSuffix("restart")
        let running =
            try order.hasPrefix("still")
            ? dropInTurn(
                still, video, scene: scene, daemon: daemon, restartBetween: restart, inboxes: inboxes)
            : dropInTurn(
                video, still, scene: scene, daemon: daemon, restartBetween: restart, inboxes: inboxes)
        #expect(waitForOneLivePhoto(scene, daemon: running), "\(running.log)")
        _ = try expectOneLivePhoto(in: scene.library, pair: pair, albums: inboxes)
        #expect(running.terminate() == 0)
    }

    /// Symbolic album links, and a video from another month that moves beside its
    /// still: its entries are made again to point at its new place.
    @Test func symbolicLinksFollowTheMovedVideo() throws {
        let scene = try DaemonScene()
        let inboxes = ["QQ", "WeChat"]
        let daemon = try scene.start(["--settle", "100", "--link", "symbolic"], inboxes: inboxes)
        let pair = try LivePair(number: 25, videoCreated: "2024-03-01T09:00:00+0100", in: scene.folder)
        let running = try dropInTurn(
            (pair.video, pair.videoName, "WeChat"), (pair.still, pair.stillName, "QQ"), scene: scene,
            daemon: daemon, inboxes: inboxes)
        #expect(waitForOneLivePhoto(scene, daemon: running), "\(running.log)")
        _ = try expectOneLivePhoto(in: scene.library, pair: pair, albums: inboxes)
        for album in inboxes {
            for entry in scene.contents.albumEntries(album) {
                #expect(try Sys.status(entry).isSymbolicLink, "\(entry.display)")
            }
        }
        #expect(running.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func bothAtOnce() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let pair = try LivePair(number: 21, in: scene.folder)
        try scene.dropByRename(pair.video, as: pair.videoName, into: scene.inbox())
        try scene.dropByRename(pair.still, as: pair.stillName, into: scene.inbox())
        #expect(waitForOneLivePhoto(scene, daemon: daemon), "\(daemon.log)")
        _ = try expectOneLivePhoto(in: scene.library, pair: pair, albums: ["QQ"])
        #expect(daemon.terminate() == 0)
    }

    /// Both halves were dropped while no daemon ran: filed and paired at start-up.
    @Test func bothDroppedWhileStopped() throws {
        let scene = try DaemonScene()
        let pair = try LivePair(number: 22, in: scene.folder)
        try Sys.makeDirectories(scene.inbox())
        try scene.dropByRename(pair.still, as: pair.stillName, into: scene.inbox())
        try scene.dropByRename(pair.video, as: pair.videoName, into: scene.inbox())
        let daemon = try scene.start(["--settle", "100"])
        #expect(waitForOneLivePhoto(scene, daemon: daemon), "\(daemon.log)")
        _ = try expectOneLivePhoto(in: scene.library, pair: pair, albums: ["QQ"])
        #expect(daemon.terminate() == 0)
    }

    @Test func removingTheStillTakesTheVideoToRecentlyDeleted() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let pair = try LivePair(number: 23, in: scene.folder)
        let asset = try fileLivePhoto(pair, scene: scene, daemon: daemon)
        let stillPath = BytePath(try #require(asset["path"] as? String))
        try Sys.unlink(stillPath)  // a file manager's delete
        #expect(
            waitUntil(timeout: 10) { (try? listJSON(scene.library, []))?.isEmpty == true }, "\(daemon.log)")
        #expect(
            waitUntil(timeout: 10) { scene.contents.rollFiles().isEmpty }, "the video stays: \(daemon.log)")
        #expect(waitUntil(timeout: 10) { scene.contents.albumEntries("QQ").isEmpty }, "\(daemon.log)")
        let trash = LibraryContents.files(below: scene.library.appending("Recently Deleted")).compactMap {
            try? readFile($0)
        }
        #expect(trash.contains(pair.video), "the video is kept in Recently Deleted")
        #expect(daemon.terminate() == 0)
    }

    /// A file manager's delete of both halves (their selection, their date folder):
    /// the video's bytes are kept from its album entry, as the still's are, and
    /// `restore` brings the Live Photo back whole, while running or after a stop. The
    /// daemon handles a batch's removals in name order: a video whose name sorts first
    /// (`IMG_0028.MOV` before `IMG_0028.jpg`) is not taken for removed alone.
    @Test(arguments: ["running", "stopped", "running, the video's name first"])
    func removingBothHalvesKeepsBothInRecentlyDeleted(daemonWas: String) throws {
        let scene = try DaemonScene()
        var daemon = try scene.start(["--settle", "100"])
        let videoFirst = daemonWas.hasSuffix("first")
        let pair = try LivePair(number: videoFirst ? 28 : daemonWas == "running" ? 25 : 26, in: scene.folder)
        let asset = try fileLivePhoto(
            pair, stillName: videoFirst ? "IMG_0028.jpg" : pair.stillName, scene: scene, daemon: daemon)
        let video = try #require(asset["liveVideo"] as? [String: Any])
        if daemonWas == "stopped" { #expect(daemon.terminate() == 0) }
        try Sys.unlink(BytePath(try #require(asset["path"] as? String)))
        try Sys.unlink(BytePath(try #require(video["path"] as? String)))
        if daemonWas == "stopped" { daemon = try scene.start(["--settle", "100"]) }
        #expect(
            waitUntil(timeout: 10) { (try? listJSON(scene.library, []))?.isEmpty == true }, "\(daemon.log)")
        #expect(waitUntil(timeout: 10) { scene.contents.albumEntries("QQ").isEmpty }, "\(daemon.log)")
        let trash = LibraryContents.files(below: scene.library.appending("Recently Deleted")).compactMap {
            try? readFile($0)
        }
        #expect(trash.contains(pair.still) && trash.contains(pair.video), "\(daemon.log)")

        let id = try #require(assetID(asset))
        let restore = try Binary.run("restore", "--library", scene.library.display, "\(id)")
        #expect(restore.status == 0, "\(restore.stderr)")
        let restored = try #require(try listJSON(scene.library, ["--media", "live"]).first, "\(daemon.log)")
        #expect(assetID(restored) == assetID(asset))
        #expect(waitUntil(timeout: 10) { scene.contents.albumEntries("QQ").count == 2 }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func removingOnlyTheVideoLeavesAPlainStill() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let pair = try LivePair(number: 24, in: scene.folder)
        let asset = try fileLivePhoto(pair, scene: scene, daemon: daemon)
        let video = try #require(asset["liveVideo"] as? [String: Any])
        try Sys.unlink(BytePath(try #require(video["path"] as? String)))
        #expect(
            waitUntil(timeout: 10) { (try? listJSON(scene.library, ["--media", "live"]))?.isEmpty == true },
            "\(daemon.log)")
        let still = try #require(try listJSON(scene.library, []).first)
        #expect(assetID(still) == assetID(asset))
        #expect(still["liveVideo"] == nil)
        #expect((still["subtypes"] as? [String])?.contains("live") == false)
        #expect(waitUntil(timeout: 10) { scene.contents.albumEntries("QQ").count == 1 }, "\(daemon.log)")
        #expect(try readFile(scene.contents.albumEntries("QQ")[0]) == pair.still)
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// A half removed while no daemon ran is noticed at start-up, as photofiler(1) "Live Photos" says.
    @Test(arguments: ["still", "video"])
    func removalWhileStoppedIsReconciledAtStartUp(half: String) throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let pair = try LivePair(number: half == "still" ? 26 : 27, in: scene.folder)
        let asset = try fileLivePhoto(pair, scene: scene, daemon: daemon)
        #expect(daemon.terminate() == 0)
        let video = try #require(asset["liveVideo"] as? [String: Any])
        let removed = half == "still" ? asset["path"] as? String : video["path"] as? String
        try Sys.unlink(BytePath(try #require(removed)))
        let restarted = try scene.start(["--settle", "100"])
        if half == "still" {
            #expect(try listJSON(scene.library, []).isEmpty, "\(restarted.log)")
            #expect(scene.contents.rollFiles().isEmpty, "the video went along: \(restarted.log)")
        } else {
            let still = try #require(try listJSON(scene.library, []).first)
            #expect(assetID(still) == assetID(asset))
            #expect(still["liveVideo"] == nil)
            #expect(scene.contents.albumEntries("QQ").count == 1, "\(restarted.log)")
        }
        #expect(restarted.terminate() == 0)
    }

    /// A move is not a deletion: the video renamed within the Roll stays the asset's video.
    @Test func theVideoMovedWithinTheRollStaysTheAssetsVideo() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let pair = try LivePair(number: 28, in: scene.folder)
        let asset = try fileLivePhoto(pair, scene: scene, daemon: daemon)
        let video = BytePath(try #require((asset["liveVideo"] as? [String: Any])?["path"] as? String))
        let renamed = video.parent.appending("renamed.MOV")
        try Sys.rename(video, to: renamed)
        #expect(
            waitUntil(timeout: 10) {
                let live = try? listJSON(scene.library, ["--media", "live"])
                return (live?.first?["liveVideo"] as? [String: Any])?["path"] as? String == renamed.display
            }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// The still moved to another date folder (a user fixing its year): its video
    /// follows it, as photofiler(1) keeps a Live Photo's video in its still's folder.
    @Test func theVideoFollowsItsStillMovedToAnotherFolder() throws {
        let scene = try DaemonScene()
        let daemon = try scene.start(["--settle", "100"])
        let pair = try LivePair(number: 29, in: scene.folder)
        let asset = try fileLivePhoto(pair, scene: scene, daemon: daemon)
        let still = BytePath(try #require(asset["path"] as? String))
        let folder = scene.library.appending("Roll").appending("2001").appending("02")
        try Sys.makeDirectories(folder)
        try Sys.rename(still, to: folder.appending(still.lastComponent))
        #expect(
            waitUntil(timeout: 10) {
                let live = try? listJSON(scene.library, ["--media", "live"]).first
                let path = (live?["liveVideo"] as? [String: Any])?["path"] as? String
                return path.map { BytePath($0).parent == folder } ?? false
            }, "\(daemon.log)")
        #expect(
            scene.contents.rollFiles().allSatisfy { $0.parent == folder }, "\(scene.contents.rollFiles())")
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// The still's entry moved to another album by hand (alone, or with its video's,
    /// as a file manager moves a selection): the Live Photo leaves the first album
    /// whole and is in the second with both entries; no reconcile brings it back.
    @Test(arguments: ["the still alone", "both entries"])
    func aLivePhotoMovedToAnotherAlbumTakesItsVideoAlong(how: String) throws {
        let scene = try DaemonScene()
        var daemon = try scene.start(["--settle", "100"], inboxes: ["QQ", "Trip"])
        let pair = try LivePair(number: how == "both entries" ? 31 : 30, in: scene.folder)
        let asset = try fileLivePhoto(pair, scene: scene, daemon: daemon)
        try scene.dropByRename(Pictures.uniqueJPEG(0, tag: "trip"), as: "trip.jpg", into: scene.inbox("Trip"))
        #expect(scene.waitForAlbum("Trip", count: 1), "\(daemon.log)")
        let qq = scene.library.appending("Albums").appending("QQ")
        let trip = scene.library.appending("Albums").appending("Trip")
        let entries = try Sys.listDirectory(qq).map(\.name)
        try #require(entries.count == 2, "\(entries)")
        let still = try #require(entries.first { $0.display == pair.stillName })
        try Sys.rename(qq.appending(still), to: trip.appending(still))
        if how == "both entries" {
            let video = try #require(entries.first { $0 != still })
            try Sys.rename(qq.appending(video), to: trip.appending(video))
        }
        func inTripOnly() -> Bool {
            let albums = (try? listJSON(scene.library, ["--media", "live"]))?.first?["albums"] as? [String]
            return albums == ["Trip"] && scene.contents.albumEntries("QQ").isEmpty
                && scene.contents.albumEntries("Trip").count == 3
        }
        #expect(waitUntil(timeout: 10) { inTripOnly() }, "\(daemon.log)")
        #expect(daemon.terminate() == 0)
        let check = try Binary.run("check", "--library", scene.library.display)
        #expect(check.status == 0, "\(check.stdout)")
        daemon = try scene.start(["--settle", "100"], inboxes: ["QQ", "Trip"])
        #expect(inTripOnly(), "the start-up reconcile keeps it: \(daemon.log)")
        #expect(
            assetID(try #require(try listJSON(scene.library, ["--media", "live"]).first)) == assetID(asset))
        #expect(daemon.terminate() == 0)
    }
}
