import CVips
import Foundation
import Testing

@testable import PhotoFilerMedia
@testable import PhotoFilerMediaTypes
@testable import PhotoFilerSystem

@Suite(.enabled(if: Corpus.isAvailable, Corpus.skipReason))
struct ThumbnailMakerTests {
    static var goodFiles: [Corpus.Entry] { Corpus.entries.filter { !$0.file.hasPrefix("bad/") } }

    /// Makes `renditions` of a corpus file the way the library does: the reader's
    /// description picks the source.
    static func make(_ file: String, _ renditions: [ThumbnailRendition]) throws -> (MediaInfo, [EncodedThumbnail]) {
        let path = Corpus.path(file)
        let fd = try Sys.openForReading(path)
        defer { fd.close() }
        let size = try fd.status().size
        let info = try MediaReader(timeZone: .gmt).read(fd, path: path, size: size)
        let request = ThumbnailRequest(source: .init(info), renditions: renditions)
        return (info, try ThumbnailMaker().make(fd, size: size, request))
    }

    @Test(arguments: goodFiles)
    func sizeAndAspectAreTheDisplayedOnes(entry: Corpus.Entry) throws {
        let (info, made) = try Self.make(entry.file, [.jpeg(1024), .jpeg(256)])
        print("THUMB", entry.file, info.displayWidth, info.displayHeight, made.map { "\($0.width)x\($0.height) \($0.bytes.count)" })
    }
}
