import Foundation
import TestSupport
import Testing

@testable import PhotoFilerCatalog
@testable import PhotoFilerFiling
@testable import PhotoFilerSystem

/// A group the filer copies itself (keep mode, another file system) when the
/// daemon is told to stop: the files copied are filed, the rest are left where
/// they are (`.stopped`), and no copy is left behind. photofiler(1) "The daemon": SIGTERM finishes the
/// file in hand and exits within 5 s, whatever the group still holds.
@Suite
struct StoppedGroupTests {
    /// `stop` is asked before each file and before each read of its copy (a small
    /// file: one read of its bytes, one that finds the end): three times a file. It
    /// says stop from its answer number `stopAt` on: at 1, before anything; at 4,
    /// before the second file; at 5, in the middle of the second file's copy.
    @Test(arguments: [(1, 0), (4, 1), (5, 1)])
    func aStopLeavesTheFilesNotCopiedYet(stopAt: Int, filed: Int) throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(root: folder.file("library"), log: Logger(minimumLevel: .error))
        let inbox = folder.file("inbox")
        try Sys.makeDirectories(inbox)
        let names = ["Landscape_1.jpg", "Landscape_6.jpg", "Landscape_8.jpg"]
        let requests = try names.map { name in
            try copyFile(Fixtures.corpus(name), to: inbox.appending(name))
            return FilingRequest(
                source: inbox.appending(name), album: try AlbumName(validating: "QQ"), origin: "QQ",
                mode: .keep,
                link: .hard)
        }
        let inspections = library.filer.inspector.inspect(requests)
        var asked = 0
        let results = library.filer.file(inspected: inspections, requests: requests) {
            asked += 1
            return asked >= stopAt
        }
        for (index, result) in results.enumerated() {
            if index < filed {
                #expect(try result.get().asset != nil, "\(names[index]) was copied before the stop")
            } else if case .failure(.stopped(let path)) = result {
                #expect(path == inbox.appending(names[index]))
            } else {
                Issue.record("\(names[index]): \(result)")
            }
        }
        #expect(try library.catalog.liveAssetCount() == filed)
        #expect(regularFiles(under: library.layout.temporary).isEmpty, "no copy is left behind")
        for name in names {
            #expect(try Sys.statusIfExists(inbox.appending(name)) != nil, "keep mode: \(name) stays")
        }
    }
}
