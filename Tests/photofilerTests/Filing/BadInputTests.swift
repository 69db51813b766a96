import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) "Content decides" and "Safe inputs": what is refused is left exactly as it
/// was, with one clear line naming it; odd but valid names are filed byte for byte.
@Suite
struct BadInputTests {
    /// Runs `save --move --album Inbox FILE` on something that must be refused and checks
    /// the refusal: exit 1, one stderr line naming it, nothing in the Roll or the album.
    func expectRefused(
        _ file: BytePath, in library: TestLibrary, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let process = try Spawned(
            arguments: ["save", "--move", "--album", "Inbox", "--library", library.root.display].map {
                BytePath($0)
            } + [file],
            environment: [:])
        let status = try #require(
            process.wait(timeout: 30), "save returned (it did not hang)", sourceLocation: sourceLocation)
        let stderr = process.stderrText()
        #expect(status == 1, "\(stderr)", sourceLocation: sourceLocation)
        #expect(process.stdoutBytes().isEmpty, "no id printed", sourceLocation: sourceLocation)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(stderr)", sourceLocation: sourceLocation)
        #expect(
            stderr.contains(file.display), "the line names the file: \(stderr)",
            sourceLocation: sourceLocation)
        #expect(!stderr.contains("Error Domain="), sourceLocation: sourceLocation)
        #expect(try library.rollFiles().isEmpty, "nothing in the Roll", sourceLocation: sourceLocation)
        #expect(
            try library.entries(ofAlbum: "Inbox").isEmpty, "nothing in the album",
            sourceLocation: sourceLocation)
        #expect(
            try TestLibrary.files(under: library.root.appending(".photofiler/tmp")).isEmpty,
            "no temporary left",
            sourceLocation: sourceLocation)
        return stderr
    }

    struct Snapshot: Equatable {
        var bytes: [UInt8]
        var modification: Int64
        var inode: UInt64
        init(_ path: BytePath) throws {
            bytes = try readFile(path)
            let status = try Sys.status(path)
            modification = status.modificationNanoseconds
            inode = status.inode
        }
    }

    /// The corpus's cut, empty and text files. Its PNG with a wrong CRC is whole and of
    /// a supported format: it is filed without a thumbnail (`DamagedFileTests`).
    @Test(arguments: CorpusManifest.bad.map(\.file).filter { $0 != "bad/bad_crc.png" })
    func brokenCorpusFileIsRefusedAndUntouched(file: String) throws {
        let library = try TestLibrary()
        let input = try library.input(corpus: file)
        let before = try Snapshot(input)
        _ = try expectRefused(input, in: library)
        #expect(try Snapshot(input) == before, "same bytes, same mtime, still there")
        #expect(try library.list().isEmpty)
    }

    @Test func textFileIsRefused() throws {
        let library = try TestLibrary()
        let input = try library.input(
            bytes: Array("Dear diary, today I took no pictures.\n".utf8), name: "notes.txt")
        let before = try Snapshot(input)
        _ = try expectRefused(input, in: library)
        #expect(try Snapshot(input) == before)
    }

    @Test func symbolicLinkIsNeverFollowed() throws {
        let library = try TestLibrary()
        let target = try library.input(corpus: "throbber.gif", as: "target.gif")
        let link = library.inputs.appending("link.gif")
        try Sys.symbolicLink(target: target, at: link)
        let before = try Snapshot(target)
        let message = try expectRefused(link, in: library)
        #expect(message.contains("symbolic link"), "\(message)")
        #expect(try Snapshot(target) == before, "the target is untouched")
        #expect(try Sys.status(link).isSymbolicLink, "the link itself stays (even with --move)")
        #expect(try Sys.readLink(link) == target)
    }

    @Test func fifoIsRefusedWithoutHanging() throws {
        let library = try TestLibrary()
        let fifo = library.inputs.appending("pipe.jpg")
        try #require(fifo.withCString { mkfifo($0, 0o644) } == 0)
        _ = try expectRefused(fifo, in: library)
        #expect(try Sys.status(fifo).kind == .fifo, "the FIFO stays")
    }

    @Test func directoryIsRefused() throws {
        let library = try TestLibrary()
        let folder = library.inputs.appending("album.jpg")
        try Sys.makeDirectory(folder)
        _ = try expectRefused(folder, in: library)
        #expect(try Sys.status(folder).isDirectory)
    }

    @Test func nonUTF8NameIsFiledWithItsBytes() throws {
        let library = try TestLibrary()
        let name = BytePath(bytes: Array("caf".utf8) + [0xE9] + Array(".gif".utf8))
        #expect(!name.isValidUTF8)
        let input = try library.input(
            bytes: try readFile(Fixtures.corpus("throbber.gif")), name: name)
        let ids = try library.save([input], album: "Inbox")
        #expect(ids.count == 1)
        let rollFiles = try library.rollFiles()
        #expect(rollFiles.map(\.lastComponent) == [name], "the roll file's name has the exact bytes")
        #expect(try library.entries(ofAlbum: "Inbox") == [name])
        let asset = try #require(try library.list().first)
        let path = try #require(asset["path"] as? String)
        #expect(path.hasSuffix("caf\u{FFFD}.gif"), "\(path)")
        #expect(base64Bytes(asset["pathBase64"]) == rollFiles.first?.bytes, "pathBase64 is the exact path")
        #expect(asset["originalName"] as? String == "caf\u{FFFD}.gif")
        #expect(base64Bytes(asset["originalNameBase64"]) == name.bytes)
        // The same asset is found by that path.
        #expect(assetID(try library.info(try #require(rollFiles.first))) == ids.first)
    }

    /// A refused file whose name holds a newline: the one error line is split in two,
    /// since the logger writes each line of a message as its own log line.
    @Test func refusedNameWithANewlineIsStillOneLine() throws {
        let library = try TestLibrary()
        let input = try library.input(bytes: Array("plain text".utf8), name: "two\nlines.jpg")
        let result = try library.run("save", input.display)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("two\\nlines.jpg"), "\(result.stderr)")
        #expect(try Snapshot(input).bytes == Array("plain text".utf8))
    }

    @Test func nameWithANewlineIsFiledWithItsBytes() throws {
        let library = try TestLibrary()
        let name = BytePath("line\nbreak.jpeg")
        let input = try library.input(
            bytes: try readFile(Fixtures.corpus("cmyk_go_video-001.jpeg")), name: name)
        let ids = try library.save([input], album: "Inbox")
        #expect(ids.count == 1)
        let rollFiles = try library.rollFiles()
        #expect(rollFiles.map(\.lastComponent) == [name])
        #expect(try library.entries(ofAlbum: "Inbox") == [name])
        let asset = try #require(try library.list().first)
        #expect(asset["originalName"] as? String == "line\nbreak.jpeg")
        #expect((asset["path"] as? String)?.hasSuffix("/line\nbreak.jpeg") == true)
        #expect(asset["pathBase64"] == nil && asset["originalNameBase64"] == nil, "valid UTF-8: no base64")
    }
}
