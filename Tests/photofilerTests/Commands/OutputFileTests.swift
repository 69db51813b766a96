import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `thumb -o` and `export --video -o` write where they are told, except over a file
/// of the library, whatever name leads to it (photofiler(1): nothing in the Roll or an album
/// is ever overwritten).
@Suite
struct OutputFileTests {
    @Test func noOutputNameLeadsOverALibraryFile() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 21, in: library.folder)
        let id = try library.save(
            [
                try library.input(bytes: pair.still, name: BytePath(pair.stillName)),
                try library.input(bytes: pair.video, name: BytePath(pair.videoName)),
            ], album: "QQ")
        let live = try library.info(BytePath("\(id[0])"))
        let still = BytePath(try #require(live["path"] as? String))
        let video = BytePath(try #require((live["liveVideo"] as? [String: Any])?["path"] as? String))
        let entry = library.album("QQ").appending(try #require(try library.entries(ofAlbum: "QQ").first))
        let symbolicLink = library.folder.file("link.jpg")
        try Sys.symbolicLink(target: still, at: symbolicLink)
        let hardLink = library.folder.file("hard.jpg")
        try Sys.link(still, to: hardLink)
        let albumLink = library.folder.file("album")
        try Sys.symbolicLink(target: library.album("QQ"), at: albumLink)
        let before = try [still, video].map { try readFile($0) }

        let attempts: [[String]] = [
            ["thumb", "\(id[0])", "-o", still.display],
            ["thumb", "\(id[0])", "-o", entry.display],
            ["thumb", "\(id[0])", "-o", symbolicLink.display],
            ["thumb", "\(id[0])", "-o", hardLink.display],
            ["thumb", "\(id[0])", "-o", albumLink.appending("new.jpg").display],
            ["export", "\(id[0])", "--video", "-o", video.display],
        ]
        for arguments in attempts {
            let result = try library.run(bytes: arguments.map { BytePath($0) })
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("photofiler never writes there; give -o a new file outside"),
                "\(result.stderr)")
        }
        #expect(try [still, video].map { try readFile($0) } == before)
        #expect(try Sys.statusIfExists(library.album("QQ").appending("new.jpg")) == nil)
        try Sys.unlink(hardLink)
        #expect(try library.run("check").status == 0)

        // Not a regular file (/dev/stdout into a pipe): written as it is.
        let piped = library.folder.file("piped.jpg")
        let command =
            "'\(Binary.path.display)' thumb \(id[0]) --library '\(library.root.display)' -o /dev/stdout | cat > '\(piped.display)'"
        let shell = Machine.shell(command)
        #expect(shell.status == 0, "\(shell.output)")
        #expect(try readFile(piped).starts(with: [0xFF, 0xD8, 0xFF]), "\(shell.output)")

        // A file of its own outside the library is written over, cut to the new length.
        let own = library.folder.file("own.jpg")
        try writeFile(own, [UInt8](repeating: 7, count: 4 << 20))
        #expect(try library.run("thumb", "\(id[0])", "-o", own.display).status == 0)
        let written = try readFile(own)
        #expect(written.starts(with: [0xFF, 0xD8, 0xFF]) && written.count < 1 << 20)
    }

    /// `thumb PHOTO -o PHOTO`, or over a copy of a Live Photo's video kept outside the
    /// library: the copy is an asset's bytes and is never written over; a file that is
    /// no asset's (an earlier thumbnail) is written over as asked.
    @Test func aCopyOfAnAssetIsNeverWrittenOver() throws {
        let library = try TestLibrary()
        let pair = try LivePair(number: 22, in: library.folder)
        let still = try library.input(bytes: pair.still, name: BytePath(pair.stillName))
        let video = try library.input(bytes: pair.video, name: BytePath(pair.videoName))
        let id = try library.save([still, video], album: "QQ")[0]
        let attempts: [[String]] = [
            ["thumb", still.display, "-o", still.display],
            ["thumb", "\(id)", "-o", video.display],
            ["export", "\(id)", "--video", "-o", video.display],
        ]
        for arguments in attempts {
            let result = try library.run(bytes: arguments.map { BytePath($0) })
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "is a copy of asset \(id), and photofiler never writes over a photo or video"),
                "\(result.stderr)")
        }
        #expect(try readFile(still) == pair.still)
        #expect(try readFile(video) == pair.video)

        let thumbnail = library.folder.file("thumbnail.jpg")
        #expect(try library.run("thumb", "\(id)", "-o", thumbnail.display).status == 0)
        let again = try library.run("thumb", "\(id)", "--size", "1024", "-o", thumbnail.display)
        #expect(again.status == 0, "an earlier thumbnail is written over: \(again.stderr)")
    }
}
