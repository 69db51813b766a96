import Glibc
import TestSupport
import Testing

@testable import PhotoFilerSystem

/// `FileDescriptor.syncData` is how the bytes that enter the Roll are made
/// durable for a small group: on the read-only descriptor the inspection holds.
@Suite struct SyncDataTests {
    @Test func syncsTheBytesThroughTheInspectionsReadOnlyDescriptor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("a.jpg")
        try writeFile(path, [UInt8](repeating: 0xD8, count: 4096))
        let reader = try Sys.openForReading(path)
        defer { reader.close() }
        try reader.syncData()
    }

    @Test func aFailureIsATypedErrorNamingTheCall() throws {
        let closed = FileDescriptor(rawValue: -1)
        let error = #expect(throws: SystemError.self) { try closed.syncData() }
        #expect(error?.call == "fdatasync")
        #expect(error?.errno == Errno(rawValue: EBADF))
    }
}
