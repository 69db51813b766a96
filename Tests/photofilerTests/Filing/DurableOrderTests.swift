import Foundation
import PhotoFilerFiling
import PhotoFilerSystem
import TestSupport
import Testing

/// The durable order of a group, read from the order of its mutating system calls
/// (`PHOTOFILER_CRASH_AT=trace`, debug builds: a line as each call starts and as it
/// returns, whichever thread makes it): the links, then their entries' sync, returned
/// before the commit starts, then the sources' removal once the commit has returned.
/// A crash test cannot see this order (a killed process leaves its writes in the
/// page cache, where the next run finds them, synced or not); the trace can.
@Suite struct DurableOrderTests {
    /// One traced call: its number, whether the line tells its start, and its name.
    struct Call: Equatable {
        var index: Int
        var starts: Bool
        var name: String
    }

    /// A file alone (its folders `fsync`ed) and a group synced by one `syncfs`.
    @Test(arguments: [1, GroupDurability.syncfsGroupSize])
    func theCommitWaitsForTheEntriesAndTheSourcesForTheCommit(files: Int) throws {
        let folder = try TemporaryFolder()
        let inbox = folder.file("inbox")
        let library = folder.file("library")
        try Sys.makeDirectories(inbox)
        // The library and the album exist already: the traced run's only commit is the group's.
        let first = folder.file("first.jpg")
        try writeFile(first, Pictures.unique(0))
        let made = try Binary.run("save", "--library", library.display, "--album", "QQ", first.display)
        try #require(made.status == 0, "\(made.stderr)")
        var sources: [BytePath] = []
        for n in 1...files {
            let source = inbox.appending("IMG_20231201_1234\(10 + n).jpg")
            try writeFile(source, Pictures.unique(n))
            sources.append(source)
        }

        let run = try Binary.run(
            (["save", "--library", library.display, "--album", "QQ", "--move"]).map { BytePath($0) }
                + sources,
            environment: ["PHOTOFILER_CRASH_AT": "trace"])
        try #require(run.status == 0, "\(run.stderr)")
        let calls = Self.calls(in: run.stderr)
        let context = calls.map { "\($0.index)\($0.starts ? "+" : "-")\($0.name)" }.joined(separator: " ")

        let commits = calls.indices.filter { calls[$0].name == "sqlite-commit" && calls[$0].starts }
        try #require(commits.count == 1, "one commit, the group's: \(context)")
        let commit = commits[0]
        let commitReturned = try #require(
            calls.firstIndex { $0.index == calls[commit].index && !$0.starts }, "\(context)")
        let lastLink = try #require(calls.lastIndex { $0.name == "linkat" && $0.starts }, "\(context)")
        #expect(lastLink < commit, "the links before the commit: \(context)")

        // The entries' syncs, started between the last link and the commit, have returned
        // before the commit starts.
        let syncs = calls.indices.filter {
            (lastLink..<commit).contains($0) && calls[$0].starts
                && ["syncfs", "fsync", "fdatasync"].contains(calls[$0].name)
        }
        #expect(!syncs.isEmpty, "the entries are synced: \(context)")
        if files >= GroupDurability.syncfsGroupSize {
            #expect(syncs.contains { calls[$0].name == "syncfs" }, "one syncfs for the group: \(context)")
        }
        for sync in syncs {
            let returned = calls.firstIndex { $0.index == calls[sync].index && !$0.starts }
            #expect(
                returned.map { $0 < commit } == true,
                "call \(calls[sync].index) before the commit: \(context)")
        }

        // The sources go once the commit has returned, and every one goes.
        let removals = calls.indices.filter { calls[$0].name == "unlinkat" && calls[$0].starts }
        #expect(removals.count >= files, "\(context)")
        #expect(removals.allSatisfy { $0 > commitReturned }, "no removal before the commit: \(context)")
        for source in sources { #expect(try Sys.statusIfExists(source) == nil, "'\(source.display)' left") }
    }

    /// The trace's lines, in the order they were written.
    static func calls(in stderr: String) -> [Call] {
        stderr.split(separator: "\n").compactMap { line in
            // "photofiler: fault injection: call 20 starts (linkat)"
            let words = line.split(separator: " ")
            guard words.count == 7, words[3] == "call", let index = Int(words[4]),
                words[5] == "starts" || words[5] == "returned"
            else { return nil }
            return Call(
                index: index, starts: words[5] == "starts", name: String(words[6].dropFirst().dropLast()))
        }
    }
}
