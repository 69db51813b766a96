import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// The manual and the shell completion travel with the code: every command and
/// option the binary knows is in both, the pages build with scdoc, and the
/// completion scripts complete album names from a real catalog.
@Suite struct DocumentationTests {
    static let root = Binary.packageRoot
    static let manual = root.appending("docs/photofiler.1.scd")
    static let configManual = root.appending("docs/photofiler.conf.5.scd")
    static let completions = ["photofiler.bash", "_photofiler", "photofiler.fish"].map {
        root.appending("completions").appending($0)
    }

    /// Runs a program to its end; its exit status and stdout.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    static func text(_ path: BytePath) throws -> String {
        String(decoding: try readFile(path), as: UTF8.self)
    }

    /// The commands `photofiler --help` lists.
    static func commands() throws -> [String] {
        let overview = try Binary.run("--help").stdout
        let listed = overview.split(separator: "\n").drop { !$0.hasPrefix("commands:") }.dropFirst()
        return listed.prefix { $0.hasPrefix("  ") }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The options a command's usage line names.
    static func options(of command: String) throws -> Set<String> {
        let usage = try Binary.run(command, "--help").stdout
        let words = usage.split(whereSeparator: { " []|…\n".contains($0) })
        return Set(words.filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 == "-" || $0.isLetter }) })
    }

    @Test(arguments: [manual, configManual])
    func aPageBuildsWithScdoc(page: BytePath) throws {
        let built = try Self.run("/bin/sh", ["-c", "scdoc < '\(page.display)'"])
        #expect(built.status == 0, "scdoc refused '\(page.display)'")
        #expect(built.output.contains(".SH NAME"))
    }

    @Test func theManualNamesEveryCommandAndOption() throws {
        let manual = try Self.text(Self.manual)
        let commands = try Self.commands()
        #expect(commands.contains("status") && commands.contains("watch"), "\(commands)")
        #expect(
            try Self.options(of: "list") == [
                "--album", "--media", "--sort", "--limit", "--library", "--json",
            ])
        for command in commands where command != "help" {
            #expect(manual.contains("*\(command)*"), "photofiler(1) does not describe '\(command)'")
            for option in try Self.options(of: command) {
                #expect(manual.contains("*\(option)*"), "photofiler(1) does not name \(command) \(option)")
            }
        }
        for status in ["*0*", "*1*", "*2*", "*3*"] { #expect(manual.contains(status)) }
        for field in [
            "running", "pid", "since", "inboxes", "lastError", "watches", "thumbnailsPending", "hash",
        ] {
            #expect(manual.contains("*\(field)*"), "photofiler(1) does not name the JSON field \(field)")
        }
    }

    @Test func theConfigPageNamesEveryGroupAndKey() throws {
        let page = try Self.text(Self.configManual)
        for word in [
            "[library]", "[inbox NAME]", "*path*", "*link*", "*settle*", "*rescan*", "*keep*", ".stfolder",
        ] {
            #expect(page.contains(word), "photofiler.conf(5) does not name \(word)")
        }
    }

    @Test(arguments: completions)
    func aCompletionOffersEveryCommandAndOption(script: BytePath) throws {
        let text = try Self.text(script)
        for command in try Self.commands() {
            #expect(text.contains(command), "\(script.lastComponent.display) misses '\(command)'")
            for option in try Self.options(of: command) {
                let bare = String(option.dropFirst(2))
                #expect(
                    text.contains(option) || text.contains("-l \(bare)"),
                    "\(script.lastComponent.display) misses \(option)")
            }
        }
    }

    /// A library with a user album whose name has a space, and `photofiler` on PATH.
    static func libraryWithAlbum() throws -> (TestLibrary, [String: String]) {
        let library = try TestLibrary()
        try library.save([Fixtures.corpus("throbber.gif")], album: "My Trip")
        let path =
            Binary.path.parent.display + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return (library, ["PATH": path])
    }

    @Test func bashCompletesCommandsOptionsAndAlbumsFromTheCatalog() throws {
        let (library, environment) = try Self.libraryWithAlbum()
        let script = """
            source '\(Self.completions[0].display)'
            complete() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _photofiler; printf '%s\\n' "${COMPREPLY[@]}"; echo --; }
            complete photofiler list --library '\(library.root.display)' --album ''
            complete photofiler sta
            complete photofiler check --r
            complete photofiler list --media ''
            """
        let result = try Self.run("/bin/bash", ["-c", script], environment: environment)
        #expect(result.status == 0)
        let answers = result.output.components(separatedBy: "--\n").map {
            $0.split(separator: "\n").map(String.init)
        }
        #expect(answers[0].contains("My\\ Trip"), "\(answers[0])")
        #expect(answers[0].contains("Recently\\ Added"), "\(answers[0])")
        #expect(answers[1] == ["status"])
        #expect(answers[2] == ["--repair"])
        #expect(answers[3] == ["image", "video", "live"])
    }

    @Test func fishCompletesAlbumsFromTheCatalog() throws {
        let (library, environment) = try Self.libraryWithAlbum()
        let line = "photofiler save --library \(library.root.display) --album "
        let result = try Self.run(
            "/usr/bin/fish",
            [
                "--no-config", "-c",
                "source '\(Self.completions[2].display)'; complete --do-complete '\(line)'",
            ],
            environment: environment)
        #expect(result.status == 0)
        let names = result.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(names.contains("My Trip"), "\(result.output)")
        #expect(names.contains("Favorites"), "\(result.output)")
    }

    @Test func zshCompletionParsesAndDefinesItsFunction() throws {
        let path = Self.completions[1].display
        #expect(try Self.run("/usr/bin/zsh", ["-n", path]).status == 0)
        let loaded = try Self.run(
            "/usr/bin/zsh",
            [
                "-f", "-c",
                // -D: no dump file (`-d /dev/null` made zsh, as root, replace /dev/null with its dump).
                "autoload -Uz compinit && compinit -u -D; source '\(path)' 2>/dev/null; whence -w _photofiler_albums",
            ])
        #expect(loaded.output.contains("function"), "\(loaded.output)")
    }

    /// Nothing tracked points out of the repository: a clone stands on its own.
    @Test func nothingInTheRepositoryPointsBesideIt() throws {
        let listed = try Self.run("/usr/bin/git", ["-C", Self.root.display, "ls-files"])
        try #require(listed.status == 0)
        let outside = "../" + "shared"
        for file in listed.output.split(separator: "\n") where !file.hasPrefix("Tests/Fixtures/") {
            let path = Self.root.appending(String(file))
            guard let bytes = try? readFile(path), !bytes.contains(0) else { continue }
            #expect(!String(decoding: bytes, as: UTF8.self).contains(outside), "\(file) points at \(outside)")
        }
    }
}
