import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) EXIT STATUS: an error is one clear sentence that names the file and the
/// fix, in the words of the command that was run (not the daemon's "put it in the
/// inbox", not a system call's "pread: Is a directory").
@Suite struct WrongInputWordsTests {
    func expectOneSentence(
        _ result: Binary.Result, status: Int32 = 1, saying words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        for word in words {
            #expect(result.stderr.contains(word), "\(word): \(result.stderr)", sourceLocation: sourceLocation)
        }
        for syscall in ["pread", "stat '", "A file operation failed", "inbox"] {
            #expect(
                !result.stderr.contains(syscall), "\(syscall): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
    }

    /// `info` and `thumb` given a folder, a path where nothing is, a dead symbolic
    /// link or a FIFO say which, and what to give instead.
    @Test func infoAndThumbOfWhatIsNoFile() throws {
        let library = try TestLibrary()
        try library.save([try library.input(corpus: "Landscape_1.jpg")])
        let folder = library.inputs.appending("pictures.jpg")
        try Sys.makeDirectory(folder)
        let dead = library.inputs.appending("dead.jpg")
        #expect(symlink("/nonexistent/x.jpg", dead.display) == 0)
        for command in ["info", "thumb"] {
            expectOneSentence(
                try library.run(command, folder.display),
                saying: ["'\(folder.display)' is a folder", "give an asset's id"])
            expectOneSentence(
                try library.run(command, "abc"),
                saying: ["'abc' is neither an asset id nor a file that exists"])
            expectOneSentence(
                try library.run(command, dead.display),
                saying: ["'\(dead.display)' is neither an asset id nor a file that exists"])
        }
        let fifo = library.inputs.appending("pipe.jpg")
        #expect(mkfifo(fifo.display, 0o644) == 0)
        expectOneSentence(try library.run("info", fifo.display), saying: ["'\(fifo.display)' is a FIFO"])
    }

    /// `rm ID --album NAME` of an album that does not exist says so, as `list --album` does.
    @Test func rmFromAnAlbumThatIsNot() throws {
        let library = try TestLibrary()
        try library.save([try library.input(corpus: "Landscape_1.jpg")], album: "QQ")
        expectOneSentence(
            try library.run("rm", "1", "--album", "Nope"),
            saying: ["There is no album named 'Nope'", "'photofiler albums' lists them"])
        #expect(try library.list().first?["albums"] as? [String] == ["QQ"])
    }

    /// `save` of a FIFO or a symbolic link says what it is in `save`'s words.
    @Test func saveOfWhatIsNoRegularFile() throws {
        let library = try TestLibrary()
        let link = library.inputs.appending("link.jpg")
        #expect(symlink(Fixtures.corpus("Landscape_1.jpg").display, link.display) == 0)
        let fifo = library.inputs.appending("pipe.jpg")
        #expect(mkfifo(fifo.display, 0o644) == 0)
        expectOneSentence(
            try library.run("save", fifo.display),
            saying: ["'\(fifo.display)' is a FIFO", "photofiler files only regular files"])
        expectOneSentence(
            try library.run("save", link.display),
            saying: ["is a symbolic link", "file the picture it points to instead"])
        let empty = try library.input(bytes: [], name: BytePath("empty.jpg"))
        expectOneSentence(try library.run("save", empty.display), saying: ["is empty (0 bytes)"])
    }

    /// `photofiler` with no command is a usage error: one line on stderr, exit 2.
    @Test func noCommandIsAUsageError() throws {
        let result = try Binary.run([])
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        expectOneSentence(result, status: 2, saying: ["No command given", "photofiler --help"])
    }
}
