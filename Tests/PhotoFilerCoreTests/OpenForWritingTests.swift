import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem

/// `Sys.isOpenForWriting` asks the kernel through a read lease, given back at once.
@Suite struct OpenForWritingTests {
    @Test func aFileHeldByAWriterIsOpenForWritingUntilItsClose() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("a.jpg")
        let writer = try Sys.open(path, flags: O_WRONLY | O_CREAT | O_CLOEXEC, mode: 0o644)
        try [UInt8](repeating: 0xFF, count: 64).withUnsafeBytes { try writer.writeAll($0) }
        #expect(try Sys.isOpenForWriting(path) == true)
        writer.close()
        #expect(try Sys.isOpenForWriting(path) == false)
        // The lease is given back: a writer can open the file again, at once.
        let again = try Sys.open(path, flags: O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        again.close()
        #expect(try Sys.isOpenForWriting(path) == false)
    }

    @Test func aMissingFileIsAnErrorNotAnAnswer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: SystemError.self) { try Sys.isOpenForWriting(folder.file("gone.jpg")) }
    }
}
