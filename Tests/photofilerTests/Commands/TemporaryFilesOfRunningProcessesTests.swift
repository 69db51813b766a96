import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `.photofiler/tmp` is cleared of what ended processes left, and only that: a `save`
/// copying a file in beside a running daemon (or `check --repair`) keeps its copy.
@Suite
struct TemporaryFilesOfRunningProcessesTests {
    @Test func onlyWhatEndedProcessesLeftIsRemoved() throws {
        let library = try CheckCommandTests.library()
        let temporary = library.root.appending(".photofiler/tmp")
        _ = try Sys.makeDirectories(temporary)
        let ended = Machine.shell("sh -c 'echo $$'").output.trimmingCharacters(in: .whitespacesAndNewlines)
        let running = temporary.appending("filing-\(getpid())-1.tmp")
        let left = temporary.appending("filing-\(ended)-1.tmp")
        let unnamed = temporary.appending("left-by-hand")
        for path in [running, left, unnamed] { try writeFile(path, [1, 2, 3]) }

        let repair = try library.run("check", "--repair")
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect((try Sys.statusIfExists(running)) != nil, "a running process's copy stays")
        #expect((try Sys.statusIfExists(left)) == nil, "an ended process's goes")
        #expect((try Sys.statusIfExists(unnamed)) == nil)
    }
}
