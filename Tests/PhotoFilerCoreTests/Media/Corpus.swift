import Foundation
import TestSupport

@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The corpus files (`Tests/Fixtures/corpus`, rows in `CorpusManifest`) read the way the filer reads them.
enum Corpus {
    static func path(_ file: String) -> BytePath { Fixtures.corpus(file) }

    /// Opens `path` the way the filer does and reads it.
    static func read(_ path: BytePath, with reader: MediaReader) throws -> MediaInfo {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let size = try fd.status().size
        return try reader.read(fd, path: path, size: size)
    }
}
