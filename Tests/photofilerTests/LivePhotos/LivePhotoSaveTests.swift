import Foundation
import LivePhotoFixtures
import PhotoFilerSystem
import TestSupport
import Testing

/// Live Photos through `save` (photofiler(1) "Live Photos"): either half first, or both at
/// once, makes one asset; pairing is by content identifier only.
@Suite struct LivePhotoSaveTests {
    @Test func stillFirstThenVideo() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 1, in: library.folder)
        let stillID = try library.save(
            [try library.input(bytes: pair.still, name: BytePath(pair.stillName))], album: "QQ")
        let joined = try library.save(
            [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
        #expect(joined == stillID, "save names the asset the video joined")
        let id = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
        #expect([id] == stillID)
    }

    @Test func videoFirstThenStillKeepsTheStillsIDAndRetiresTheVideos() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 2, in: library.folder)
        let videoID = try library.save(
            [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
        #expect(try library.list("--media", "video").count == 1, "a lone video is filed as it is")
        let stillID = try library.save(
            [try library.input(bytes: pair.still, name: BytePath(pair.stillName))], album: "QQ")
        let id = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
        #expect([id] == stillID)
        #expect(stillID != videoID)
        // The video's id is retired: no asset has it, and no new asset gets it.
        #expect(try library.run("info", "\(videoID[0])").status == 1)
        let next = try library.save([
            try library.input(bytes: Pictures.uniqueJPEG(99, tag: "next"), name: "next.jpg")
        ])
        #expect(next[0] > videoID[0] && next[0] > stillID[0])
    }

    /// Both halves in one `save`, in either order: one asset, whose id is printed
    /// for each (never the video's retired one).
    @Test(arguments: ["video first", "still first"])
    func bothAtOnce(order: String) throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: order == "video first" ? 3 : 4, in: library.folder)
        var files = [
            try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
        ]
        if order == "still first" { files.reverse() }
        let ids = try library.save(files, album: "QQ", extra: ["--move"])
        let asset = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ"])
        #expect(ids == [asset, asset])
    }

    /// The video was taken in another month than the still: it moves beside it.
    @Test func videoFromAnotherMonthMovesBesideTheStill() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 4, videoCreated: "2024-02-10T08:00:00+0100", in: library.folder)
        try library.save(
            [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
        try library.save([try library.input(bytes: pair.still, name: BytePath(pair.stillName))], album: "QQ")
        _ = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
    }

    @Test func anotherIdentifierStaysTwoAssets() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 5, in: library.folder)
        let other = try LivePair(number: 6, in: library.folder)
        // The still of one pair and the video of another, under one base name.
        try library.save([try library.input(bytes: pair.still, name: "IMG_0005.JPG")], album: "QQ")
        try library.save([try library.input(bytes: other.video, name: "IMG_0005.MOV")], album: "QQ")
        #expect(try library.list().count == 2)
        #expect(try library.list("--media", "live").isEmpty)
        #expect(try library.list("--media", "video").count == 1)
    }

    /// A camera's IMG_1234.JPG and an unrelated IMG_1234.MOV: no identifiers, two assets.
    @Test func sharedBaseNameAloneStaysTwoAssets() throws {
        let library = try TestLibrary()
        let movie = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:57+0100", in: library.folder)
        try library.save(
            [
                try library.input(bytes: Pictures.uniqueJPEG(7, tag: "camera"), name: "IMG_1234.JPG"),
                try library.input(bytes: movie, name: "IMG_1234.MOV"),
            ], album: "QQ")
        #expect(try library.list().count == 2)
        #expect(try library.list("--media", "live").isEmpty)
        #expect(try library.albums()["Live Photos"]?["count"] as? Int == 0)
    }

    @Test func theVideoAgainIsTheSameAsset() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 8, in: library.folder)
        let id = try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")
        let again = try library.save(
            [try library.input(bytes: pair.video, name: "copy.MOV")], album: "WeChat")
        #expect(again == [id[0]])
        _ = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
    }

    @Test func rmAndRestoreMoveBoth() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 9, in: library.folder)
        try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")
        let id = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ"])
        #expect(try library.run("rm", "\(id)").status == 0)
        let contents = LibraryContents(library: library.root)
        #expect(contents.rollFiles().isEmpty)
        #expect(contents.albumEntries("QQ").isEmpty)
        let trash = Set(
            LibraryContents.files(below: library.root.appending("Recently Deleted")).compactMap {
                try? readFile($0)
            }.map(Pictures.sha256))
        #expect(trash == [Pictures.sha256(pair.still), Pictures.sha256(pair.video)])
        #expect(try library.albums()["Recently Deleted"]?["count"] as? Int == 1)
        #expect(try library.run("restore", "\(id)").status == 0)
        #expect(try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ"]) == id)
        #expect(LibraryContents.files(below: library.root.appending("Recently Deleted")).isEmpty)
        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)")
    }

    /// photofiler(1) "Never lose, never duplicate": dropping the bytes of an asset in Recently Deleted brings
    /// it back. A Live Photo's video does too: the Live Photo is restored whole
    /// (its still from Recently Deleted), and no second copy of the video is made.
    /// Both halves dropped again at once bring it back once.
    @Test(arguments: ["the video", "both halves"])
    func itsBytesDroppedAgainBringADeletedLivePhotoBack(dropped: String) throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: dropped == "the video" ? 32 : 33, in: library.folder)
        let id = try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")[0]
        #expect(try library.run("rm", "\(id)").status == 0)

        var again = [try library.input(bytes: pair.video, name: "again.MOV")]
        if dropped == "both halves" { again.append(try library.input(bytes: pair.still, name: "again.JPG")) }
        let ids = try library.save(again, album: "WeChat", extra: ["--move"])
        #expect(ids == again.map { _ in id }, "save names the Live Photo it brought back")
        #expect(try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"]) == id)
        #expect(LibraryContents.files(below: library.root.appending("Recently Deleted")).isEmpty)
        for file in again {
            #expect(try Sys.statusIfExists(file) == nil, "\(file.display) was filed and moved")
        }
        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func checkRepairFindsThePairAgainFromTheFiles() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 10, in: library.folder)
        try library.save([try library.input(bytes: pair.still, name: BytePath(pair.stillName))], album: "QQ")
        try library.save(
            [try library.input(bytes: pair.video, name: BytePath(pair.videoName))], album: "WeChat")
        _ = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
        for suffix in ["", "-wal", "-shm"] { try? Sys.unlink(BytePath(library.catalog.display + suffix)) }
        let repair = try library.run("check", "--repair")
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        _ = try expectOneLivePhoto(in: library.root, pair: pair, albums: ["QQ", "WeChat"])
        let check = try library.run("check")
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func checkVerifiesThePairedVideosBytes() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 14, in: library.folder)
        try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")
        let asset = try #require(try library.list("--media", "live").first)
        let video = BytePath(try #require((asset["liveVideo"] as? [String: Any])?["path"] as? String))
        var changed = pair.video
        changed[changed.count - 1] ^= 0xFF
        try Sys.unlink(video)  // the album's hard link keeps the old bytes
        try writeFile(video, changed)
        let check = try library.run("check")
        #expect(check.status == 1)
        #expect(
            check.stdout.contains("wrong hash") && check.stdout.contains(pair.videoName), "\(check.stdout)")
        #expect(try library.run("check", "--repair").status == 0)
        let after = try library.run("check")
        #expect(after.stdout.contains("wrong hash") == false, "\(after.stdout)")
    }

    @Test func googleMotionPhotoExportsItsVideoByteForByte() throws {
        let library = try TestLibrary()
        let mp4 = try LivePhotoFixtures.movie(
            contentIdentifier: nil, created: "2023-12-01T12:34:56+0100", container: "mp4", in: library.folder)
        let motion = try LivePhotoFixtures.googleMotionPhoto(
            Pictures.uniqueJPEG(11, tag: "motion"), video: mp4, in: library.folder)
        let id = try library.save(
            [try library.input(bytes: motion, name: "PXL_20231201_123456789.MP.jpg")], album: "QQ")
        let assets = try library.list("--media", "live")
        try #require(assets.count == 1)
        let video = try #require(assets[0]["liveVideo"] as? [String: Any])
        #expect(video["embedded"] as? Bool == true)
        #expect(video["path"] is NSNull)
        #expect((video["size"] as? NSNumber)?.intValue == mp4.count)
        // The file is never rewritten.
        #expect(try readFile(BytePath(assets[0]["path"] as? String ?? "")) == motion)
        let out = library.folder.file("exported.mp4")
        #expect(try library.run("export", "\(id[0])", "--video", "-o", out.display).status == 0)
        #expect(try readFile(out) == mp4)
        let piped = try library.run("export", "\(id[0])", "--video")
        #expect(piped.stdoutBytes == mp4)
        #expect(try library.albums()["Live Photos"]?["count"] as? Int == 1)
    }

    @Test func exportOfAPairedVideoAndOfAPlainPicture() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 12, in: library.folder)
        let id = try library.save([
            try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
            try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
        ])
        #expect(try library.run("export", "\(id[0])", "--video").stdoutBytes == pair.video)
        let plain = try library.save([
            try library.input(bytes: Pictures.uniqueJPEG(13, tag: "plain"), name: "plain.jpg")
        ])
        let refused = try library.run("export", "\(plain[0])", "--video")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not a Live Photo"))
    }

    /// A lone video deleted, its still filed meanwhile, then the video restored:
    /// the two are one Live Photo again, with the still's id.
    @Test func aRestoredHalfPairsWithTheOtherHalfFiledMeanwhile() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 16, in: library.folder)
        let video = try library.save([try library.input(bytes: pair.video, name: BytePath(pair.videoName))])
        #expect(try library.run("rm", "\(video[0])").status == 0)
        let still = try library.save([try library.input(bytes: pair.still, name: BytePath(pair.stillName))])
        let restore = try library.run("restore", "\(video[0])")
        #expect(restore.status == 0, "\(restore.stderr)")
        let listed = try library.list()
        #expect(listed.count == 1 && assetID(listed[0]) == still[0], "\(listed)")
        #expect((listed.first?["subtypes"] as? [String])?.contains("live") == true)
        #expect(try library.run("check").status == 0)
    }

    /// A failed export leaves the file `-o` names as it was; a video missing from
    /// the library is said to be missing, with the command that finds the rest.
    @Test func aFailedExportLeavesItsOutputAlone() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 14, in: library.folder)
        let id = try library.save([
            try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
            try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
        ])
        let plain = try library.save([
            try library.input(bytes: Pictures.uniqueJPEG(15, tag: "plain"), name: "plain.jpg")
        ])
        let notes = library.folder.file("notes.txt")
        try writeFile(notes, Array("my notes\n".utf8))
        for reference in ["\(plain[0])", "999"] {
            #expect(try library.run("export", reference, "--video", "-o", notes.display).status == 1)
            #expect(try readFile(notes) == Array("my notes\n".utf8), "export \(reference)")
        }

        let live = try library.info(BytePath("\(id[0])"))
        let video = try #require((live["liveVideo"] as? [String: Any])?["path"] as? String)
        try Sys.unlink(BytePath(video))
        let missing = try library.run("export", "\(id[0])", "--video", "-o", notes.display)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("'\(video)' is missing from the library; 'photofiler check'"),
            "\(missing.stderr)")
        #expect(try readFile(notes) == Array("my notes\n".utf8))
    }

    /// A video filed before its still has thumbnails of its own; once the two are one
    /// Live Photo (shown by its still's), they go.
    @Test func aLoneVideosThumbnailsGoOnceItIsPaired() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 22, in: library.folder)
        let video = try library.input(bytes: pair.video, name: BytePath(pair.videoName))
        let videoHash = try sha256(of: video)
        _ = try library.save([video])
        let thumbnails = library.root.appending(".photofiler/thumbnails")
        func named(_ hash: String) -> [BytePath] {
            regularFiles(under: thumbnails).filter { $0.lastComponent.display.hasPrefix(hash) }
        }
        #expect(named(videoHash).count == 2, "the lone video's two sizes")
        let still = try library.input(bytes: pair.still, name: BytePath(pair.stillName))
        let stillHash = try sha256(of: still)
        _ = try library.save([still])
        #expect(try library.list("--media", "live").count == 1)
        #expect(named(videoHash).isEmpty, "\(regularFiles(under: thumbnails))")
        #expect(named(stillHash).count == 2)
    }

    /// While no daemon ran, the still's entry moved to another album and the video
    /// removed from the Roll: the repair makes it a plain still in the new album only.
    @Test func aStillMovedToAnotherAlbumWhileItsVideoIsGoneIsRepaired() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 33, in: library.folder)
        let id = try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")[0]
        try library.save([try library.input(corpus: "Landscape_1.jpg")], album: "Trip")
        let live = try library.info(BytePath("\(id)"))
        try Sys.unlink(BytePath(try #require((live["liveVideo"] as? [String: Any])?["path"] as? String)))
        let still = BytePath(pair.stillName)
        try Sys.rename(library.album("QQ").appending(still), to: library.album("Trip").appending(still))

        let repair = try library.run("check", "--repair")
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        let asset = try library.info(BytePath("\(id)"))
        #expect(asset["liveVideo"] == nil, "\(asset)")
        #expect(asset["albums"] as? [String] == ["Trip"], "\(asset)")
        #expect(try library.entries(ofAlbum: "QQ").isEmpty)
        #expect(try library.run("check").status == 0)
    }
}
