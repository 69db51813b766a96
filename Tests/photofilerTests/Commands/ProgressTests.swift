import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// Long `save` and `check` runs show progress on stderr: a bar redrawn in place on
/// a terminal, plain lines otherwise, nothing with --json, nor with --quiet off a
/// terminal. `PHOTOFILER_PROGRESS_INTERVAL=0` makes every step a report.
@Suite struct ProgressTests {
    static let everyStep = ["PHOTOFILER_PROGRESS_INTERVAL": "0"]

    func inputs(_ count: Int, in library: TestLibrary, tag: String) throws -> [BytePath] {
        try (0..<count).map { index in
            try library.input(bytes: Pictures.uniqueJPEG(index, tag: tag), name: BytePath("p\(index).jpg"))
        }
    }

    @Test func saveOffATerminalPrintsPlainLines() throws {
        let library = try TestLibrary()
        let files = try inputs(12, in: library, tag: "lines")
        let result = try library.run(
            bytes: [BytePath("save"), BytePath("--album"), BytePath("QQ")] + files,
            environment: Self.everyStep)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix("Saving: 1 of 12 file(s), ") && $0.hasSuffix(" left.") },
            "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("Saving done: 12 file(s) in ") }, "\(result.stderr)")
        // Then the thumbnails, on every core, a phase of their own.
        #expect(lines.contains { $0.hasPrefix("Thumbnails: 1 of 12 asset(s), ") }, "\(result.stderr)")
        #expect(lines.last?.hasPrefix("Thumbnails done: 12 asset(s) in ") == true, "\(result.stderr)")
        #expect(!result.stderr.contains("\r"))
        #expect(result.stdout.split(separator: "\n").count == 12, "ids on stdout, progress on stderr only")
    }

    @Test(arguments: [["--quiet"], ["--json"]])
    func quietOffATerminalAndJSONShowNothing(flags: [String]) throws {
        let library = try TestLibrary()
        let files = try inputs(5, in: library, tag: "quiet")
        let result = try library.run(
            bytes: [BytePath("save")] + flags.map { BytePath($0) } + files, environment: Self.everyStep)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Saving"), "\(result.stderr)")
    }

    @Test func checkAndRepairReportHashingAndAdopting() throws {
        let library = try TestLibrary()
        try library.save(try inputs(6, in: library, tag: "check"), album: "QQ")
        let checked = try library.run("check", environment: Self.everyStep)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stderr.contains("Checking: 1 of 6 roll file(s)"), "\(checked.stderr)")
        #expect(checked.stderr.contains("Checking done: 6 roll file(s) in "), "\(checked.stderr)")

        // Roll files put there by hand have no rows: --repair adopts them, one by one.
        let folder = library.root.appending("Roll/2023/12")
        try Sys.makeDirectories(folder)
        for index in 0..<4 {
            try writeFile(
                folder.appending("by-hand-\(index).jpg"), Pictures.uniqueJPEG(index, tag: "by hand"))
        }
        let repaired = try library.run("check", "--repair", environment: Self.everyStep)
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(repaired.stderr.contains("Adopting: 1 of 4 roll file(s)"), "\(repaired.stderr)")
        #expect(repaired.stderr.contains("Adopting done: 4 roll file(s) in "), "\(repaired.stderr)")
        #expect(try library.list().count == 10)
    }

    /// On a terminal (a pseudo-terminal made by script(1)): one line redrawn with \r.
    @Test func saveOnATerminalDrawsOneBar() throws {
        let library = try TestLibrary()
        let files = try inputs(8, in: library, tag: "bar")
        let command = ([Binary.path, BytePath("save"), BytePath("--library"), library.root] + files)
            .map { "'\($0.display)'" }.joined(separator: " ")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // The ids go to /dev/null: what the terminal shows is stderr's bar.
        script.arguments = ["-qec", command + " >/dev/null", "/dev/null"]
        script.environment = ProcessInfo.processInfo.environment.merging(Self.everyStep) { $1 }
        let output = Pipe()
        script.standardOutput = output
        script.standardInput = FileHandle.nullDevice
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0, "\(text)")
        let redraws = text.split(separator: "\r", omittingEmptySubsequences: true)
        #expect(redraws.count >= 8, "\(text.debugDescription)")
        #expect(redraws.first?.hasPrefix("Saving [") == true, "\(text.debugDescription)")
        #expect(text.contains("] 8/8  "), "\(text.debugDescription)")
        #expect(text.contains("done in "), "\(text.debugDescription)")
        #expect(!text.contains("Saving: "), "a terminal gets the bar, not the plain lines")
    }
}
