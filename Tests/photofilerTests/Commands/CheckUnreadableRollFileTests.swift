import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// `check` on a roll file that is there but cannot be read (a failing disk,
/// injected on `open` with `PHOTOFILER_FAIL_PATH`, since root reads through permissions): one line naming
/// the file and the fix, the other files still checked, exit 1; `--repair` ends
/// nothing because of it.
@Suite
struct CheckUnreadableRollFileTests {
    @Test func anUnreadableRollFileIsListedAndTheRestChecked() throws {
        let library = try CheckCommandTests.library()
        let rollFiles = try library.rollFiles()
        let unreadable = try #require(rollFiles.first { $0.lastComponent.display.hasPrefix("cmyk") })
        let changed = try #require(rollFiles.first { $0.lastComponent.display.hasPrefix("progressive") })
        // Same size, other bytes: a wrong hash that only reading the file finds.
        var bytes = try readFile(changed)
        bytes[bytes.count / 2] ^= 0xFF
        let fd = try Sys.open(changed, flags: O_WRONLY)
        try fd.writeAll(bytes)
        fd.close()
        let failing = ["PHOTOFILER_FAIL_PATH": "open:EIO:\(unreadable.lastComponent.display)"]

        let check = try library.run("check", environment: failing)
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        let lines = check.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(check.stdout)\(check.stderr)")
        let relative = String(unreadable.display.dropFirst(library.root.display.count + 1))
        #expect(
            lines.contains {
                $0.hasPrefix("unreadable roll file: asset ")
                    && $0.contains("'\(relative)' (input/output error)")
                    && $0.hasSuffix("check the disk holding it")
            }, "\(check.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("wrong hash: ") && $0.contains("progressive") }, "\(check.stdout)")
        #expect(!check.stdout.contains("missing roll file"), "\(check.stdout)")

        let repair = try library.run("check", "--repair", environment: failing)
        #expect(repair.status == 1, "left as found: \(repair.stdout)\(repair.stderr)")
        #expect(repair.stdout.contains("unreadable roll file: asset "), "\(repair.stdout)")
        #expect(try library.list().count == 3, "no asset ended")
        #expect((try? Sys.status(unreadable)) != nil)
    }
}
