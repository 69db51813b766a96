import Foundation
import TestSupport

@testable import PhotoFilerFiling
@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

/// The corpus files (`Tests/Fixtures/corpus`, rows in `CorpusManifest`) read the way the filer reads them.
enum Corpus {
    static func path(_ file: String) -> BytePath { Fixtures.corpus(file) }

    /// Opens `path` the way the filer does, reads it and looks for its end while hashing it.
    static func read(_ path: BytePath, with reader: MediaReader) throws -> MediaInfo {
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let size = try fd.status().size
        let info = try reader.read(fd, path: path, size: size)
        var scan = EndMarkerScans(mimeType: info.mimeType)
        _ = try ContentCopier().hash(fd, path: path, scanning: &scan)
        try scan.verify(mimeType: info.mimeType, path: path)
        return info
    }
}
