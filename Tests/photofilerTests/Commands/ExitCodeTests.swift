import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// photofiler(1) EXIT STATUS: exit 0 success, 1 a failure of the work, 2 a usage or
/// configuration error; errors are one clear sentence, never a raw error dump.
@Suite struct ExitCodeTests {
    static let commands = [
        "watch", "save", "albums", "list", "info", "rm", "restore", "favorite", "unfavorite", "check",
    ]

    /// The marks of an error that was not turned into a sentence.
    func expectClean(
        _ result: Binary.Result, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for mark in ["Error Domain=", "Fatal error", "Stack dump", "Swift runtime failure", "0x0000"] {
            #expect(
                !result.stderr.contains(mark), "\(comment): \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(
            result.stderr.split(separator: "\n").count == 1, "\(comment): one line: \(result.stderr)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        ["frobnicate"], ["list", "--bogus"], ["albums", "--repair"], ["save", "--album"],
        ["list", "--limit", "-1"],
        ["list", "--limit", "lots"], ["list", "--limit", "1.5"], ["list", "--media", "audio"],
        ["list", "--sort", "size"],
        ["save", "--link", "soft", "x.jpg"], ["save"], ["rm"], ["rm", "abc"], ["info"], ["info", "1", "2"],
        ["save", "--album", "..", "x.jpg"], ["save", "--album", ".", "x.jpg"],
        ["save", "--album", "a/b", "x.jpg"],
        ["save", "--album", "", "x.jpg"], ["rm", "1", "--album", "a/b"], ["watch", "--inbox", "a/b=/tmp"],
        ["list", "--album", "a/b"], ["list", "--album", ".."],
        ["watch", "--inbox", "noequals"], ["watch", "--settle", "soon"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try Binary.run(
            (arguments + ["--library", folder.file("library").display]).map { BytePath($0) })
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty, "\(arguments)")
        expectClean(result, "\(arguments)")
        #expect((try? Sys.status(folder.file("library").appending("Roll"))) == nil, "nothing was done")
    }

    /// `--library "$LIB"` with `LIB` unset: not the default library, a usage error.
    @Test(arguments: [["list", "--library", ""], ["rm", "1", "--library="], ["list", "--config", ""]])
    func anEmptyValueIsAUsageErrorNotTheDefault(arguments: [String]) throws {
        let home = try TemporaryFolder()
        let environment = ["HOME": home.path.display, "XDG_CONFIG_HOME": home.file("config").display]
        let result = try Binary.run(arguments.map { BytePath($0) }, environment: environment)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("is given an empty value"), "\(result.stderr)")
        expectClean(result, "\(arguments)")
        #expect(regularFiles(under: home.path).isEmpty, "no library was made")
    }

    @Test(arguments: commands)
    func helpExitsZero(command: String) throws {
        let result = try Binary.run(command, "--help")
        #expect(result.status == 0, "\(command): \(result.stderr)")
        #expect(result.stdout.contains("usage: photofiler"), "\(command): \(result.stdout)")
        #expect(result.stdout.contains(command == "unfavorite" ? "favorite" : command))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: commands)
    func badConfigLineExitsTwoWithItsLineNumber(command: String) throws {
        let folder = try TemporaryFolder()
        let config = folder.file("photofiler.conf")
        try folder.write("# photofiler\n[library]\nlink = hard\nthis line is no key\n", to: config)
        let operands: [String] =
            switch command {
            case "save": [folder.file("x.jpg").display]
            case "info", "rm", "restore", "favorite", "unfavorite": ["1"]
            default: []
            }
        let result = try Binary.run(
            ([command, "--config", config.display, "--library", folder.file("library").display] + operands)
                .map {
                    BytePath($0)
                })
        #expect(result.status == 2, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("4"), "\(command): the line number: \(result.stderr)")
        #expect(result.stderr.contains(config.display), "\(command): names the file: \(result.stderr)")
        expectClean(result, command)
    }

    @Test func unknownKeyAndGroupInConfigExitTwo() throws {
        let folder = try TemporaryFolder()
        for (text, line) in [("[library]\ncolour = blue\n", 2), ("[library]\nlink = hard\n\n[inboxes]\n", 4)]
        {
            let config = folder.file("bad-\(line).conf")
            try folder.write(text, to: config)
            let result = try Binary.run(
                "albums", "--config", config.display, "--library", folder.file("lib").display)
            #expect(result.status == 2, "\(text): \(result.stderr)")
            #expect(result.stderr.contains("\(line)"), "\(text): \(result.stderr)")
            expectClean(result, text)
        }
    }

    @Test func missingLibraryIsCreated() throws {
        let folder = try TemporaryFolder()
        let library = folder.file("deep/down/PhotoFiler")
        let result = try Binary.run("albums", "--json", "--library", library.display)
        #expect(result.status == 0, "\(result.stderr)")
        for part in ["Roll", "Albums", "Recently Deleted", ".photofiler"] {
            #expect(try Sys.status(library.appending(part)).isDirectory, "\(part)")
        }
        let albums = try #require(try result.json() as? [[String: Any]])
        #expect(
            albums.compactMap { $0["name"] as? String } == [
                "Videos", "Live Photos", "Animated", "Screenshots", "Panoramas", "Selfies", "Portraits",
                "Bursts",
                "Slo-mo", "Time-lapse", "RAW", "Recently Added", "Favorites", "Hidden", "Recently Deleted",
            ], "only the smart albums, each even when empty, in the phone's order")
        #expect(albums.allSatisfy { $0["count"] as? Int == 0 && $0["kind"] as? String == "smart" })
        let empty = try Binary.run("list", "--json", "--library", library.display)
        #expect(empty.status == 0)
        #expect((try empty.json() as? [Any])?.isEmpty == true)
    }

    /// A library path that is a file (or passes through one) says so with the fix, not
    /// the bare errno; nothing is made and the file is left as it was.
    @Test func aLibraryPathThroughAFileSaysSo() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("notes.txt")
        try writeFile(file, Array("kept".utf8))
        for library in [file, file.appending("PhotoFiler")] {
            let result = try Binary.run("list", "--library", library.display)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "cannot be made at '\(file.display)': it or a folder above it is a file")
                    && result.stderr.contains("choose another with --library"), "\(result.stderr)")
            expectClean(result, library.display)
        }
        #expect(try readFile(file) == Array("kept".utf8))
    }

    @Test func failuresOfTheWorkExitOne() throws {
        let folder = try TemporaryFolder()
        let library = folder.file("library").display
        for arguments in [
            ["save", folder.file("missing.jpg").display], ["rm", "42"], ["restore", "42"], ["info", "42"],
            ["list", "--album", "No Such Album"],
        ] {
            let result = try Binary.run((arguments + ["--library", library]).map { BytePath($0) })
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            expectClean(result, "\(arguments)")
        }
    }
}
