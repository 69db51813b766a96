import TestSupport
import Testing

@testable import PhotoFilerFiling
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The hash stops at the size `fstat` gave, and still reports a file whose size
/// moved since, so the inspection's size check catches it.
@Suite struct ContentCopierTests {
    static func hash(of bytes: [UInt8], statedSize: Int64?) throws -> (hash: String, size: Int64) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("a.jpg")
        try writeFile(path, bytes)
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        var scans = EndMarkerScans.anyType
        return try ContentCopier(bufferSize: 4096).hash(fd, path: path, scanning: &scans, size: statedSize)
    }

    @Test(arguments: [0, 1, 4095, 4096, 4097, 10_000])
    func theStatedSizeGivesTheWholeFilesHash(size: Int) throws {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let read = try Self.hash(of: bytes, statedSize: Int64(size))
        #expect(read == (try Self.hash(of: bytes, statedSize: nil)))
        #expect(read.size == Int64(size))
    }

    /// `fstat` said less (the file grew since) or more (it shrank): the bytes read say so.
    @Test(arguments: [-100, 100])
    func aSizeThatMovedIsReported(change: Int) throws {
        let bytes = [UInt8](repeating: 0xAB, count: 3_000)
        let read = try Self.hash(of: bytes, statedSize: Int64(3_000 - change))
        #expect(read.size == 3_000)
        #expect(read == (try Self.hash(of: bytes, statedSize: nil)))
    }
}
