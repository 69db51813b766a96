import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem

/// `Sys.openForReading` reads the user's files without writing their access time.
@Suite struct OpenForReadingTests {
    /// Under `relatime` a read of a file whose access time is older than its
    /// modification time writes a new one; photofiler's read must not.
    @Test func readingLeavesTheAccessTimeAsItWas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("a.jpg")
        try writeFile(path, [UInt8](repeating: 0xD8, count: 10_000))
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000, tv_nsec: 0)]
        #expect(path.withCString { utimensat(AT_FDCWD, $0, &times, 0) } == 0)

        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: 10_000)
        let count = buffer.withUnsafeMutableBytes { read(fd.rawValue, $0.baseAddress, $0.count) }
        #expect(count == 10_000)

        var status = stat()
        #expect(fstat(fd.rawValue, &status) == 0)
        #expect(status.st_atim.tv_sec == 1_000_000)
    }
}
